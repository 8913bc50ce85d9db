"""watch_job: yields changes, backs off to a cap, always has a deadline, stops when cancelled."""

from __future__ import annotations

import asyncio

import httpx
import pytest
from client_fakes import FakeMonotonic, FakeService, SleepRecorder, job_body, make_client

from accountdesk.client import Job, JobWatchTimeout


def scripted_jobs(*statuses: str, **extra):
    """API handler answering each status in turn, then repeating the last one."""
    remaining = list(statuses)

    def api(request: httpx.Request) -> httpx.Response:
        status = remaining.pop(0) if len(remaining) > 1 else remaining[0]
        body = job_body(status=status)
        if status == "mfa_required":
            body["mfa"] = {"question": "PIN?", "expires_at": None, "attempts_remaining": 3}
        if status == "failed":
            body["error"] = {"code": "AC-104", "message": "FI down"}
        return httpx.Response(200, json=body)

    return api


async def collect(client, **options) -> list[Job]:
    return [job async for job in client.watch_job("user_good", "job_1", **options)]


@pytest.mark.anyio
async def test_yields_first_state_then_only_changes_until_terminal() -> None:
    clock = FakeMonotonic()
    sleeps = SleepRecorder(clock)
    statuses = ("pending", "pending", "in_progress", "in_progress", "completed")
    service = FakeService(scripted_jobs(*statuses))
    async with make_client(service, sleep=sleeps, monotonic=clock) as client:
        jobs = await collect(client)
    assert [job.status for job in jobs] == ["pending", "in_progress", "completed"]
    assert len(service.api_requests) == 5
    assert len(sleeps.delays) == 4  # no pause after the final state


@pytest.mark.anyio
@pytest.mark.parametrize("end", ["mfa_required", "failed"])
async def test_stops_at_mfa_or_failure(end: str) -> None:
    clock = FakeMonotonic()
    service = FakeService(scripted_jobs("pending", end, "completed"))
    async with make_client(service, sleep=SleepRecorder(clock), monotonic=clock) as client:
        jobs = await collect(client)
    assert [job.status for job in jobs] == ["pending", end]
    assert len(service.api_requests) == 2
    last = jobs[-1]
    if end == "mfa_required":
        assert last.needs_mfa and last.mfa.question == "PIN?"
    else:
        assert last.is_terminal and last.error.code == "AC-104"


@pytest.mark.anyio
async def test_interval_grows_to_the_cap() -> None:
    clock = FakeMonotonic()
    sleeps = SleepRecorder(clock)
    service = FakeService(scripted_jobs(*["in_progress"] * 8, "completed"))
    async with make_client(service, sleep=sleeps, monotonic=clock) as client:
        jobs = await collect(client, interval=1.0, backoff=2.0, max_interval=5.0)
    assert [job.status for job in jobs] == ["in_progress", "completed"]
    assert sleeps.delays == [1.0, 2.0, 4.0, 5.0, 5.0, 5.0, 5.0, 5.0]


@pytest.mark.anyio
async def test_defaults_come_from_the_client() -> None:
    clock = FakeMonotonic()
    sleeps = SleepRecorder(clock)
    service = FakeService(scripted_jobs("pending", "pending", "pending", "completed"))
    options = {"watch_interval": 0.5, "watch_backoff": 3.0, "watch_max_interval": 2.0}
    async with make_client(service, sleep=sleeps, monotonic=clock, **options) as client:
        await collect(client)
    assert sleeps.delays == [0.5, 1.5, 2.0]


@pytest.mark.anyio
async def test_deadline_raises_with_the_last_state() -> None:
    clock = FakeMonotonic()
    sleeps = SleepRecorder(clock)
    service = FakeService(scripted_jobs("pending", "in_progress"))
    seen: list[str] = []
    async with make_client(service, sleep=sleeps, monotonic=clock) as client:
        with pytest.raises(JobWatchTimeout) as caught:
            watch = client.watch_job("user_good", "job_1", interval=1, max_interval=4, timeout=10)
            async for job in watch:
                seen.append(job.status)
    assert seen == ["pending", "in_progress"]
    assert caught.value.job.status == "in_progress" and caught.value.timeout == 10
    assert sum(sleeps.delays) == pytest.approx(10.0)  # the last pause is cut to the deadline
    assert max(sleeps.delays) <= 4
    assert caught.value.path == "/accounts/user_good/job/job_1"
    assert "job_1" in caught.value.detail


@pytest.mark.anyio
async def test_zero_timeout_still_polls_once() -> None:
    clock = FakeMonotonic()
    service = FakeService(scripted_jobs("pending"))
    async with make_client(service, sleep=SleepRecorder(clock), monotonic=clock) as client:
        with pytest.raises(JobWatchTimeout):
            await collect(client, timeout=0)
    assert len(service.api_requests) == 1


@pytest.mark.anyio
async def test_cancelling_the_consumer_stops_polling() -> None:
    service = FakeService(scripted_jobs("pending"))
    paused = asyncio.Event()
    released = asyncio.Event()

    async def blocking_sleep(delay: float) -> None:
        paused.set()
        await released.wait()  # never set: only cancellation ends it

    seen: list[str] = []

    async def consume(client) -> None:
        async for job in client.watch_job("user_good", "job_1"):
            seen.append(job.status)

    async with make_client(service, sleep=blocking_sleep) as client:
        tasks_before = asyncio.all_tasks()
        watcher = asyncio.create_task(consume(client))
        await paused.wait()
        watcher.cancel()
        with pytest.raises(asyncio.CancelledError):
            await watcher
        requests_at_cancel = len(service.api_requests)
        for _ in range(5):
            await asyncio.sleep(0)
        assert len(service.api_requests) == requests_at_cancel == 1
        assert asyncio.all_tasks() == tasks_before  # nothing left running
    assert seen == ["pending"]


@pytest.mark.anyio
@pytest.mark.parametrize("options", [{"interval": 0}, {"interval": -1}, {"backoff": 0.5}])
async def test_settings_that_would_hammer_the_service_are_refused(options: dict) -> None:
    service = FakeService(scripted_jobs("pending"))
    async with make_client(service) as client:
        with pytest.raises(ValueError, match="interval"):
            await collect(client, **options)
    assert service.requests == []
