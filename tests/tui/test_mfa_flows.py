"""The MFA dialog against the in-process sandbox (user_mfa: the answer is 1234).

Both clocks are frozen; the sandbox clock moves only when a test advances it,
and the app clock is a mutable stand-in so the countdown can be checked.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from textual.widgets import Input, Label, Static
from tui_helpers import (
    FROZEN_NOW,
    HandClock,
    RecordingTransport,
    answer_mfa,
    screen_text,
    settle,
    sign_in,
    start_mfa_refresh,
    toast_titles,
)

from accountdesk.client import AccountBlockedError
from accountdesk.contract import ERRORS
from accountdesk.contract.endpoints import JOB
from accountdesk.core.mfa import format_countdown
from accountdesk.tui.screens.help import HelpScreen
from accountdesk.tui.screens.mfa import MfaDialog
from accountdesk.tui.widgets.footer import AppFooter


@pytest.fixture(autouse=True)
def _checks_driven_by_the_test(monkeypatch: pytest.MonkeyPatch) -> None:
    """The dialog's 5 s re-read runs only when a test calls it (what its timer calls)."""
    monkeypatch.setattr(MfaDialog, "check_interval", 3600.0)


def text_of(dialog: MfaDialog, selector: str) -> str:
    return str(dialog.query_one(selector, Label if selector != "#mfa-message" else Static).render())


def test_format_countdown() -> None:
    assert format_countdown(FROZEN_NOW + dt.timedelta(seconds=299.5), FROZEN_NOW) == "04:59"
    assert format_countdown(FROZEN_NOW, FROZEN_NOW) == "expired"
    assert format_countdown(None, FROZEN_NOW) == "—"


@pytest.mark.anyio
async def test_wrong_answers_then_blocked(make_app: Any) -> None:
    app = make_app()
    app.desk.poll_interval = 3600
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        dialog = await start_mfa_refresh(pilot)
        assert "Attempts left: 3" in text_of(dialog, "#mfa-attempts")
        assert "05:00" in text_of(dialog, "#mfa-countdown")
        await answer_mfa(pilot, "0000")
        assert app.screen is dialog
        assert "Wrong answer — 2 attempts left" in text_of(dialog, "#mfa-message")
        assert "Attempts left: 2" in text_of(dialog, "#mfa-attempts")
        await answer_mfa(pilot, "1111")
        assert "Wrong answer — 1 attempt left" in text_of(dialog, "#mfa-message")
        await answer_mfa(pilot, "2222")
        # The third wrong answer fails the job: toast, dialog closed, job failed.
        assert not isinstance(app.screen, MfaDialog)
        assert "Job failed · AC-108" in toast_titles(app)
        [job] = app.desk.tracker.jobs
        assert job.status == "failed" and job.last_error_code == "AC-108"
        # The toast ends with the next step and when the block lifts (blocked_until).
        lifts = "The block lifts at 09:45:00 UTC (in 15 min)."
        next_step = ERRORS["AC-108"].next_step
        advice = f"Next: {lifts} {next_step}"
        assert toast(app, "Job failed · AC-108").message.splitlines()[1] == advice
        # The next refresh is refused while the account is blocked.
        await pilot.press("b")
        await settle(pilot)
        blocked = [e for e in app.desk.error_log.records if e.code == "AC-108"]
        assert blocked, toast_titles(app)
        # Its toast says when the block lifts too (Retry-After), below the service's words.
        assert toast(app, "AC-108 · 429").message.splitlines() == [ERRORS["AC-108"].message, advice]
        with pytest.raises(AccountBlockedError):
            await app.desk.client.refresh_balance("user_mfa")


@pytest.mark.anyio
async def test_right_answer_resumes_and_job_completes(make_app: Any, sandbox_app: Any) -> None:
    app = make_app()
    app.desk.poll_interval = 3600
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await start_mfa_refresh(pilot)
        await answer_mfa(pilot, "1234")
        assert not isinstance(app.screen, MfaDialog)
        [job] = app.desk.tracker.jobs
        assert job.status == "in_progress"
        sandbox_app.state.clock.advance(5)
        app.desk.poller.poll_now()
        await settle(pilot)
        assert app.desk.tracker.jobs[0].status == "completed"
        assert "Job completed" in toast_titles(app)


@pytest.mark.anyio
async def test_expired_session_closes_with_ac110(make_app: Any, sandbox_app: Any) -> None:
    clock = HandClock()
    app = make_app(clock=clock)
    app.desk.poll_interval = 3600
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        dialog = await start_mfa_refresh(pilot)
        clock.now = FROZEN_NOW + dt.timedelta(seconds=61)
        dialog._draw_facts()
        assert "03:59" in text_of(dialog, "#mfa-countdown")
        sandbox_app.state.clock.advance(301)
        clock.now = FROZEN_NOW + dt.timedelta(seconds=301)
        dialog._draw_facts()
        assert "Session expired" in text_of(dialog, "#mfa-countdown")
        await answer_mfa(pilot, "1234")
        assert not isinstance(app.screen, MfaDialog)
        assert any(title and title.startswith("AC-110") for title in toast_titles(app)), (
            toast_titles(app)
        )
        app.desk.poller.poll_now()
        await settle(pilot)
        assert app.desk.tracker.jobs[0].status == "failed"


