"""A soak: the dashboard driven for a long time, to show nothing leaks and nothing breaks.

``python -m benchmarks.soak --seconds 1800 --result FILE`` (what ``python -m
benchmarks --only soak`` runs; ``tests/test_soak.py`` runs 120 s of it) runs
the real app headless (``run_test``, toasts drawn) against a sandbox served
on 127.0.0.1 by :mod:`benchmarks.soak_server`, and meanwhile:

- keeps ``--jobs`` balance refreshes unfinished and polled: every few
  seconds it starts as many as have finished (the app tracks them as it
  tracks its own);
- presses a key a second, round after round through every screen
  (:mod:`benchmarks.soak_keys`), which moves the sandbox's clock a minute
  each round through the sandbox panel: jobs finish, new ones start;
- every ``--drop-every`` seconds, the first at ``--first-drop`` (within the
  warm-up), drops the connection for ``--drop-seconds`` (the server stops
  and listens again on the same port, its state kept);
- samples its own resident set every few seconds.

Then :func:`benchmarks.soak_checks.verdict` judges what it saw. The JSON in
FILE holds the record and the verdict; the exit status is 0 either way (a
benchmark reports, the test asserts).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.processes import CHECKOUT, free_port, python_env, scratch_home
from benchmarks.soak_checks import DROP_GRACE, SoakRecord, store_problems, verdict
from benchmarks.soak_tape import SoakTape

__all__ = ["SoakPlan", "main", "run_soak"]

SIZE = (100, 30)
#: Longest a key may take to show its state before it counts as not handled.
KEY_WITHIN = 20.0


@dataclass(frozen=True, slots=True)
class SoakPlan:
    seconds: float = 1800.0
    warm_up: float = 300.0
    drop_every: float = 300.0
    #: The first drop comes within the warm-up, so what a drop's first failures
    #: make once (the error paths' first use) is not counted as growth; the
    #: measured span holds as many drops after it.
    first_drop: float = 150.0
    drop_seconds: float = 5.0
    jobs: int = 100
    key_every: float = 1.0
    #: Sandbox seconds a job runs: with the clock moved a minute a round, a few real minutes.
    job_seconds: float = 240.0
    sample_every: float = 5.0
    top_up_every: float = 10.0


class SoakServer:
    """:mod:`benchmarks.soak_server` on a free port: started, dropped on demand, stopped."""

    def __init__(self, plan: SoakPlan) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        argv = [sys.executable, "-m", "benchmarks.soak_server", "--port", str(self.port)]
        argv += ["--job-seconds", str(plan.job_seconds), "--drop-seconds", str(plan.drop_seconds)]
        self._process = subprocess.Popen(
            argv, stdout=subprocess.DEVNULL, cwd=CHECKOUT, env=python_env()
        )

    async def reachable(self) -> bool:
        try:
            _, writer = await asyncio.open_connection("127.0.0.1", self.port)
        except OSError:
            return False
        writer.close()
        with contextlib.suppress(OSError):
            await writer.wait_closed()
        return True

    async def until(self, up: bool, within: float = 60.0) -> None:
        deadline = time.monotonic() + within
        while await self.reachable() is not up:
            if self._process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the soak's sandbox did not come {'up' if up else 'down'}")
            await asyncio.sleep(0.05)

    async def drop(self) -> None:
        """Cut every connection; return once it listens again."""
        self._process.send_signal(signal.SIGUSR1)
        await self.until(up=False)
        await self.until(up=True)

    def stop(self) -> None:
        self._process.send_signal(signal.SIGINT)
        try:
            self._process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()


def rss_mb() -> float:
    """This process's resident set now, in MB."""
    resident_pages = int(Path("/proc/self/statm").read_text().split()[1])
    return resident_pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def _watch_toasts(app: Any, desk: Any, record: SoakTape, clock: Callable[[], float]) -> None:
    """Note every error record and every toast asked for (instance attributes: this app only)."""
    failure_of: dict[str, str] = {}
    record_error = desk.record_error
    notify = app.notify

    def recording_error(error: Any) -> Any:
        made = record_error(error)
        failure = made.failure.value if made.failure is not None else ""
        failure_of[made.title] = failure
        record.error(clock(), failure, made.title)
        return made

    def recording_notify(message: str, **options: Any) -> None:
        title, severity = options.get("title", ""), options.get("severity", "information")
        failure = failure_of.get(title) if severity != "information" else None
        record.toast(clock(), title, severity, failure)
        notify(message, **options)

    desk.record_error = recording_error
    app.notify = recording_notify


