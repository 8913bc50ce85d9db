"""Processes the benchmarks start and measure from outside.

``python -m benchmarks.children KIND ... --result FILE``, one JSON result in
FILE; the parent reads the child's peak RSS and CPU with ``wait4``:

- ``bulk-app``: the dashboard that opens user_bulk's transactions and
  stops once the rows are painted (peak RSS with user_bulk loaded).
- ``bulk-tuples``: a bare process that parses the same body into plain
  tuples and holds them (the floor of that peak).
"""

from __future__ import annotations

import argparse
import asyncio
import json
from pathlib import Path
from typing import Any


async def bulk_app(options: argparse.Namespace) -> dict[str, Any]:
    from benchmarks.apps import make_desk
    from benchmarks.bench_bulk import open_transactions
    from benchmarks.processes import scratch_home
    from benchmarks.session import running

    with scratch_home() as home:
        sandbox_options = {"bulk_transactions": options.rows} if not options.url else None
        desk = make_desk(home, base_url=options.url or None, sandbox_options=sandbox_options)
        async with running(desk, "user_bulk") as session:
            seconds = await open_transactions(session, options.rows)
            await session.watch.quiet()
    return {"seconds": seconds}


def bulk_tuples(options: argparse.Namespace) -> dict[str, Any]:
    from benchmarks.session import transactions_as_tuples

    body = Path(options.body).read_bytes()
    rows = transactions_as_tuples(body)
    del body
    return {"rows": len(rows)}


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.children")
    parser.add_argument("kind", choices=["bulk-app", "bulk-tuples"])
    parser.add_argument("--result", type=Path, required=True)
    parser.add_argument("--url", default="")
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--body", default="")
    options = parser.parse_args()
    result = asyncio.run(bulk_app(options)) if options.kind == "bulk-app" else bulk_tuples(options)
    options.result.write_text(json.dumps(result))


if __name__ == "__main__":
    main()