@pytest.mark.anyio
async def test_escape_cancels_and_m_reopens(make_app: Any) -> None:
    app = make_app()
    app.desk.poll_interval = 3600
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await start_mfa_refresh(pilot)
        await pilot.press("escape")
        await settle(pilot)
        assert not isinstance(app.screen, MfaDialog)
        assert app.desk.tracker.jobs[0].status == "mfa_required"
        await pilot.press("j")
        await settle(pilot)
        await pilot.press("m")
        await settle(pilot)
        assert isinstance(app.screen, MfaDialog)


@pytest.mark.anyio
async def test_the_answer_is_never_logged_or_kept(make_app: Any, app_dirs: dict[str, Any]) -> None:
    app = make_app(log_level="debug")
    app.desk.poll_interval = 3600
    async with app.run_test(size=(100, 30)) as pilot:
        dialog = await start_mfa_refresh(pilot)
        await answer_mfa(pilot, "86420")
        assert dialog.query_one(Input).value == ""  # cleared after a wrong answer
    logged = "".join(
        p.read_text(errors="replace") for p in app_dirs["log_dir"].rglob("*") if p.is_file()
    )
    assert logged, "expected the app to have logged something"
    assert "86420" not in logged
    saved = "".join(p.read_text() for p in app_dirs["data_dir"].rglob("*.json"))
    assert "86420" not in saved


def toast(app: Any, title: str) -> Any:
    [found] = [n for n in app._notifications if n.title == title]
    return found


def job_reads(transport: RecordingTransport) -> int:
    return sum(1 for r in transport.requests if r.method == "GET" and "/job/" in r.url.path)


EXPIRED = ERRORS["AC-110"].message_for(JOB)


@pytest.mark.anyio
async def test_countdown_end_closes_when_the_service_agrees(
    make_app: Any, sandbox_app: Any
) -> None:
    clock = HandClock()
    app = make_app(clock=clock)
    app.desk.poll_interval = 3600
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        dialog = await start_mfa_refresh(pilot)
        sandbox_app.state.clock.advance(301)
        clock.now = FROZEN_NOW + dt.timedelta(seconds=301)
        dialog.tick()  # what the countdown's 1 s timer calls
        assert "Session expired" in text_of(dialog, "#mfa-countdown")
        await settle(pilot)
        assert not isinstance(app.screen, MfaDialog)
        assert (
            toast(app, "Job failed · AC-110").message.splitlines()[0].endswith(f"failed: {EXPIRED}")
        )
        [job] = app.desk.tracker.jobs
        assert job.status == "failed" and job.last_error_code == "AC-110"


@pytest.mark.anyio
async def test_countdown_end_keeps_the_dialog_while_the_service_waits(make_app: Any) -> None:
    clock = HandClock()
    app = make_app(clock=clock)
    app.desk.poll_interval = 3600
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        dialog = await start_mfa_refresh(pilot)
        clock.now = FROZEN_NOW + dt.timedelta(seconds=301)  # only this computer's clock moved
        dialog.tick()
        await settle(pilot)
        assert app.screen is dialog
        assert "service still waits" in text_of(dialog, "#mfa-message")
        await answer_mfa(pilot, "1234")  # and the service does take the answer
        assert not isinstance(app.screen, MfaDialog)
        assert app.desk.tracker.jobs[0].status == "in_progress"


@pytest.mark.anyio
async def test_dialog_rereads_its_job_one_read_at_a_time(
    make_app: Any, sandbox_transport: Any, sandbox_app: Any
) -> None:
    transport = RecordingTransport(sandbox_transport)
    app = make_app(transport=transport)  # the app clock stays frozen: the countdown says 05:00
    app.desk.poll_interval = 3600
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        dialog = await start_mfa_refresh(pilot)
        assert dialog.check_timer is not None and dialog.check_timer._callback == dialog.check_due
        before = job_reads(transport)
        dialog.check_due()  # one tick of the re-read timer: the job still waits
        await settle(pilot)
        assert app.screen is dialog and job_reads(transport) == before + 1
        sandbox_app.state.clock.advance(301)  # the service's clock runs ahead of ours
        assert dialog.check_job() is not None
        assert dialog.check_job() is None  # never two reads at once
        await settle(pilot)
        assert job_reads(transport) == before + 2
        assert not isinstance(app.screen, MfaDialog)
        assert (
            toast(app, "Job failed · AC-110").message.splitlines()[0].endswith(f"failed: {EXPIRED}")
        )
        assert app.desk.tracker.jobs[0].status == "failed"


