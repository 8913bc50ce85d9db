"""JobsMixin: polling never overlaps, backs off, reports once, pauses, stops.

A small host app with a scripted fake client isolates the mixin from the
shell; the flows against the real sandbox are in ``test_jobs_flows.py``.
"""

from __future__ import annotations

import asyncio
import datetime as dt
from collections import deque
from pathlib import Path
from typing import Any

import pytest
from textual.app import App, ComposeResult
from textual.screen import ModalScreen
from textual.widgets import Static
from tui_helpers import settle

from accountdesk.client.errors import (
    AccountDataError,
    FiConnectionError,
    JobNotFoundError,
    TransportError,
)
from accountdesk.client.models import Job
from accountdesk.tui.poller import JobsMixin

NOW = dt.datetime(2026, 11, 20, 9, 30, tzinfo=dt.UTC)


def job(job_id: str = "job_1", status: str = "pending", **extra: Any) -> Job:
    return Job.model_validate({"job_id": job_id, "user_id": "user_good", "kind": "balance_refresh",
                               "status": status, "created_at": NOW.isoformat(), **extra})  # fmt: skip


class FakeClient:
    """``get_job`` answers from a per-job script; ``gate`` can hold every call."""

    def __init__(self) -> None:
        self.scripts: dict[str, deque[Job | AccountDataError]] = {}
        self.calls: list[str] = []
        self.in_flight = 0
        self.max_in_flight = 0
        self.gate: asyncio.Event | None = None

    def script(self, job_id: str, *answers: Job | AccountDataError) -> None:
        self.scripts[job_id] = deque(answers)

    async def get_job(self, user_id: str, job_id: str) -> Job:
        self.calls.append(job_id)
        self.in_flight += 1
        self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            if self.gate is not None:
                await self.gate.wait()
            answers = self.scripts[job_id]
            answer = answers.popleft() if len(answers) > 1 else answers[0]
            if isinstance(answer, AccountDataError):
                raise answer
            return answer
        finally:
            self.in_flight -= 1


class HostApp(JobsMixin, App[None]):
    """What AccountDeskApp gives the mixin, and nothing else."""

    jobs_poll_interval = 3600.0  # tests drive rounds with poll_jobs_now()

    def __init__(self, client: FakeClient, data_dir: Path) -> None:
        super().__init__()
        self._client = client
        self._data_dir = data_dir
        self.clock = NOW
        self.reported: list[AccountDataError] = []

    @property
    def client(self) -> Any:
        return self._client

    @property
    def data_dir(self) -> Path:
        return self._data_dir

    @property
    def base_url_key(self) -> str:
        return "sandbox"

    def now(self) -> dt.datetime:
        return self.clock

    def report_error(self, error: AccountDataError) -> None:
        self.reported.append(error)

    def compose(self) -> ComposeResult:
        yield Static("host")

    def on_mount(self) -> None:
        self.init_jobs()


class Blocker(ModalScreen[None]):
    def compose(self) -> ComposeResult:
        yield Static("modal")


@pytest.fixture
def client() -> FakeClient:
    return FakeClient()


@pytest.mark.anyio
async def test_rounds_never_overlap(client: FakeClient, tmp_path: Path) -> None:
    app = HostApp(client, tmp_path)
    async with app.run_test() as pilot:
        for n in range(3):
            client.script(f"job_{n}", job(f"job_{n}", "in_progress"))
            app.track_job(job(f"job_{n}"), "user_good")
        client.gate = asyncio.Event()
        first = app.poll_jobs_now()
        assert first is not None
        await pilot.pause()
        # Asking again (the timer, the r key) while a round runs joins it.
        assert app.poll_jobs_now() is first and app.poll_jobs_now(force=True) is first
        assert app.polling_busy and not app.polling_armed
        client.gate.set()
        await settle(pilot)
        assert client.max_in_flight == 1
        assert sorted(client.calls) == ["job_0", "job_1", "job_2"]
        # The next round is armed only once this one finished.
        assert not app.polling_busy and app.polling_armed
        assert {j.status for j in app.job_tracker.jobs} == {"in_progress"}


@pytest.mark.anyio
async def test_errors_back_off_toast_once_then_stale(client: FakeClient, tmp_path: Path) -> None:
    app = HostApp(client, tmp_path)
    async with app.run_test() as pilot:
        client.script("job_1", FiConnectionError(400, "AC-104", "bank down"))
        app.track_job(job(), "user_good")
        app.poll_jobs_now()
        await settle(pilot)
        [tracked] = app.job_tracker.jobs
        assert [e.code for e in app.reported] == ["AC-104"]
        assert tracked.stale and "AC-104" in tracked.note
        # Backing off: nothing is due for 1 s, then 2 s after the second failure.
        assert app.poll_jobs_now() is None
        app.clock = NOW + dt.timedelta(seconds=1)
        app.poll_jobs_now()
        await settle(pilot)
        assert len(client.calls) == 2 and len(app.reported) == 1  # same error: no second toast
        app.clock = NOW + dt.timedelta(seconds=2.5)
        assert app.poll_jobs_now() is None
        # A different kind of error is new for this job: one more toast.
        client.script("job_1", TransportError("connect", "refused"))
        app.clock = NOW + dt.timedelta(seconds=3)
        app.poll_jobs_now()
        await settle(pilot)
        assert [e.code for e in app.reported] == ["AC-104", None]
        # Recovery clears the stale marker.
        client.script("job_1", job(status="in_progress"))
        app.poll_jobs_now(force=True)
        await settle(pilot)
        assert not tracked.stale and tracked.note == "" and tracked.status == "in_progress"


