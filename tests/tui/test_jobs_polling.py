"""Polling as the app shows it: MFA offers, the dialog once per challenge, rows updated in place.

The poller's own rules (concurrency, backoff, gone, give-up) are tested
without Textual in ``tests/core/test_poller.py``; here a scripted client
stands in for the service behind the real app.
"""

from __future__ import annotations

import datetime as dt
import math
import time
from collections import deque
from typing import Any

import pytest
from textual.screen import ModalScreen
from textual.widgets import DataTable, Static
from tui_helpers import HandClock, not_a_sandbox, settle, sign_in, toasts

from accountdesk.client import FiConnectionError, Job
from accountdesk.core.errors.log import FailureKind
from accountdesk.tui.screens.jobs import AGES_EVERY, REDRAW_EVERY, JobsScreen
from accountdesk.tui.screens.mfa import MfaDialog

NOW = dt.datetime(2026, 11, 20, 9, 30, tzinfo=dt.UTC)
CHALLENGE = {"question": "Code?", "expires_at": (NOW + dt.timedelta(seconds=300)).isoformat(),
             "attempts_remaining": 3}  # fmt: skip
pytestmark = pytest.mark.anyio


def job(job_id: str = "job_1", status: str = "pending", **extra: Any) -> Job:
    return Job.model_validate({"job_id": job_id, "user_id": "user_good", "kind": "balance_refresh",
                               "status": status, "created_at": NOW.isoformat(), **extra})  # fmt: skip


class ScriptedClient:
    """Signs in at once; ``get_job`` answers from a per-job script."""

    def __init__(self) -> None:
        self.scripts: dict[str, deque[Job | Exception]] = {}
        self.calls: list[str] = []

    def script(self, job_id: str, *answers: Job | Exception) -> None:
        self.scripts[job_id] = deque(answers)

    async def sign_in(self) -> None:
        pass

    sandbox_control = staticmethod(not_a_sandbox)

    async def aclose(self) -> None:
        pass

    async def get_job(self, user_id: str, job_id: str) -> Job:
        self.calls.append(job_id)
        answers = self.scripts[job_id]
        answer = answers.popleft() if len(answers) > 1 else answers[0]
        if isinstance(answer, Exception):  # a service's error, or a bug of ours
            raise answer
        return answer


class Blocker(ModalScreen[None]):
    def compose(self) -> Any:
        yield Static("modal")


@pytest.fixture
def client() -> ScriptedClient:
    return ScriptedClient()


@pytest.fixture
def app(make_app, client: ScriptedClient) -> Any:
    return make_app(client_factory=lambda *args, **kwargs: client, poll_interval=3600)


async def test_mfa_is_offered_by_toast_when_a_modal_is_open(app: Any) -> None:
    async with app.run_test(notifications=True) as pilot:
        await sign_in(pilot)
        await app.push_screen(Blocker())
        app.desk.track_job(job(status="mfa_required", mfa=CHALLENGE), "user_mfa")
        await settle(pilot)
        assert isinstance(app.screen, Blocker)
        assert any("press m on the jobs screen" in message for _t, message, _s in toasts(app))


async def test_a_job_reaching_mfa_opens_the_dialog_once(app: Any, client: ScriptedClient) -> None:
    async with app.run_test() as pilot:
        await sign_in(pilot)
        client.script("job_1", job(status="mfa_required", mfa=CHALLENGE))
        app.desk.track_job(job(), "user_good")
        app.desk.poller.poll_now()
        await settle(pilot)
        assert isinstance(app.screen, MfaDialog)
        assert app.screen.mfa.challenge.question == "Code?"
        assert app.desk.poller.held  # live polling waits behind the dialog
        await pilot.press("escape")
        await settle(pilot)
        assert not app.desk.poller.held
        app.desk.poller.poll_now(force=True)  # still waiting: not offered again
        await settle(pilot)
        assert not isinstance(app.screen, MfaDialog)


