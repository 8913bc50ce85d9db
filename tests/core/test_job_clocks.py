"""Clocks at the seams: each job's age on the clock it started on; files named by the wall clock.

A sandbox's clock can be moved (F4, a tour, a trainer). The app follows it
while signed in, but a job outlives the session: after a restart the app
may follow another clock (the embedded sandbox is new every run) or none
yet. So each job keeps how far its service's clock was ahead of ours, and
its age is read on that clock, not on whatever clock the app follows now.
File names are for people looking at a folder: the wall clock's time.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import httpx
import pytest
from pydantic import SecretStr

from accountdesk.core.desk import Desk
from accountdesk.core.errors.reports import ReportFormat, export_errors
from accountdesk.core.jobs.rows import job_row
from accountdesk.core.settings.model import Settings
from accountdesk.core.settings.paths import AppDirs
from accountdesk.sandbox import FrozenClock, create_app

pytestmark = pytest.mark.anyio
START = dt.datetime(2026, 11, 26, 9, 30, tzinfo=dt.UTC)
KEY, SECRET = "sandbox_key", SecretStr("sandbox_secret")


class WallClock:
    """The machine's clock, moved by hand."""

    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> dt.datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += dt.timedelta(seconds=seconds)


class SandboxOnTheWall:
    """A sandbox clock that runs with the wall clock, plus whatever it was moved."""

    def __init__(self, wall: WallClock) -> None:
        self.wall = wall
        self.moved = dt.timedelta(0)

    def now(self) -> dt.datetime:
        return self.wall() + self.moved

    def advance(self, seconds: float) -> None:
        self.moved += dt.timedelta(seconds=seconds)

    def reset(self) -> None:
        self.moved = dt.timedelta(0)


def embedded_desk(tmp_path: Path, wall: WallClock) -> Desk:
    """A run on the embedded sandbox: a fresh one, its clock at the wall's time."""
    sandbox = create_app(clock=SandboxOnTheWall(wall), job_seconds=3600)
    dirs = AppDirs(tmp_path / "config.toml", tmp_path / "data", tmp_path / "logs")
    return Desk(Settings(), dirs, transport=httpx.ASGITransport(sandbox), clock=wall)


def ages(desk: Desk) -> dict[str, str]:
    return {
        str(job.kind): job_row(job, desk.job_now(job), stale=False).cells[3]
        for job in desk.tracker.jobs
    }


async def poll(desk: Desk) -> None:
    desk.poller.poll_now(force=True)
    await desk.scheduler.wait()  # type: ignore[attr-defined]


async def test_ages_after_the_clock_moved_and_the_app_restarted(tmp_path: Path) -> None:
    wall = WallClock()
    desk = embedded_desk(tmp_path, wall)
    await desk.sign_in(KEY, SECRET)
    desk.track_job(await desk.client.start_identity("user_good"), "user_good")
    wall.advance(60)
    await desk.advance_sandbox_clock(300)  # F4 +5 min
    desk.track_job(await desk.client.refresh_balance("user_good"), "user_good")
    assert ages(desk) == {"identity": "6m 00s", "balance_refresh": "0s"}
    await desk.close()  # quit

    wall.advance(180)  # restarted three minutes later: a new embedded sandbox
    again = embedded_desk(tmp_path, wall)
    await again.sign_in(KEY, SECRET)
    # The identity job is 4 minutes of wall time old, plus the 5 the clock moved;
    # the refresh started after the move: 3 minutes, on that same moved clock.
    assert ages(again) == {"identity": "9m 00s", "balance_refresh": "3m 00s"}
    await poll(again)  # that sandbox is gone: so are its jobs, their clock frozen
    assert all(job.gone for job in again.tracker.jobs)
    wall.advance(60)
    assert ages(again) == {"identity": "10m 00s", "balance_refresh": "4m 00s"}
    await again.close()


