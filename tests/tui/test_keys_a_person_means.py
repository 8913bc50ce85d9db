"""Keys that do what a person means: Ctrl+L from anywhere, Tab into a list, one Escape,
a clear that clears what is shown, an MFA dialog that knows the user is blocked."""

from __future__ import annotations

from typing import Any

import pytest
from textual.widgets import Button, Input, OptionList
from tui_helpers import (
    answer_mfa,
    open_account,
    screen_line,
    screen_text,
    settle,
    sign_in,
    toasts,
)

from accountdesk.tui.screens.account import AccountScreen
from accountdesk.tui.screens.error_log import ErrorLogScreen
from accountdesk.tui.screens.jobs import JobsScreen
from accountdesk.tui.screens.lookup import LookupScreen
from accountdesk.tui.screens.mfa import MfaDialog
from accountdesk.tui.screens.transactions import TransactionsScreen

pytestmark = pytest.mark.anyio
SIZE = (100, 30)


async def _type(pilot: Any, text: str) -> None:
    for key in text:
        await pilot.press(key)


@pytest.mark.parametrize(
    "where",
    ["account", "view_transactions", "view_identity", "app.show_jobs", "app.show_error_log"],
)
async def test_ctrl_l_from_any_screen_is_the_user_id_field(make_app: Any, where: str) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await sign_in(pilot)
        await open_account(pilot, "user_good")
        if where != "account":
            await app.screen.run_action(where)
            await settle(pilot)
        await pilot.press("ctrl+l")
        await settle(pilot)
        assert isinstance(app.screen, LookupScreen)
        assert app.focused is app.screen.query_one("#user-id", Input)
        # The id typed goes into the field: no single-letter key fires on the way.
        await _type(pilot, "user_mfa")
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, AccountScreen) and app.screen.user_id == "user_mfa"
        assert not app.desk.error_log.records


async def test_ctrl_l_on_an_id_typed_wrong_types_the_next_one_over_it(make_app: Any) -> None:
    """Ctrl+L in the field already focused selects its text, as it does coming from elsewhere."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await sign_in(pilot)
        await _type(pilot, "../x")
        await pilot.press("enter")
        await settle(pilot)
        assert "'/' is not allowed" in screen_text(app)
        await pilot.press("ctrl+l")
        await _type(pilot, "user_mfa")
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, AccountScreen) and app.screen.user_id == "user_mfa"


async def test_ctrl_l_is_not_offered_before_sign_in_nor_over_a_dialog(make_app: Any) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+l")
        await settle(pilot)
        assert type(app.screen).__name__ == "LoginScreen"
        await sign_in(pilot)
        await open_account(pilot, "user_mfa")
        await app.screen.run_action("refresh_balance")
        await settle(pilot)
        assert isinstance(app.screen, MfaDialog)
        await pilot.press("ctrl+l")
        await settle(pilot)
        assert isinstance(app.screen, MfaDialog)  # a dialog is answered or closed first


async def test_tab_into_the_scenario_list_highlights_a_row_so_enter_opens_it(
    make_app: Any,
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await sign_in(pilot)
        scenarios = app.screen.query_one("#scenarios", OptionList)
        for _ in range(4):
            if app.focused is scenarios:
                break
            await pilot.press("tab")
            await settle(pilot)
        assert app.focused is scenarios
        assert scenarios.highlighted == 0
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, AccountScreen) and app.screen.user_id == "user_good"


async def test_after_a_refused_transactions_read_one_escape_leaves(make_app: Any) -> None:
    app = make_app()
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await sign_in(pilot)
        await open_account(pilot, "user_manual")
        await app.screen.run_action("view_transactions")
        await settle(pilot)
        assert isinstance(app.screen, TransactionsScreen)
        assert "AC-115" in screen_text(app)
        assert "esc Back" in screen_line(app, SIZE[1] - 1)
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, AccountScreen)


async def test_clear_done_with_a_filter_clears_only_what_is_shown(make_app: Any) -> None:
    app = make_app()
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await sign_in(pilot)
        await open_account(pilot, "user_good")
        for action in ("refresh_balance", "start_identity"):
            await app.screen.run_action(action)
            await settle(pilot)
        await app.desk.advance_sandbox_clock(60)
        app.desk.poller.poll_now(force=True)
        await settle(pilot)
        assert all(not job.is_pollable for job in app.desk.tracker.jobs)
        await app.screen.run_action("app.show_jobs")
        await settle(pilot)
        assert isinstance(app.screen, JobsScreen)
        app.clear_notifications()
        await pilot.press("slash")
        await _type(pilot, "identity")
        await pilot.press("enter")
        await settle(pilot)
        await pilot.press("c")
        await settle(pilot)
        kinds = [str(job.kind) for job in app.desk.tracker.jobs]
        assert kinds == ["balance_refresh"]  # the one the filter hid is kept
        ((title, message, _),) = toasts(app)
        assert title and "1 finished job" in message and "1 not shown" in message


async def test_the_mfa_dialog_of_a_blocked_user_says_so_and_the_service_decides(
    make_app: Any,
) -> None:
    # No poll between the answers and the check: polled, the waiting job of a
    # blocked user fails (AC-108), and how soon depends on the machine's load.
    app = make_app(poll_interval=3600)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await sign_in(pilot)
        await open_account(pilot, "user_mfa")
        await app.screen.run_action("refresh_balance")
        await settle(pilot)
        await pilot.press("escape")  # later
        await settle(pilot)
        await app.screen.run_action("start_identity")
        await settle(pilot)
        for _ in range(3):  # three wrong answers: the user is blocked (AC-108)
            await answer_mfa(pilot, "0000")
        assert not isinstance(app.screen, MfaDialog)
        waiting = next(job for job in app.desk.tracker.jobs if job.needs_mfa)
        assert app.open_mfa_dialog(waiting.key)
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, MfaDialog)
        text = " ".join(screen_text(app).split())
        assert "Blocked until 09:45:00 UTC" in text and "Attempts left: 3" not in text
        assert "AC-108" in text and "the service decides" in text
        # The block is what the app learnt: a hint. The answer goes, and the
        # service's answer (this job failed with the block) closes the dialog.
        assert not dialog.query_one("#mfa-submit", Button).disabled
        assert not dialog.query_one("#mfa-answer", Input).disabled
        await answer_mfa(pilot, "1234")
        assert not isinstance(app.screen, MfaDialog)
        assert waiting.status == "failed" and waiting.last_error_code == "AC-108"


async def test_single_letter_keys_do_not_fire_from_the_error_log_after_ctrl_l(
    make_app: Any,
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await sign_in(pilot)
        await open_account(pilot, "nobody")
        await app.screen.run_action("app.show_error_log")
        await settle(pilot)
        assert isinstance(app.screen, ErrorLogScreen)
        await pilot.press("ctrl+l")
        await _type(pilot, "user_mu")  # u would copy curl, m would save Markdown
        await settle(pilot)
        assert isinstance(app.screen, LookupScreen)
        assert app.screen.query_one("#user-id", Input).value == "user_mu"
        assert not list(app.desk.dirs.data_dir.rglob("*.md"))