async def test_jobs_screen_updates_rows_in_place(app: Any, client: ScriptedClient) -> None:
    async with app.run_test(size=(100, 30)) as pilot:
        await sign_in(pilot)
        client.script("job_1", FiConnectionError(400, "AC-104", "bank down"))
        app.desk.track_job(job(), "user_good")
        app.desk.track_job(job("job_2"), "user_good")
        await app.run_action("show_jobs")
        await settle(pilot)
        table = app.screen.query_one(DataTable)
        assert isinstance(app.screen, JobsScreen) and table.row_count == 2
        await pilot.press("down")  # the cursor on the older job stays there through updates
        client.script("job_2", job("job_2", "in_progress"))
        app.desk.poller.poll_now()
        await settle(pilot)
        assert table.cursor_row == 1
        cells = [str(c) for c in table.get_row("user_good/job_1")][2:]
        assert cells == ["pending", "0s", "0s ago", "stale · AC-104"]
        assert str(table.get_row("user_good/job_2")[2]) == "in progress"
        assert "1 stale" in str(app.screen.query_one("#jobs-status").render())


async def test_with_many_jobs_a_redraw_writes_the_rows_in_view_and_scrolling_brings_the_rest(
    app: Any, client: ScriptedClient
) -> None:
    async with app.run_test(size=(100, 30)) as pilot:
        await sign_in(pilot)
        tracker = app.desk.tracker
        for index in range(200):
            tracker.track(job(f"job_{index:03d}"), "user_good", app.desk.now())
            client.script(f"job_{index:03d}", job(f"job_{index:03d}", "in_progress"))
        tracker.save()
        await app.run_action("show_jobs")
        await settle(pilot)
        table = app.screen.query_one(DataTable)
        assert table.row_count == 200
        written: set[Any] = set()
        update_cell = table.update_cell

        def counted(row_key: Any, *args: Any, **kwargs: Any) -> None:
            written.add(row_key)
            update_cell(row_key, *args, **kwargs)

        table.update_cell = counted  # type: ignore[method-assign]
        assert app.desk.poller.poll_now(force=True) == 200  # every status changes
        await settle(pilot)
        # A screenful (30 rows) and a few around it, not all 200.
        assert 0 < len(written) <= 40
        assert str(table.get_row_at(0)[2]) == "in progress"
        table.move_cursor(row=199, animate=False)  # scrolls the last rows into view
        await settle(pilot)
        assert str(table.get_row_at(199)[2]) == "in progress"
        # The details line follows the cursor (updated without a new layout: one line each).
        details = app.screen.query_one("#job-details", Static)
        assert "job_000" in str(details.render())
        await pilot.press("up")
        await settle(pilot)
        assert "job_001" in str(details.render()) and "job_000" not in str(details.render())
        assert "200 jobs, 200 unfinished" in str(app.screen.query_one("#jobs-status").render())


async def test_a_burst_of_job_changes_redraws_twice_and_shows_the_last_state(
    app: Any, client: ScriptedClient
) -> None:
    async with app.run_test(size=(100, 30)) as pilot:
        await sign_in(pilot)
        app.desk.track_job(job(), "user_good")
        await app.run_action("show_jobs")
        await settle(pilot)
        screen = app.screen
        screen.ticker.pause()  # the one-second clock's redraws are not the signal's
        redraws = 0
        refresh_jobs = screen.refresh_jobs

        def counted(**options: Any) -> None:
            nonlocal redraws
            redraws += 1
            refresh_jobs(**options)

        screen.refresh_jobs = counted
        started = time.monotonic()
        for status in ("in_progress", "pending", "in_progress", "completed"):
            client.script("job_1", job(status=status))
            app.desk.poller.poll_now(force=True)
            await pilot.pause()  # the answer handled, the signal published
        spread = time.monotonic() - started
        await settle(pilot)
        # One redraw at once, one owed for the rest (not one per answer). A
        # loaded machine may spread the four answers over more than one
        # REDRAW_EVERY: then one more redraw per such interval, never four.
        assert redraws <= min(3, 2 + math.floor(spread / REDRAW_EVERY))
        table = screen.query_one(DataTable)
        assert str(table.get_row("user_good/job_1")[2]) == "completed"


