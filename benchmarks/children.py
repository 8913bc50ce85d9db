"""Processes the benchmarks start and measure from outside.

``python -m benchmarks.children KIND ... --result FILE``, one JSON result in
FILE; the parent reads the child's peak RSS and CPU with ``wait4``:

- ``poll``: the dashboard signed in to a service, on the lookup or the jobs
  screen, with N tracked jobs that are unfinished (polled) or finished (an
  idle app showing the same rows); for a number of windows it notes the
  process's CPU time, and presses a key every quarter second, timing each
  to its repaint.
- ``bulk-app``: the dashboard that opens user_bulk's transactions and
  stops once the rows are painted (peak RSS with user_bulk loaded).
- ``bulk-tuples``: a bare process that parses the same body into plain
  tuples and holds them (the floor of that peak).
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import json
import time
from pathlib import Path
from typing import Any

KEY_EVERY = 0.25


async def poll(options: argparse.Namespace) -> dict[str, Any]:
    from textual.widgets import DataTable, Input

    from accountdesk.client import Job
    from accountdesk.tui.screens.jobs import JobsScreen

    from .apps import make_desk
    from .processes import scratch_home
    from .session import running

    with scratch_home() as home:
        desk = make_desk(home, base_url=options.url)
        async with running(desk) as session:
            app, watch = session.app, session.watch
            now = dt.datetime.now(dt.UTC)
            for index in range(options.jobs):
                if options.polled:
                    job = await desk.client.refresh_balance("user_good")
                else:  # finished: shown like the others, never polled
                    job = Job(
                        job_id=f"job_done_{index:03d}",
                        user_id="user_good",
                        kind="balance_refresh",
                        status="completed",
                        created_at=now,
                        updated_at=now,
                        completed_at=now,
                    )
                # What desk.track_job does, saved once rather than 100 times.
                desk.tracker.track(job, "user_good", desk.now())
            desk.tracker.save()
            desk.listener.jobs_changed()
            if options.screen == "jobs":
                app.action_show_jobs()
                await watch.next_frame(lambda: isinstance(app.screen, JobsScreen))
                table = app.screen.query_one(DataTable)
                keys = ("down", "up")

                def moved(before: Any) -> bool:
                    return bool(table.cursor_row != before)

                def state() -> Any:
                    return table.cursor_row
            else:
                field = app.screen.query_one("#user-id", Input)
                keys = ("a", "backspace")

                def moved(before: Any) -> bool:
                    return bool(field.value != before)

                def state() -> Any:
                    return field.value

            await asyncio.sleep(options.settle)
            cpu_percent: list[float] = []
            latencies: list[float] = []
            for _window in range(options.windows):
                started, cpu_started = time.perf_counter(), time.process_time()
                ends = started + options.seconds / options.windows
                presses = 0
                while time.perf_counter() < ends:
                    before = state()

                    def changed(before: Any = before) -> bool:
                        return moved(before)

                    latencies.append(await watch.press(keys[presses % 2], changed, within=60))
                    presses += 1
                    await asyncio.sleep(max(0.0, min(KEY_EVERY, ends - time.perf_counter())))
                elapsed = time.perf_counter() - started
                cpu_percent.append((time.process_time() - cpu_started) / elapsed * 100)
            polled = sum(1 for job in desk.tracker.jobs if job.last_poll_at is not None)
            return {
                "cpu_percent": cpu_percent,
                "latency_ms": [seconds * 1000 for seconds in latencies],
                "jobs_polled": polled,
                "unfinished": len(desk.tracker.pollable()),
            }


async def bulk_app(options: argparse.Namespace) -> dict[str, Any]:
    from .apps import make_desk
    from .bench_bulk import open_transactions
    from .processes import scratch_home
    from .session import running

    with scratch_home() as home:
        sandbox_options = {"bulk_transactions": options.rows} if not options.url else None
        desk = make_desk(home, base_url=options.url or None, sandbox_options=sandbox_options)
        async with running(desk, "user_bulk") as session:
            seconds = await open_transactions(session, options.rows)
            await session.watch.quiet()
    return {"seconds": seconds}


def bulk_tuples(options: argparse.Namespace) -> dict[str, Any]:
    from .session import transactions_as_tuples

    body = Path(options.body).read_bytes()
    rows = transactions_as_tuples(body)
    del body
    return {"rows": len(rows)}


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.children")
    parser.add_argument("kind", choices=["poll", "bulk-app", "bulk-tuples"])
    parser.add_argument("--result", type=Path, required=True)
    parser.add_argument("--url", default="")
    parser.add_argument("--screen", choices=["lookup", "jobs"], default="lookup")
    parser.add_argument("--jobs", type=int, default=100)
    parser.add_argument("--polled", action="store_true")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--windows", type=int, default=4)
    parser.add_argument("--settle", type=float, default=1.0)
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--body", default="")
    options = parser.parse_args()
    if options.kind == "poll":
        result = asyncio.run(poll(options))
    elif options.kind == "bulk-app":
        result = asyncio.run(bulk_app(options))
    else:
        result = bulk_tuples(options)
    options.result.write_text(json.dumps(result))


if __name__ == "__main__":
    main()
