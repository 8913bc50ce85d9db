"""Helpers for guided-tour tests: the app ``accountdesk demo`` builds, driven by Pilot.

``demo_app`` is the demo's own desk (``core.demo.demo_desk``: a fresh embedded
sandbox stopped at ``FROZEN_NOW``, numbered job ids, the app clock following
the sandbox's) with files under a test folder and no keyring. The helpers
wait on the runner's step task and Pilot, never on sleeps.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pydantic import SecretStr
from tui_helpers import FROZEN_NOW

from accountdesk.core.settings.model import SANDBOX_API_KEY, SANDBOX_API_SECRET, Settings
from accountdesk.core.settings.paths import AppDirs
from accountdesk.core.tours.captions import StepState
from accountdesk.core.tours.demo import demo_desk
from accountdesk.core.tours.tour import Tour
from accountdesk.tui.app import AccountDeskApp
from accountdesk.tui.driver import Driver
from accountdesk.tui.tour import TourRunner, current_tour


class NoKeyring:
    priority = -1


def demo_app(root: Path, tour: Tour | Sequence[Tour] | None) -> AccountDeskApp:
    """The app of ``accountdesk demo`` (see the module docstring), files under ``root``."""
    settings = Settings(api_key=SANDBOX_API_KEY, api_secret=SecretStr(SANDBOX_API_SECRET))
    dirs = AppDirs(root / "config.toml", root / "data", root / "logs")
    desk = demo_desk(settings, dirs, start=FROZEN_NOW, secret_backend=NoKeyring())
    app = AccountDeskApp(desk, cursor_blink=False, tour=tour)
    app.animation_level = "none"
    app.NOTIFICATION_TIMEOUT = 600  # toasts outlive a slow machine's steps
    return app


async def started(pilot: Any) -> TourRunner:
    """The runner the app started, once its first step has ended (Pilot's waits)."""
    for _ in range(200):
        runner = current_tour(pilot.app)
        if runner is not None:
            runner.driver = Driver(pilot.app, pilot.pause)
            await step_done(pilot, runner)
            return runner
        await pilot.pause()
    raise AssertionError("no tour started")


async def step_done(pilot: Any, runner: TourRunner) -> None:
    await runner.wait_idle()
    await pilot.pause()
    await pilot.pause()


async def press(pilot: Any, runner: TourRunner, key: str) -> None:
    """Press ``key`` and wait until the step it started (if any) has ended."""
    await pilot.press(key)
    await step_done(pilot, runner)


async def run_to_last_step(pilot: Any) -> TourRunner:
    """Start, then Space through every step, checking each went as scripted."""
    runner = await started(pilot)
    while True:
        outcome = runner.outcome
        assert outcome.state is StepState.DONE, (
            f"{runner.tour.id} step {runner.index + 1}: {outcome.problem}"
        )
        if runner.at_end:
            return runner
        await press(pilot, runner, "space")


async def every_job_polled(pilot: Any) -> None:
    """Wait until each unfinished job has had a poll answered (snapshots show "0s ago").

    A job started by the last step is polled on the poller's next tick: a
    snapshot taken before it would show "—" on one run and "0s ago" on the next.
    """
    desk = pilot.app.desk
    for _ in range(400):
        jobs = desk.tracker.pollable()
        if desk.poller.in_flight == 0 and all(job.last_poll_at for job in jobs):
            break
        await pilot.pause(0.01)
    else:
        raise AssertionError("a job was never polled")
    # An unchanged answer reaches the jobs screen on its one-second redraw of
    # ages and last polls: redraw now rather than on the timer's whim.
    refresh_jobs = getattr(pilot.app.screen, "refresh_jobs", None)
    if refresh_jobs is not None:
        refresh_jobs()
    await pilot.pause()
    await pilot.pause()