async def test_ages_move_in_ten_second_steps_and_a_change_or_a_stale_mark_shows_at_once(
    make_app: Any, client: ScriptedClient
) -> None:
    """One changed cell redraws every row in view: ages (and last polls) only every 10 ticks."""
    clock = HandClock()
    app = make_app(client_factory=lambda *a, **k: client, poll_interval=3600, clock=clock)
    async with app.run_test(size=(100, 30)) as pilot:
        await sign_in(pilot)
        client.script("job_1", job())
        client.script("job_2", job("job_2"))
        app.desk.track_job(job(), "user_good")
        app.desk.track_job(job("job_2"), "user_good")
        await app.run_action("show_jobs")
        await settle(pilot)
        screen, table = app.screen, app.screen.query_one(DataTable)
        screen.ticker.pause()  # ticked by hand: a slow machine's real ticks would add up
        written: list[tuple[Any, Any]] = []
        update_cell = table.update_cell

        def counted(row_key: Any, column_key: Any, *args: Any, **kwargs: Any) -> None:
            written.append((row_key, column_key))
            update_cell(row_key, column_key, *args, **kwargs)

        table.update_cell = counted  # type: ignore[method-assign]
        screen.refresh_jobs()  # the ages step just drawn
        written.clear()
        clock.advance(3)
        for _ in range(9):  # ages moved, nothing else: the table is left alone
            screen.tick()
        assert written == []
        assert str(table.get_row("user_good/job_1")[3]) == "0s"
        client.script("job_2", job("job_2", "in_progress"))
        app.desk.poller.poll_now(force=True)  # a status change shows at once...
        await settle(pilot)
        assert {row for row, _ in written} == {"user_good/job_2"}
        # ... and its age reads at the same moment as its neighbours' (the last
        # ages step), not a fresh one beside theirs.
        assert [str(c) for c in table.get_row("user_good/job_2")][2:4] == ["in progress", "0s"]
        assert str(table.get_row("user_good/job_1")[3]) == "0s"
        written.clear()
        screen.tick()  # the tenth tick: every age moves
        assert [str(table.get_row(f"user_good/{key}")[3]) for key in ("job_1", "job_2")] == [
            "3s", "3s"]  # fmt: skip
        assert {column for _, column in written} == {"age", "last_poll"}
        clock.advance(3600)  # no answer for an hour: stale on the next tick, not the ages step
        written.clear()
        screen.tick()
        assert "stale" in str(table.get_row("user_good/job_1")[5])


async def test_rows_scrolled_into_view_read_their_ages_at_the_same_moment_as_the_rest(
    make_app: Any, client: ScriptedClient
) -> None:
    """A row written as it scrolls in shows the ages step's reading, like every row beside it."""
    clock = HandClock()
    app = make_app(client_factory=lambda *a, **k: client, poll_interval=3600, clock=clock)
    async with app.run_test(size=(100, 30)) as pilot:
        await sign_in(pilot)
        for number in range(60):
            client.script(f"job_{number}", job(f"job_{number}"))
            app.desk.track_job(job(f"job_{number}"), "user_good")
        await app.run_action("show_jobs")
        await settle(pilot)
        screen, table = app.screen, app.screen.query_one(DataTable)
        screen.ticker.pause()
        clock.advance(4)  # between two ages steps
        table.scroll_end(animate=False, immediate=True)
        await settle(pilot)
        assert table.scroll_y > 0
        ages = {str(table.get_row_at(index)[3]) for index in range(table.row_count)}
        assert ages == {"0s"}
        for _ in range(AGES_EVERY):
            screen.tick()  # an ages step: the rows in view move together
        assert {str(table.get_row_at(index)[3]) for index in range(40, 60)} == {"4s"}


async def test_polls_run_as_plain_tasks_and_a_poll_that_raises_reaches_the_error_log(
    app: Any, client: ScriptedClient
) -> None:
    """No Textual worker per poll (each posts three state messages); a bug is still reported."""
    async with app.run_test(size=(100, 30)) as pilot:
        await sign_in(pilot)
        client.script("job_1", job(status="in_progress"))
        client.script("job_2", RuntimeError("poll bug"))
        app.desk.track_job(job(), "user_good")
        app.desk.track_job(job("job_2"), "user_good")
        assert app.desk.poller.poll_now(force=True) == 2
        assert not [worker for worker in app.workers if worker.group == "jobs"]
        await settle(pilot)  # waits for the polls too
        assert app.desk.poller.in_flight == 0
        assert str(app.desk.tracker.jobs[-1].status) == "in_progress"
        [record] = app.desk.error_log.records
        assert record.failure is FailureKind.INTERNAL and record.title == "Internal error"