async def test_a_sandbox_that_lives_on_keeps_its_jobs_on_its_clock(tmp_path: Path) -> None:
    """A trainer's sandbox over HTTP outlives the app: its jobs follow its clock when seen again."""
    wall = WallClock()
    sandbox_clock = FrozenClock(START)
    sandbox = create_app(clock=sandbox_clock, job_seconds=3600)
    dirs = AppDirs(tmp_path / "config.toml", tmp_path / "data", tmp_path / "logs")

    def desk() -> Desk:
        transport = httpx.ASGITransport(sandbox)
        return Desk(
            Settings(base_url="http://127.0.0.1:8765"), dirs, transport=transport, clock=wall
        )

    first = desk()
    await first.sign_in(KEY, SECRET)
    first.track_job(await first.client.start_identity("user_good"), "user_good")
    await first.close()
    wall.advance(60)
    sandbox_clock.advance(60)
    sandbox_clock.advance(900)  # the trainer moved it while we were away

    second = desk()
    await second.sign_in(KEY, SECRET)
    await poll(second)
    assert ages(second) == {"identity": "16m 00s"}
    await second.advance_sandbox_clock(60)
    assert ages(second) == {"identity": "17m 00s"}
    await second.close()


async def test_file_names_are_on_the_wall_clock(tmp_path: Path) -> None:
    from accountdesk.client import TransportError
    from accountdesk.core.clipboard import save_clip

    wall = WallClock()
    desk = embedded_desk(tmp_path, wall)
    await desk.sign_in(KEY, SECRET)
    await desk.advance_sandbox_clock(300)
    assert desk.now() == START + dt.timedelta(minutes=5)
    desk.record_error(TransportError("connect", "no answer", method="GET", path="/x"))
    path = export_errors(desk, ReportFormat.MARKDOWN)
    assert path is not None and path.name == "errors-20261126-093000.md"
    assert desk.wall_time() == START
    clip = save_clip(desk.store, desk.dirs.clipboard_dir, "text", "ticket", desk.wall_time())
    assert clip is not None and clip.name == "ticket-20261126-093000.txt"
    await desk.close()


def test_a_demo_names_files_by_the_real_time(tmp_path: Path) -> None:
    """A demo's app clock stands still; two exports a minute apart must not share a name."""
    from accountdesk.core.tours.demo import demo_desk

    dirs = AppDirs(tmp_path / "config.toml", tmp_path / "data", tmp_path / "logs")
    desk = demo_desk(Settings(), dirs, start=START)
    assert desk.clock() == START  # stands still
    before = dt.datetime.now(dt.UTC)
    stamp = desk.wall_time()
    assert before <= stamp <= dt.datetime.now(dt.UTC)


def test_a_job_record_keeps_its_clock(tmp_path: Path) -> None:
    from accountdesk.core.jobs.tracker import TrackedJob

    record: dict[str, Any] = {
        "user_id": "user_good",
        "job_id": "job_1",
        "kind": "identity",
        "status": "completed",
        "created_at": START.isoformat(),
        "tracked_at": START.isoformat(),
        "clock_offset": 300.0,
    }
    job = TrackedJob.from_record(record)
    assert job.clock_offset == 300.0 and job.to_record()["clock_offset"] == 300.0
    # An earlier version's record knows no clock: its age follows the app's, as before.
    del record["clock_offset"]
    assert TrackedJob.from_record(record).clock_offset is None
    for bad in ("soon", float("nan"), 1e30, True):
        assert TrackedJob.from_record({**record, "clock_offset": bad}).clock_offset is None


async def test_another_keys_clock_never_moves_this_keys_jobs(tmp_path: Path) -> None:
    """Signed in again with another key (no sign-out between): its world's clock is its own."""
    wall = WallClock()
    room = create_app(clock=FrozenClock(START), tenants=True, job_seconds=3600)
    dirs = AppDirs(tmp_path / "config.toml", tmp_path / "data", tmp_path / "logs")
    settings = Settings(base_url="http://127.0.0.1:8765")
    desk = Desk(settings, dirs, transport=httpx.ASGITransport(room), clock=wall)
    await desk.sign_in("trainee_alice", SECRET)
    await desk.advance_sandbox_clock(300)
    desk.track_job(await desk.client.start_identity("user_good"), "user_good")
    await desk.sign_in("trainee_bob", SECRET)  # bob's world: not moved
    assert desk.now() == START
    await desk.sign_in("trainee_alice", SECRET)
    [job] = desk.tracker.jobs
    assert job.clock_offset == 300.0
    await desk.close()
