"""``accountdesk sandbox``: the sandbox served over HTTP, for curl, Postman or a training room.

Serves the shipped scenario users (and any ``--scenarios`` packs) with
uvicorn, bounded against slow, idle and too many clients
(:mod:`accountdesk.sandbox.wire.serving`); ``--tenants`` gives every
``trainee_<name>`` key a world of its own, with a control token for the
trainer. ``--openapi`` prints the OpenAPI document instead. A port that is
busy or a host that does not resolve is one line, exit status 2.
"""

from __future__ import annotations

import argparse
from typing import Any

from accountdesk.cli.output import fail, missing
from accountdesk.cli.packs import add_scenario_flags
from accountdesk.cli.parser import port, positive, seconds
from accountdesk.cli.startup import StartUp

__all__ = ["add_parser", "run"]

#: ``sandbox --help``: the trainer's three calls (the banner prints them as curl lines).
_ROOM_HELP = """\
training room (--tenants), each call with the header X-Sandbox-Control-Token:
  GET  /_sandbox/trainees             list trainees: clock, open jobs, blocks
  POST /_sandbox/reset?trainee=NAME   reset one trainee (NAME or trainee_NAME)
  POST /_sandbox/reset                reset every trainee and the shared world
"""


def add_parser(commands: Any, help: str) -> None:
    """The ``sandbox`` command's flags."""
    sandbox = commands.add_parser(
        "sandbox",
        help=help,
        epilog=_ROOM_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sandbox.add_argument(
        "--host", default="127.0.0.1", help="interface to listen on (default 127.0.0.1)"
    )
    sandbox.add_argument("--port", type=port, default=8765, help="port (default 8765)")
    sandbox.add_argument(
        "--tenants",
        action="store_true",
        help="training room: every trainee_<name> key gets its own isolated world",
    )
    sandbox.add_argument(
        "--max-tenants",
        type=positive,
        default=100,
        metavar="N",
        help="trainee worlds at most (100)",
    )
    sandbox.add_argument(
        "--control-token",
        metavar="TOKEN",
        help="token for the control endpoints (made and printed when serving beyond "
        "loopback or with --tenants)",
    )
    sandbox.add_argument(
        "--bulk-transactions",
        type=positive,
        default=100_000,
        metavar="N",
        help="transactions of user_bulk (default 100,000)",
    )
    sandbox.add_argument(
        "--request-timeout",
        type=seconds,
        default=10.0,
        metavar="SECONDS",
        help="close a connection that has not sent a whole request in this time (default 10)",
    )
    sandbox.add_argument(
        "--max-connections",
        type=positive,
        metavar="N",
        help="connections held at once; more are answered 503 (default 512, fewer when "
        "this process may open fewer files)",
    )
    add_scenario_flags(sandbox, default=argparse.SUPPRESS)
    sandbox.add_argument(
        "--openapi",
        action="store_true",
        help="print the OpenAPI 3.1 document (for Postman or Posting) and exit",
    )


def run(args: argparse.Namespace, start_up: StartUp) -> int:
    """Serve the sandbox until Ctrl+C (or print its OpenAPI document); the exit status."""
    try:
        from accountdesk.sandbox import SandboxOptionError, openapi_document, serve, served_app
    except ImportError as error:
        return missing(error)
    if args.openapi:
        import json

        print(json.dumps(openapi_document(), indent=2))
        return 0
    try:
        # The sandbox's own modules load lazily: a client-only install meets
        # its missing packages here, not at the import above.
        from accountdesk.cli.packs import served_packs

        if isinstance(scenarios := served_packs(args), int):
            return scenarios
        # The options first (bounds the sandbox keeps), then the port.
        app, control_token = served_app(
            args.host,
            control_token=args.control_token,
            tenants=args.tenants,
            max_tenants=args.max_tenants,
            bulk_transactions=args.bulk_transactions,
            **({"scenarios": scenarios} if scenarios is not None else {}),
        )
    except SandboxOptionError as error:
        return fail(f"sandbox: {error}")
    except ImportError as error:
        return missing(error)
    problem = _cannot_listen(args.host, args.port)
    if problem is not None:
        return fail(f"sandbox on {args.host}:{args.port}: {problem}")
    serve(
        args.host,
        args.port,
        control_token=control_token,
        app=app,
        request_timeout=args.request_timeout,
        max_connections=args.max_connections,
    )
    return 0


def _cannot_listen(host: str, port: int) -> str | None:
    """Why the server could not listen there (busy port, unknown host), or None.

    uvicorn logs such a failure and exits by itself; asking first gives the
    one-line error every other mistake gets.
    """
    import socket

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except OSError as error:
        return f"unknown host ({error.strerror or error})"
    family, kind, proto, _name, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as error:
            return str(error.strerror or error)
    return None