async def run_soak(plan: SoakPlan, home: Path, server: SoakServer) -> SoakRecord:
    """Drive the app for ``plan.seconds`` (see the module docstring); what it saw."""
    from accountdesk.cli.startup import StartUp
    from accountdesk.client import AccountDataError
    from accountdesk.tui.app import AccountDeskApp
    from accountdesk.tui.driver import Driver
    from benchmarks.apps import make_desk
    from benchmarks.frames import FrameWatch
    from benchmarks.soak_keys import USER_ID, round_of_keys

    await server.until(up=True)
    desk = make_desk(home, base_url=server.url)
    app = AccountDeskApp(desk, cursor_blink=False, on_first_frame=StartUp.first_frame)
    app.animation_level = "none"
    # What it sees, noted without an object per event (benchmarks.soak_tape).
    record = SoakTape(plan.seconds, plan.warm_up, jobs=plan.jobs)
    started = time.monotonic()

    def clock() -> float:
        return time.monotonic() - started

    _watch_toasts(app, desk, record, clock)
    checks: list[asyncio.TimerHandle] = []

    # The files and jobs of the service and key signed in with
    # (core.paths.AppDirs.state_dir), kept from sign-in: the last check comes
    # after the app quit, when the desk has signed out.
    signed_in: list[tuple[Path, Any]] = []

    def check_store() -> None:
        folder, tracker = signed_in[0]
        tracker.save()  # what the app has not written yet, as sign-out would
        tracked = {job.key for job in tracker.jobs}
        found = store_problems(folder, desk.service_key, tracked, USER_ID)
        record.store_problems += [f"{clock():.0f} s: {problem}" for problem in found]

    async def top_up() -> None:
        while True:
            started_now = 0
            for _ in range(plan.jobs - len(desk.tracker.pollable())):
                try:
                    job = await desk.client.refresh_balance(USER_ID)
                except AccountDataError:
                    break  # the connection is down: next time
                desk.tracker.track(job, USER_ID, desk.now())
                started_now += 1
            if started_now:
                record.jobs_started += started_now
                desk.tracker.save()
                desk.listener.jobs_changed()
            await asyncio.sleep(plan.top_up_every)

    async def sample() -> None:
        while True:
            record.sample(clock(), rss_mb(), sys.getallocatedblocks())
            if record.objects == (0, 0) and clock() >= plan.warm_up:
                record.objects = (len(gc.get_objects()), 0)
            await asyncio.sleep(plan.sample_every)

    async def drops() -> None:
        while (next_drop := plan.first_drop + len(record.drops) * plan.drop_every) < plan.seconds:
            await asyncio.sleep(max(0.0, next_drop - clock()))
            began = clock()
            await server.drop()
            record.drops.append((began, clock()))
            # The files once the failures the drop caused have been reported.
            checks.append(asyncio.get_running_loop().call_later(DROP_GRACE, check_store))
            print(f"# soak: {began:.0f} s: connection dropped", file=sys.stderr, flush=True)

    async def press_keys(watch: FrameWatch) -> None:
        steps = round_of_keys(app)
        while clock() < plan.seconds:
            for step in steps:
                if clock() >= plan.seconds:
                    return
                pressed = clock()
                try:
                    record.key(await watch.press(step.key, step.holds, KEY_WITHIN) * 1000)
                except TimeoutError:
                    record.missed.append((pressed, step.key, step.what))
                    await back_to_lookup(watch)
                    break
                await asyncio.sleep(max(0.0, plan.key_every - (clock() - pressed)))
            else:
                # Python's heap where every round ends (the lookup screen, its
                # field empty) once the collector ran: like against like. A
                # sample at any moment depends on the screen then on top (the
                # jobs screen's 200 rows, a palette), ±8 % between samples.
                gc.collect()
                record.round_ended(clock(), sys.getallocatedblocks())
                if record.rounds % 10 == 0:
                    _progress(record, clock())

    async def back_to_lookup(watch: FrameWatch) -> None:
        from textual.widgets import Input

        from accountdesk.tui.screens.lookup import LookupScreen

        for _ in range(8):
            if isinstance(app.screen, LookupScreen):
                app.screen.query_one("#user-id", Input).value = ""
                return
            with contextlib.suppress(TimeoutError):
                await watch.press("escape", lambda: True, KEY_WITHIN)
        raise RuntimeError(f"stuck on {type(app.screen).__name__}")

    async with app.run_test(size=SIZE, notifications=True) as pilot:
        watch = FrameWatch(app)
        await Driver(app, pilot.pause).sign_in()
        signed_in.append((desk.dirs.state_dir(*desk.state_key), desk.tracker))
        helpers = [asyncio.create_task(work()) for work in (top_up, sample, drops)]
        try:
            await press_keys(watch)
            check_store()
            record.objects = (record.objects[0], len(gc.get_objects()))
            record.jobs_polled = sum(1 for job in desk.tracker.jobs if job.last_poll_at)
            record.unfinished_at_end = len(desk.tracker.pollable())
        finally:
            for check in checks:
                check.cancel()
            for helper in helpers:
                helper.cancel()
            for ended in await asyncio.gather(*helpers, return_exceptions=True):
                if isinstance(ended, Exception):  # not a cancellation: that part stopped early
                    record.harness_errors.append(f"{type(ended).__name__}: {ended}")
    check_store()  # and once more as the app left it
    return record.record()


def _progress(record: SoakTape, at: float) -> None:
    rss = record.last_rss_mb
    print(
        f"# soak: {at:.0f} s, {record.rounds} rounds, RSS {rss:.1f} MB, "
        f"{record.toasts} toasts, {len(record.drops)} drops, {len(record.missed)} keys missed",
        file=sys.stderr,
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.soak")
    defaults = SoakPlan()
    for name in ("seconds", "warm_up", "drop_every", "first_drop", "drop_seconds", "job_seconds"):
        option = "--" + name.replace("_", "-")
        parser.add_argument(option, type=float, default=getattr(defaults, name))
    parser.add_argument("--jobs", type=int, default=defaults.jobs)
    parser.add_argument("--result", type=Path, required=True)
    options = parser.parse_args()
    plan = SoakPlan(
        seconds=options.seconds,
        warm_up=options.warm_up,
        drop_every=options.drop_every,
        first_drop=options.first_drop,
        drop_seconds=options.drop_seconds,
        jobs=options.jobs,
        job_seconds=options.job_seconds,
    )
    server = SoakServer(plan)
    try:
        with scratch_home() as home:
            record = asyncio.run(run_soak(plan, home, server))
    finally:
        server.stop()
    result = {"record": record.to_json(), "verdict": verdict(record)}
    options.result.write_text(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
