"""Servers the loopback benchmarks talk to, each in a process of its own.

``python -m benchmarks.serve sandbox --port P [--bulk N] [--job-seconds S]``
serves a fresh sandbox (``accountdesk.sandbox.create_app``) with uvicorn;
``python -m benchmarks.serve bare --port P --body FILE`` serves a bare Starlette
app whose one route, ``GET /accounts/{user_id}``, answers FILE's bytes as
JSON: the floor of the sandbox's throughput. Both run uvicorn with the same
settings as ``accountdesk sandbox`` (one worker, log level info, access log),
except a keep-alive of 300 s instead of 5 s.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any


def sandbox_app(options: argparse.Namespace) -> Any:
    from accountdesk.sandbox import create_app

    return create_app(bulk_transactions=options.bulk, job_seconds=options.job_seconds)


def bare_app(options: argparse.Namespace) -> Any:
    """The floor: one bare Starlette route answering the same JSON (the sandbox is Starlette)."""
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import Response
    from starlette.routing import Route

    body = Path(options.body).read_bytes()

    async def account(request: Request) -> Response:
        return Response(body, media_type="application/json")

    return Starlette(routes=[Route("/accounts/{user_id}", account, methods=["GET"])])


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.serve")
    parser.add_argument("kind", choices=["sandbox", "bare"])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--bulk", type=int, default=100_000)
    parser.add_argument("--job-seconds", type=float, default=2.0)
    parser.add_argument("--body", help="the bare server's answer (a file)")
    options = parser.parse_args()
    import uvicorn

    app = sandbox_app(options) if options.kind == "sandbox" else bare_app(options)
    # Keep-alive beyond a round: the clients' pools must not race a server
    # closing connections that sat idle while the other side was measured.
    uvicorn.run(app, host="127.0.0.1", port=options.port, log_level="info", timeout_keep_alive=300)


if __name__ == "__main__":
    main()