@pytest.mark.anyio
async def test_dialog_closes_when_answered_elsewhere(make_app: Any) -> None:
    app = make_app()
    app.desk.poll_interval = 3600
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        dialog = await start_mfa_refresh(pilot)
        job_id = dialog.job_id
        await app.desk.client.submit_mfa("user_mfa", job_id, "1234")  # another desk answers
        await app.desk.client.resolve_mfa("user_mfa", job_id)
        dialog.check_job()
        await settle(pilot)
        assert not isinstance(app.screen, MfaDialog)
        assert "answered elsewhere" in toast(app, "MFA").message
        assert app.desk.tracker.jobs[0].status == "in_progress"


@pytest.mark.anyio
async def test_dialog_closes_when_blocked_elsewhere(make_app: Any) -> None:
    app = make_app()
    app.desk.poll_interval = 3600
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        dialog = await start_mfa_refresh(pilot)
        for wrong in ("1", "2", "3"):
            await app.desk.client.submit_mfa("user_mfa", dialog.job_id, wrong)
            await app.desk.client.resolve_mfa("user_mfa", dialog.job_id)
        dialog.check_job()
        await settle(pilot)
        assert not isinstance(app.screen, MfaDialog)
        assert "Job failed · AC-108" in toast_titles(app)
        assert app.desk.tracker.jobs[0].last_error_code == "AC-108"


@pytest.mark.anyio
async def test_f1_help_over_the_dialog_and_its_own_keys(make_app: Any, sandbox_app: Any) -> None:
    app = make_app()
    app.desk.poll_interval = 3600
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        dialog = await start_mfa_refresh(pilot)
        footer = dialog.query_one(AppFooter)
        assert footer.region.y == 29  # its own key bar, over the one of the screen below
        shown = {b.binding.key for b in dialog.active_bindings.values() if b.binding.show}
        assert {"escape", "f1"} <= shown
        await pilot.press("f1")  # the answer box has focus
        await pilot.pause()
        help_screen = app.screen
        assert isinstance(help_screen, HelpScreen) and help_screen.for_screen is dialog
        assert "MFA dialog" in str(help_screen.query_one("#help-title", Static).render())
        # The session ends while the help covers the dialog: the dialog waits to be shown.
        sandbox_app.state.clock.advance(301)
        dialog.check_job()
        await settle(pilot)
        assert app.screen is help_screen  # not closed in its place
        await pilot.press("escape")
        await settle(pilot)
        assert not isinstance(app.screen, (HelpScreen, MfaDialog))
        assert (
            toast(app, "Job failed · AC-110").message.splitlines()[0].endswith(f"failed: {EXPIRED}")
        )


@pytest.mark.anyio
async def test_a_covered_dialog_checks_when_shown_again(make_app: Any, sandbox_app: Any) -> None:
    app = make_app()
    app.desk.poll_interval = 3600
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        dialog = await start_mfa_refresh(pilot)
        await pilot.press("f1")
        await pilot.pause()
        sandbox_app.state.clock.advance(301)
        dialog.check_due()  # covered: the timer's tick reads nothing
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")  # shown again: it reads the job at once
        await settle(pilot)
        assert not isinstance(app.screen, MfaDialog)
        assert "Job failed · AC-110" in toast_titles(app)


@pytest.mark.anyio
async def test_a_block_the_service_lifted_is_dropped_even_after_a_restart(make_app: Any) -> None:
    """A block the app learnt is a hint: the service's later answer overrules it.

    The trainer's reset (here F4's, on the embedded sandbox) lifts the block;
    the app still held it from the failed job, in the dialog and in jobs.json.
    """
    app = make_app(poll_interval=3600)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await start_mfa_refresh(pilot)
        for wrong in ("0000", "1111", "2222"):
            await answer_mfa(pilot, wrong)
        assert "Job failed · AC-108" in toast_titles(app)
        await app.desk.reset_sandbox()
        await pilot.press("b")  # the sandbox puts the new job at MFA, 3 attempts left
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, MfaDialog)
        shown = " ".join(screen_text(app).split())
        assert "Attempts left: 3" in shown and "Blocked" not in shown and "AC-108" not in shown
        assert not dialog.query_one("#mfa-answer", Input).disabled
        await pilot.press("escape")  # later
        await settle(pilot)
    again = make_app(poll_interval=3600)  # the same data folder and sandbox
    async with again.run_test(size=(100, 30), notifications=True) as pilot:
        await sign_in(pilot)
        waiting = next(job for job in again.desk.tracker.jobs if job.needs_mfa)
        assert again.open_mfa_dialog(waiting.key)
        await settle(pilot)
        dialog = again.screen
        assert isinstance(dialog, MfaDialog)
        shown = " ".join(screen_text(again).split())
        assert "Blocked" not in shown and "AC-108" not in shown
        await answer_mfa(pilot, "1234")
        assert not isinstance(again.screen, MfaDialog)
        assert "MFA" in toast_titles(again)
        assert next(job for job in again.desk.tracker.jobs if job.key == waiting.key).status == (
            "in_progress"
        )
