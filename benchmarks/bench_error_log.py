"""An error that comes while the error log is open, with the log full: what it costs the UI.

A flaky connection records errors while someone reads the log. The real app
headless on the embedded sandbox, signed in, the error log open holding
1,000 errors (its limit, so each new one also lets the oldest go): the path
is the time to record one more and bring the table up to date, as a poll's
failure does (``show_record``); the floor, the same with 10 errors in the
log. Target: within a frame (16 ms). Before the table added only the new
rows, each error drew every row again: 32.3 ms an error at 1,000 against
0.48 ms at 10 (2.31 ms and 0.40 ms after; one run of 5 rounds each, load 1.2).
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.measure import Result, Target, TargetKind
from benchmarks.registry import benchmark

SIZE = (100, 30)
#: Errors each round records (the median of their times is the round's sample).
PER_ROUND = 20


async def _ms_per_error(kept: int, rounds: int) -> list[float]:
    from accountdesk.client import TransportError
    from accountdesk.tui.app import AccountDeskApp
    from accountdesk.tui.driver import Driver
    from accountdesk.tui.screens.error_log import ErrorLogScreen
    from benchmarks.apps import make_desk

    def failure(n: int) -> Any:
        path = f"/jobs/user_good/job_{n:06d}"
        return TransportError("connect", f"refused {n}", method="GET", path=path)

    samples = []
    with tempfile.TemporaryDirectory() as home:
        desk = make_desk(Path(home))
        app = AccountDeskApp(desk, cursor_blink=False)
        app.animation_level = "none"
        async with app.run_test(size=SIZE) as pilot:
            await Driver(app, pilot.pause).sign_in()
            desk.error_log.limit = kept
            for n in range(kept):
                desk.record_error(failure(n))
            app.action_show_error_log()
            await pilot.pause()
            assert isinstance(app.screen, ErrorLogScreen)
            for round_ in range(rounds):
                times = []
                for n in range(PER_ROUND):
                    record = desk.record_error(failure(kept + round_ * PER_ROUND + n))
                    started = time.perf_counter()
                    app.show_record(record)
                    times.append((time.perf_counter() - started) * 1000)
                await pilot.pause()
                samples.append(sorted(times)[len(times) // 2])
    return samples


@benchmark(
    "error_log",
    "an error recorded while the error log is open with 1,000 errors vs 10",
    rounds=5,
    seconds=8,
)
async def error_log(rounds: int) -> list[Result]:
    path = await _ms_per_error(1000, rounds)
    floor = await _ms_per_error(10, rounds)
    return [
        Result(
            "error_log_new_error",
            "an error recorded while the error log is open, 1,000 errors kept",
            "the same with 10 errors kept",
            "ms",
            path,
            floor,
            Target(TargetKind.ABSOLUTE, 16),
        )
    ]
