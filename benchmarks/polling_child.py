"""The processes of the polling benchmarks: a dashboard polling its jobs, and a bare Textual app.

``python -m benchmarks.polling_child KIND ... --result FILE``, one JSON
result in FILE (the parent reads peak RSS with ``wait4``):

- ``desk``: the dashboard signed in (embedded sandbox, or ``--url``), on the
  lookup or the jobs screen, with N tracked jobs that are unfinished (polled)
  or finished (shown, never polled); the sandbox's jobs run for a day, so
  the unfinished ones stay unfinished. It waits until every job has been
  polled once (the first round at sign-in), then for each window notes the
  process's CPU time and presses a key every quarter second, each timed to
  its repaint, and once a second counts the jobs that read stale (as the
  jobs screen would mark them).
- ``bare``: :class:`~benchmarks.bare_app.BareApp` (a bare Textual app) with
  the same number of plain rows in its table, the same keys at the same
  pace, the same windows: what any Textual dashboard pays to sit there and
  answer keys.

Both run headless at 100x30 (``run_test``) and paint through
:class:`~benchmarks.frames.FrameWatch`, so both pay for their frames alike.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import json
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

KEY_EVERY = 0.25
#: Jobs of the embedded sandbox run for a day: unfinished for the whole benchmark.
JOB_SECONDS = 86_400


async def windows(
    options: argparse.Namespace,
    press: Callable[[str], Awaitable[float]],
    keys: tuple[str, str],
    every_second: Callable[[], None] = lambda: None,
) -> tuple[list[float], list[list[float]]]:
    """CPU % per window and each window's key latencies (s), a key every quarter second."""
    cpu_percent: list[float] = []
    latencies: list[list[float]] = []
    presses = 0
    for _window in range(options.windows):
        started, cpu_started = time.perf_counter(), time.process_time()
        ends = started + options.seconds / options.windows
        window: list[float] = []
        while time.perf_counter() < ends:
            window.append(await press(keys[presses % 2]))
            presses += 1
            if presses % 4 == 0:
                every_second()
            await asyncio.sleep(max(0.0, min(KEY_EVERY, ends - time.perf_counter())))
        elapsed = time.perf_counter() - started
        cpu_percent.append((time.process_time() - cpu_started) / elapsed * 100)
        latencies.append(window)
    return cpu_percent, latencies


async def desk(options: argparse.Namespace) -> dict[str, Any]:
    from textual.widgets import DataTable, Input

    from accountdesk.client import Job
    from accountdesk.tui.screens.jobs import JobsScreen
    from benchmarks.apps import make_desk
    from benchmarks.processes import scratch_home
    from benchmarks.session import running

    with scratch_home() as home:
        sandbox_options = None if options.url else {"job_seconds": JOB_SECONDS}
        made = make_desk(home, base_url=options.url or None, sandbox_options=sandbox_options)
        async with running(made) as session:
            app, watch = session.app, session.watch
            now = dt.datetime.now(dt.UTC)
            tracker = made.tracker
            for index in range(options.jobs):
                if options.polled:
                    job = await made.client.refresh_balance("user_good")
                else:  # finished: shown like the others, never polled
                    job = Job(
                        job_id=f"job_done_{index:04d}",
                        user_id="user_good",
                        kind="balance_refresh",
                        status="completed",
                        created_at=now,
                        updated_at=now,
                        completed_at=now,
                    )
                # What desk.track_job does, saved once rather than N times.
                tracker.track(job, "user_good", made.now())
            tracker.save()
            made.listener.jobs_changed()
            if options.screen == "jobs":
                app.action_show_jobs()
                await watch.next_frame(lambda: isinstance(app.screen, JobsScreen))
                table = app.screen.query_one(DataTable)
                keys = ("down", "up")

                def state() -> Any:
                    return table.cursor_row
            else:
                field = app.screen.query_one("#user-id", Input)
                keys = ("a", "backspace")

                def state() -> Any:
                    return field.value

            # The first round (every job polled once, as at sign-in) is not the steady state.
            deadline = time.monotonic() + 120
            while any(job.last_poll_at is None for job in tracker.pollable()):
                if time.monotonic() > deadline:
                    raise RuntimeError("the first round of polls did not end in 120 s")
                await asyncio.sleep(0.25)
            await asyncio.sleep(options.settle)

            seen_stale: set[str] = set()
            most_stale = 0

            def count_stale() -> None:
                nonlocal most_stale
                poller, at = made.poller, made.now()
                stale = [job.key for job in tracker.pollable() if poller.is_stale(job, at)]
                seen_stale.update(stale)
                most_stale = max(most_stale, len(stale))

            async def press(key: str) -> float:
                before = state()
                return await watch.press(key, lambda: bool(state() != before), within=60)

            cpu_percent, latencies = await windows(options, press, keys, count_stale)
            polled = sum(1 for job in tracker.jobs if job.last_poll_at is not None)
            return {
                "cpu_percent": cpu_percent,
                "latency_ms": [[seconds * 1000 for seconds in window] for window in latencies],
                "jobs_polled": polled,
                "unfinished": len(tracker.pollable()),
                "stale_at_once": most_stale,
                "stale_jobs": len(seen_stale),
                "period": made.poller.period,
            }


async def bare(options: argparse.Namespace) -> dict[str, Any]:
    from textual.widgets import DataTable

    from benchmarks.bare_app import BareApp
    from benchmarks.frames import FrameWatch
    from benchmarks.session import SIZE

    app = BareApp()
    async with app.run_test(size=SIZE) as pilot:
        watch = FrameWatch(app)
        table = app.query_one(DataTable)
        table.cursor_type = "row"
        for index in range(options.jobs):
            table.add_row(f"user_{index:04d}", "balance_refresh", "in_progress")
        table.focus()
        await pilot.pause()
        await watch.quiet()
        await asyncio.sleep(options.settle)

        async def press(key: str) -> float:
            before = table.cursor_row
            return await watch.press(key, lambda: table.cursor_row != before, within=60)

        cpu_percent, latencies = await windows(options, press, ("down", "up"))
    return {
        "cpu_percent": cpu_percent,
        "latency_ms": [[seconds * 1000 for seconds in window] for window in latencies],
    }


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.polling_child")
    parser.add_argument("kind", choices=["desk", "bare"])
    parser.add_argument("--result", type=Path, required=True)
    parser.add_argument("--url", default="", help="a sandbox's URL (default: embedded)")
    parser.add_argument("--screen", choices=["lookup", "jobs"], default="lookup")
    parser.add_argument("--jobs", type=int, default=100)
    parser.add_argument("--polled", action="store_true")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--windows", type=int, default=4)
    parser.add_argument("--settle", type=float, default=1.0)
    options = parser.parse_args()
    result = asyncio.run(desk(options) if options.kind == "desk" else bare(options))
    options.result.write_text(json.dumps(result))


if __name__ == "__main__":
    main()
