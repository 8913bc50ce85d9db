"""JobPoller: states, concurrency with a bound, backoff, one report per error, gone, give-up.

Runs on asyncio with a scripted fake client: no Textual, no sandbox.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
from collections import deque
from pathlib import Path
from typing import Any

import pytest

from accountdesk.client import (
    AccountDataError,
    FiConnectionError,
    Job,
    JobNotFoundError,
    TransportError,
)
from accountdesk.contract import JobStatus
from accountdesk.core.jobs.poller import AsyncioScheduler, JobPoller, PollerState
from accountdesk.core.jobs.tracker import JobTracker, TrackedJob
from accountdesk.core.store import Store

NOW = dt.datetime(2026, 11, 20, 9, 30, tzinfo=dt.UTC)
pytestmark = pytest.mark.anyio


def job(job_id: str = "job_1", status: str = "pending", **extra: Any) -> Job:
    return Job.model_validate(
        {
            "job_id": job_id,
            "user_id": "user_good",
            "kind": "balance_refresh",
            "status": status,
            "created_at": NOW.isoformat(),
            **extra,
        }
    )


class FakeClient:
    """``get_job`` answers from a per-job script; a gate per job can hold its calls."""

    def __init__(self) -> None:
        self.scripts: dict[str, deque[Job | AccountDataError]] = {}
        self.gates: dict[str, asyncio.Event] = {}
        self.calls: list[str] = []
        self.in_flight: dict[str, int] = {}
        self.max_in_flight = 0
        self.max_same_job = 0

    def script(self, job_id: str, *answers: Job | AccountDataError) -> None:
        self.scripts[job_id] = deque(answers)

    async def get_job(self, user_id: str, job_id: str) -> Job:
        self.calls.append(job_id)
        self.in_flight[job_id] = self.in_flight.get(job_id, 0) + 1
        self.max_same_job = max(self.max_same_job, self.in_flight[job_id])
        self.max_in_flight = max(self.max_in_flight, sum(self.in_flight.values()))
        try:
            if job_id in self.gates:
                await self.gates[job_id].wait()
            answers = self.scripts[job_id]
            answer = answers.popleft() if len(answers) > 1 else answers[0]
            if isinstance(answer, AccountDataError):
                raise answer
            return answer
        finally:
            self.in_flight[job_id] -= 1


class Listener:
    def __init__(self) -> None:
        self.finished: list[str] = []
        self.mfa: list[str] = []
        self.failed: list[str | None] = []
        self.given_up: list[str] = []
        self.changes = 0

    def jobs_changed(self) -> None:
        self.changes += 1

    def job_finished(self, tracked: TrackedJob) -> None:
        self.finished.append(tracked.job_id)

    def job_needs_mfa(self, tracked: TrackedJob) -> None:
        self.mfa.append(tracked.job_id)

    def job_given_up(self, tracked: TrackedJob) -> None:
        self.given_up.append(tracked.job_id)

    def poll_failed(self, tracked: TrackedJob, error: AccountDataError) -> None:
        self.failed.append(error.code)


class Clock:
    def __init__(self) -> None:
        self.now = NOW

    def __call__(self) -> dt.datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += dt.timedelta(seconds=seconds)


class Setup:
    def __init__(self, tmp_path: Path, **options: Any) -> None:
        self.client = FakeClient()
        self.listener = Listener()
        self.clock = Clock()
        self.scheduler = AsyncioScheduler()
        self.tracker = JobTracker(Store(), tmp_path / "jobs.json", "sandbox")
        self.poller = JobPoller(
            self.tracker, self.scheduler, self.listener, self.clock, interval=3600, **options
        )
        self.poller.start(self.client)  # type: ignore[arg-type]

    def track(self, *job_ids: str) -> None:
        for job_id in job_ids:
            self.tracker.track(job(job_id), "user_good", self.clock())

    async def round(self, *, force: bool = False) -> int:
        started = self.poller.poll_now(force=force)
        await self.scheduler.wait()
        return started

    def tracked(self, job_id: str = "job_1") -> TrackedJob:
        found = self.tracker.get(f"user_good/{job_id}")
        assert found is not None
        return found


@pytest.fixture
async def setup(tmp_path: Path) -> Setup:
    return Setup(tmp_path)  # inside the event loop: the poller arms its timer at once


async def test_polls_run_concurrently_within_the_bound_and_never_twice_per_job(
    tmp_path: Path,
) -> None:
    s = Setup(tmp_path, concurrency=3)
    ids = [f"job_{n}" for n in range(5)]
    for job_id in ids:
        s.client.script(job_id, job(job_id, "in_progress"))
        s.client.gates[job_id] = asyncio.Event()
    s.track(*ids)
    assert s.poller.poll_now() == 3  # the bound
    await asyncio.sleep(0)
    assert s.poller.poll_now() == 0  # full, and no job polled twice at once
    for gate in s.client.gates.values():
        gate.set()
    await s.scheduler.wait()
    assert s.poller.poll_now() == 3
    await s.scheduler.wait()
    assert s.client.max_in_flight == 3 and s.client.max_same_job == 1
    # The two left out the first time went first the second time.
    assert s.client.calls[3:5] == ["job_3", "job_4"]
    assert sorted(set(s.client.calls)) == ids


async def test_one_slow_job_does_not_stall_the_others(setup: Setup) -> None:
    s = setup
    s.client.script("job_slow", job("job_slow", "in_progress"))
    s.client.gates["job_slow"] = asyncio.Event()
    s.client.script("job_fast", job("job_fast", "in_progress"))
    s.track("job_slow", "job_fast")
    for _ in range(3):
        s.poller.poll_now()
        await asyncio.sleep(0.01)
    assert s.client.calls.count("job_fast") == 3  # polled every tick while the slow one hangs
    assert s.client.calls.count("job_slow") == 1
    s.clock.advance(60)
    assert s.poller.is_stale(s.tracked("job_slow"), s.clock())  # its row says so
    assert not s.poller.is_stale(s.tracked("job_fast"), s.clock() - dt.timedelta(seconds=60))
    s.client.gates["job_slow"].set()
    await s.scheduler.wait()


async def test_errors_back_off_report_once_then_stale(setup: Setup) -> None:
    s = setup
    s.client.script("job_1", FiConnectionError(400, "AC-104", "bank down"))
    s.track("job_1")
    await s.round()
    tracked = s.tracked()
    assert s.listener.failed == ["AC-104"]
    assert tracked.failing and s.poller.is_stale(tracked, s.clock())
    assert tracked.last_error_code == "AC-104" and tracked.last_error_message == "bank down"
    # Backing off: nothing due for 1 s, then 2 s after the second failure.
    assert await s.round() == 0
    s.clock.advance(1)
    assert await s.round() == 1
    assert s.listener.failed == ["AC-104"]  # the same error: no second report
    s.clock.advance(1.5)
    assert await s.round() == 0
    s.client.script("job_1", TransportError("connect", "refused"))
    s.clock.advance(0.5)
    await s.round()
    assert s.listener.failed == ["AC-104", None]  # a different kind of error is new
    s.client.script("job_1", job(status="in_progress"))
    await s.round(force=True)
    assert not tracked.failing and tracked.last_error_code is None
    assert tracked.status is JobStatus.IN_PROGRESS


async def test_unknown_job_is_marked_gone_once_and_never_asked_again(setup: Setup) -> None:
    s = setup
    s.client.script("job_1", JobNotFoundError(404, "AC-109", "Job job_1 not found"))
    s.track("job_1")
    await s.round()
    tracked = s.tracked()
    assert tracked.gone and tracked.last_error_code == "AC-109"
    assert s.listener.failed == []  # old history: no toast
    assert await s.round(force=True) == 0 and s.client.calls == ["job_1"]


async def test_finished_jobs_are_announced_once_and_not_polled(setup: Setup) -> None:
    s = setup
    s.client.script("job_1", job(status="in_progress"), job(status="completed"))
    s.track("job_1")
    await s.round(force=True)
    await s.round(force=True)
    assert s.tracked().status is JobStatus.COMPLETED
    assert s.listener.finished == ["job_1"]
    assert await s.round(force=True) == 0 and len(s.client.calls) == 2


async def test_pause_and_hold(setup: Setup) -> None:
    s = setup
    s.client.script("job_1", job(status="in_progress"))
    s.track("job_1")
    s.poller.pause()
    assert s.poller.state is PollerState.PAUSED and await s.round() == 0
    s.poller.hold()
    s.poller.resume()
    assert s.poller.state is PollerState.LIVE and await s.round() == 0  # held by a dialog
    s.poller.hold()  # a second dialog over the first
    s.poller.release()
    assert await s.round() == 0
    s.poller.release()  # the last dialog closed: the next tick polls again
    assert await s.round() == 1
    assert s.client.calls == ["job_1"]


async def test_the_timer_ticks_and_rearms_and_stop_drops_late_answers(tmp_path: Path) -> None:
    s = Setup(tmp_path)
    s.poller.interval = 0.01
    s.poller.stop()
    s.client.script("job_1", job(status="in_progress"))
    s.client.gates["job_1"] = asyncio.Event()
    s.track("job_1")
    s.poller.start(s.client)  # type: ignore[arg-type]
    for _ in range(100):
        if s.client.calls:
            break
        await asyncio.sleep(0.01)
    assert s.client.calls == ["job_1"]
    s.poller.stop()
    s.client.gates["job_1"].set()
    await s.scheduler.wait()
    assert s.tracked().status is JobStatus.PENDING  # the answer came after the stop: dropped
    assert s.poller.state is PollerState.STOPPED and s.poller.in_flight == 0


async def test_mfa_is_offered_once_per_challenge(setup: Setup) -> None:
    s = setup
    challenge = {"question": "Code?", "attempts_remaining": 3}
    s.client.script("job_1", job(status="mfa_required", mfa=challenge))
    s.track("job_1")
    await s.round()
    assert s.listener.mfa == ["job_1"]
    s.tracked().mfa_offered = True  # what the UI does when it shows the offer
    await s.round(force=True)
    assert s.listener.mfa == ["job_1"]


async def test_a_job_that_never_finishes_is_given_up_and_can_be_revived(tmp_path: Path) -> None:
    s = Setup(tmp_path, give_up_after=dt.timedelta(minutes=30))
    s.client.script("job_1", job(status="in_progress"))
    s.track("job_1")
    s.clock.advance(31 * 60)
    s.poller._tick()
    await s.scheduler.wait()
    tracked = s.tracked()
    assert tracked.given_up and s.listener.given_up == ["job_1"]
    assert s.client.calls == []
    assert await s.round(force=True) == 1  # r on the jobs screen polls it again
    assert not tracked.given_up


class ManualTicks(AsyncioScheduler):
    """Polls run on asyncio; the timer never fires (the test calls the ticks)."""

    def call_later(self, delay: float, callback: Any) -> Any:
        return asyncio.get_running_loop().call_later(10**6, callback)


def many_jobs(
    tmp_path: Path, count: int, **options: Any
) -> tuple[FakeClient, Clock, ManualTicks, JobPoller, list[str]]:
    """``count`` unfinished jobs tracked and answered "in_progress", polled on hand ticks."""
    client, clock, scheduler = FakeClient(), Clock(), ManualTicks()
    tracker = JobTracker(Store(), tmp_path / "jobs.json", "sandbox")
    poller = JobPoller(tracker, scheduler, Listener(), clock, concurrency=8, **options)
    poller.start(client)  # type: ignore[arg-type]
    ids = [f"job_{n}" for n in range(count)]
    for job_id in ids:
        client.script(job_id, job(job_id, "in_progress"))
        tracker.track(job(job_id), "user_good", clock())
    return client, clock, scheduler, poller, ids


async def test_a_thousand_jobs_stay_live_within_the_bound_and_the_rate(tmp_path: Path) -> None:
    client, clock, scheduler, poller, ids = many_jobs(tmp_path, 1000, interval=1.0)
    seconds = 60
    for _ in range(seconds):
        clock.advance(1)
        poller._tick()
        await scheduler.wait()
        assert poller.stale_count(clock()) == 0
    assert client.max_in_flight <= 8 and client.max_same_job == 1
    assert set(client.calls) == set(ids)  # every job answered, none left behind
    # The rate holds: the first round, then about max_rate a second.
    assert len(client.calls) <= 1000 + seconds * poller.max_rate
    poller.stop()


async def test_a_thousand_jobs_are_polled_spread_over_the_period_not_in_a_burst(
    tmp_path: Path,
) -> None:
    client, clock, scheduler, poller, ids = many_jobs(tmp_path, 1000, interval=1.0)
    per_tick = []
    for second in range(1, 46):  # past the stale limit: period (25 s) + 15 s
        clock.advance(1)
        before = len(client.calls)
        poller._tick()
        await scheduler.wait()
        per_tick.append(len(client.calls) - before)
        if second % 5 == 0:
            assert poller.stale_count(clock()) == 0, f"stale after {second} s"
        if second == 25:  # one period: every job answered once
            assert set(client.calls) == set(ids)
    assert max(per_tick) <= poller.max_rate  # 40 a tick of 1 s, never 1,000 at once
    assert client.max_in_flight <= 8 and client.max_same_job == 1


async def test_unchanged_jobs_of_many_are_polled_half_as_often_never_stale_a_change_within_two_periods(
    tmp_path: Path,
) -> None:
    """200 jobs at 8 polls a second: a period of 25 s, as 1,000 at 40 (a fifth of the work)."""
    client, clock, scheduler, poller, _ = many_jobs(tmp_path, 200, max_rate=8)

    async def tick() -> None:
        clock.advance(1)
        poller._tick()
        await scheduler.wait()
        assert poller.stale_count(clock()) == 0, f"stale at {clock()}"

    calls = []
    for _ in range(150):
        await tick()
        calls.append(len(client.calls))
    assert poller.period == 25
    # Steady state: each unchanged job once in two periods (50 s), not twice.
    assert 180 <= calls[-1] - calls[-51] <= 220
    client.script("job_7", job("job_7", "completed"))
    for _ in range(51):
        await tick()
        if poller.tracker.get("user_good/job_7").is_terminal:  # type: ignore[union-attr]
            break
    else:
        raise AssertionError("a change took longer than two periods to show")
    poller.stop()


async def test_changes_are_saved_at_once_then_at_most_every_few_seconds(tmp_path: Path) -> None:
    client, clock, scheduler = FakeClient(), Clock(), ManualTicks()
    path = tmp_path / "jobs.json"
    tracker = JobTracker(Store(), path, "sandbox")
    poller = JobPoller(tracker, scheduler, Listener(), clock, interval=1.0)
    poller.start(client)  # type: ignore[arg-type]
    for job_id in ("job_a", "job_b"):
        tracker.track(job(job_id), "user_good", clock())
    tracker.save()
    saves = 0
    save = tracker.save

    def counted() -> bool:
        nonlocal saves
        saves += 1
        return save()

    tracker.save = counted  # type: ignore[method-assign]
    # Every tick a status changes (a thousand jobs answering do that all the time).
    for status in ("in_progress", "mfa_required", "in_progress", "completed", "completed"):
        for job_id in ("job_a", "job_b"):
            client.script(job_id, job(job_id, status))
        clock.advance(1)
        poller._tick()
        await scheduler.wait()
    assert saves == 1  # the first change at once; the next ones wait their turn
    assert tracker.unsaved
    poller.stop()
    assert tracker.save()  # what the desk does at sign-out and quit
    statuses = {record["job_id"]: record["status"] for record in
                json.loads(path.read_text())["services"]["sandbox"]}  # fmt: skip
    assert statuses == {"job_a": "completed", "job_b": "completed"}
