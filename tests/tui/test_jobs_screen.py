"""The jobs screen for daily work: errors on the row, Enter goes to the user, clear, filter,
when an AC-108 block lifts; and leaving with unfinished jobs asks first."""

from __future__ import annotations

from typing import Any

import pytest
from textual.widgets import DataTable, Input, Static
from tui_helpers import (
    answer_mfa,
    open_account,
    screen_text,
    settle,
    sign_in,
    start_mfa_refresh,
    widget_text,
)

from accountdesk.tui.screens.account import AccountScreen
from accountdesk.tui.screens.jobs import JobsScreen
from accountdesk.tui.screens.login import LoginScreen
from accountdesk.tui.screens.mfa import MfaDialog

pytestmark = pytest.mark.anyio


def rows(screen: Any) -> list[list[str]]:
    table = screen.query_one(DataTable)
    return [[str(cell) for cell in table.get_row_at(i)] for i in range(table.row_count)]


async def show_jobs(pilot: Any) -> JobsScreen:
    await pilot.app.run_action("show_jobs")
    await settle(pilot)
    assert isinstance(pilot.app.screen, JobsScreen)
    return pilot.app.screen


async def lock_out(pilot: Any) -> None:
    await start_mfa_refresh(pilot)
    for wrong in ("0000", "1111", "2222"):
        await answer_mfa(pilot, wrong)


async def test_a_failed_job_shows_code_message_and_when_the_block_lifts(make_app) -> None:
    app = make_app(poll_interval=3600)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await lock_out(pilot)
        screen = await show_jobs(pilot)
        [row] = rows(screen)
        assert row[2] == "failed" and row[5].startswith(
            "AC-108 Account has been temporarily blockd"
        )
        details = " ".join(widget_text(screen.query_one("#job-details", Static), " ").split())
        assert (
            "AC-108 Account has been temporarily blockd due to too many incorrect MFA attempts"
            in details
        )
        assert "block lifts at 09:45:00" in details  # the sandbox says so: 900 s


async def test_enter_opens_the_users_account_or_the_mfa_dialog(make_app) -> None:
    app = make_app(poll_interval=3600)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await sign_in(pilot)
        await open_account(pilot, "user_good")
        await pilot.press("b")
        await settle(pilot)
        await start_mfa_refresh_on(pilot, "user_mfa")
        await pilot.press("escape")  # not now
        await settle(pilot)
        screen = await show_jobs(pilot)
        assert [r[0] for r in rows(screen)] == ["user_mfa", "user_good"]
        await pilot.press("enter")  # user_mfa's job waits for MFA
        await settle(pilot)
        assert isinstance(app.screen, MfaDialog)
        await pilot.press("escape")
        await settle(pilot)
        await pilot.press("down", "enter")
        await settle(pilot)
        assert isinstance(app.screen, AccountScreen) and app.screen.user_id == "user_good"


async def start_mfa_refresh_on(pilot: Any, user_id: str) -> None:
    await pilot.press("escape")
    await settle(pilot)
    await open_account(pilot, user_id)
    await pilot.press("b")
    await settle(pilot)


async def test_clear_finished_and_filter_by_user_and_status(make_app, sandbox_app) -> None:
    app = make_app(poll_interval=3600)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await sign_in(pilot)
        await open_account(pilot, "user_good")
        await pilot.press("b")
        await settle(pilot)
        sandbox_app.state.clock.advance(5)
        await pilot.press("i")
        await settle(pilot)
        app.desk.poller.poll_now(force=True)
        await settle(pilot)
        await start_mfa_refresh_on(pilot, "user_mfa")
        await pilot.press("escape")
        await settle(pilot)
        screen = await show_jobs(pilot)
        assert len(rows(screen)) == 3
        await pilot.press("slash", *"mfa")
        await pilot.press("enter")
        await settle(pilot)
        assert [r[0] for r in rows(screen)] == ["user_mfa"]
        await pilot.press("slash")
        screen.query_one("#jobs-filter", Input).value = "good completed"
        await pilot.press("enter")
        await settle(pilot)
        assert [(r[0], r[2]) for r in rows(screen)] == [("user_good", "completed")]
        await pilot.press("slash", "escape")  # Escape in the filter clears it, stays here
        await settle(pilot)
        assert isinstance(app.screen, JobsScreen) and len(rows(screen)) == 3
        await pilot.press("c")  # clear finished
        await settle(pilot)
        assert sorted(r[2] for r in rows(screen)) == ["mfa required", "pending"]
        assert len(app.desk.tracker) == 2


async def test_quitting_with_unfinished_jobs_asks_first(make_app) -> None:
    app = make_app(poll_interval=3600)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await sign_in(pilot)
        await open_account(pilot, "user_good")
        await pilot.press("i")
        await settle(pilot)
        await pilot.press("ctrl+q")
        await settle(pilot)
        question = screen_text(app)
        assert "1 job is still running" in question
        # The embedded sandbox ends with the app: no next sign-in finds its jobs.
        detail = app.screen.detail
        assert "polls them again" not in detail and "the next run lists them as gone" in detail
        await pilot.press("escape")  # no: stay
        await settle(pilot)
        assert isinstance(app.screen, AccountScreen) and app.is_running
        await pilot.press("ctrl+q")
        await settle(pilot)
        await pilot.press("y")
        await settle(pilot)
    assert app.return_code == 0


async def test_signing_out_with_unfinished_jobs_asks_first(make_app) -> None:
    app = make_app(poll_interval=3600)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await sign_in(pilot)
        await open_account(pilot, "user_good")
        await pilot.press("i")
        await settle(pilot)
        await pilot.press("escape")
        await settle(pilot)
        await pilot.press("ctrl+o")
        await settle(pilot)
        assert "still running" in screen_text(app)
        # Signing out, the embedded sandbox stays: the next sign-in finds them.
        assert "the next sign-in on this service polls them again" in app.screen.detail
        await pilot.press("y")
        await settle(pilot)
        assert isinstance(app.screen, LoginScreen) and not app.desk.signed_in


async def test_quitting_with_nothing_running_does_not_ask(make_app) -> None:
    app = make_app(poll_interval=3600)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await sign_in(pilot)
        await pilot.press("ctrl+q")
        await settle(pilot)
    assert app.return_code == 0