@pytest.mark.anyio
async def test_unknown_job_is_marked_gone_once(client: FakeClient, tmp_path: Path) -> None:
    app = HostApp(client, tmp_path)
    async with app.run_test() as pilot:
        client.script("job_1", JobNotFoundError(404, "AC-109", "gone"))
        app.track_job(job(), "user_good")
        app.poll_jobs_now()
        await settle(pilot)
        [tracked] = app.job_tracker.jobs
        assert tracked.gone and app.reported == []
        assert app.poll_jobs_now(force=True) is None and client.calls == ["job_1"]


@pytest.mark.anyio
async def test_polling_stops_for_terminal_jobs(client: FakeClient, tmp_path: Path) -> None:
    app = HostApp(client, tmp_path)
    async with app.run_test(notifications=True) as pilot:
        client.script("job_1", job(status="in_progress"), job(status="completed"))
        app.track_job(job(), "user_good")
        for _ in range(2):
            app.poll_jobs_now(force=True)
            await settle(pilot)
        assert app.job_tracker.jobs[0].status == "completed"
        assert app.poll_jobs_now(force=True) is None and len(client.calls) == 2
        assert any(n.title == "Job completed" for n in app._notifications)


@pytest.mark.anyio
async def test_pause_and_modal_hold_polling(client: FakeClient, tmp_path: Path) -> None:
    app = HostApp(client, tmp_path)
    async with app.run_test() as pilot:
        client.script("job_1", job(status="in_progress"))
        app.track_job(job(), "user_good")
        app.set_polling_paused(True)
        assert app.poll_jobs_now() is None
        app.set_polling_paused(False)
        await app.push_screen(Blocker())
        assert app.poll_jobs_now() is None and client.calls == []
        app.pop_screen()
        await pilot.pause()
        assert app.poll_jobs_now() is not None
        await settle(pilot)
        assert client.calls == ["job_1"]


@pytest.mark.anyio
async def test_the_timer_starts_a_round_and_is_rearmed_after_it(
    client: FakeClient, tmp_path: Path
) -> None:
    app = HostApp(client, tmp_path)
    async with app.run_test() as pilot:
        client.script("job_1", job(status="in_progress"))
        app.track_job(job(), "user_good")
        assert app.polling_armed
        generation = app._poll_generation
        app._poll_timer_fired(generation)  # what the one-shot timer calls when it fires
        assert app.polling_busy and not app.polling_armed
        await settle(pilot)
        assert not app.polling_busy and app.polling_armed and client.calls == ["job_1"]
        # A timer stopped after its event was queued is ignored.
        app._poll_timer_fired(generation)
        assert not app.polling_busy and client.calls == ["job_1"]
        app.stop_jobs()
        assert not app.polling_armed


@pytest.mark.anyio
async def test_mfa_is_offered_by_toast_when_a_modal_is_open(
    client: FakeClient, tmp_path: Path
) -> None:
    challenge = {"question": "Code?", "expires_at": (NOW + dt.timedelta(seconds=300)).isoformat(),
                 "attempts_remaining": 3}  # fmt: skip
    app = HostApp(client, tmp_path)
    async with app.run_test(notifications=True) as pilot:
        await app.push_screen(Blocker())
        app.track_job(job(status="mfa_required", mfa=challenge), "user_mfa")
        await pilot.pause()
        assert isinstance(app.screen, Blocker)
        assert any("press m on the jobs screen" in n.message for n in app._notifications)


@pytest.mark.anyio
async def test_a_job_reaching_mfa_opens_the_dialog_once(client: FakeClient, tmp_path: Path) -> None:
    from accountdesk.tui.screens.mfa import MfaDialog

    challenge = {"question": "Code?", "expires_at": (NOW + dt.timedelta(seconds=300)).isoformat(),
                 "attempts_remaining": 3}  # fmt: skip
    app = HostApp(client, tmp_path)
    async with app.run_test() as pilot:
        client.script("job_1", job(status="mfa_required", mfa=challenge))
        app.track_job(job(), "user_mfa")
        app.poll_jobs_now()
        await settle(pilot)
        assert isinstance(app.screen, MfaDialog)
        assert app.screen.challenge.question == "Code?"
        await pilot.press("escape")
        await settle(pilot)
        app.poll_jobs_now(force=True)  # still waiting: not offered again
        await settle(pilot)
        assert not isinstance(app.screen, MfaDialog)


@pytest.mark.anyio
async def test_jobs_screen_updates_rows_in_place(client: FakeClient, tmp_path: Path) -> None:
    from textual.widgets import DataTable

    from accountdesk.tui.screens.jobs import JobsScreen

    app = HostApp(client, tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        client.script("job_1", FiConnectionError(400, "AC-104", "bank down"))
        app.track_job(job(), "user_good")
        app.track_job(job("job_2"), "user_good")
        app.action_show_jobs()
        await pilot.pause()
        table = app.screen.query_one(DataTable)
        assert isinstance(app.screen, JobsScreen) and table.row_count == 2
        await pilot.press("down")  # the cursor on the older job stays there through updates
        client.script("job_2", job("job_2", "in_progress"))
        app.poll_jobs_now()
        await settle(pilot)
        assert table.cursor_row == 1
        assert [str(c) for c in table.get_row("user_good/job_1")][2:] == ["pending", "0s", "0s ago",
                                                                         "stale · AC-104"]  # fmt: skip
        assert str(table.get_row("user_good/job_2")[2]) == "in_progress"
