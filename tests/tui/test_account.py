"""Account screen: masked numbers, reveal, jobs started, identity, conflicts."""

from __future__ import annotations

import pytest
from tui_helpers import (
    open_account,
    screen_text,
    settle,
    sign_in,
    toast_titles,
    toasts,
    widget_text,
)

from accountdesk.contract import ERRORS
from accountdesk.contract.endpoints import IDENTITY_START
from accountdesk.sandbox.scenarios import SCENARIO_USERS
from accountdesk.tui.screens.account import AccountScreen
from accountdesk.tui.screens.identity import IdentityScreen

pytestmark = pytest.mark.anyio


async def _account_text(pilot) -> str:
    await pilot.pause()
    screen = pilot.app.screen
    panel = screen.query_one("#account-fields")
    return widget_text(panel, " ")


async def test_numbers_are_masked_until_revealed(make_app) -> None:
    profile = SCENARIO_USERS["user_good"].account
    full_number = profile.account_number
    app = make_app()
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await sign_in(pilot)
        await open_account(pilot, "user_good")
        text = await _account_text(pilot)
        assert full_number not in text
        assert full_number[-4:] in text
        assert profile.institution_name in text
        await pilot.press("r")
        text = await _account_text(pilot)
        assert full_number in text
        assert profile.routing_number in text
        await pilot.press("r")
        assert full_number not in await _account_text(pilot)


async def test_reveal_button_and_key_say_hide_while_numbers_show(make_app) -> None:
    from textual.widgets import Button

    app = make_app()
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await sign_in(pilot)
        await open_account(pilot, "user_good")
        screen = app.screen
        button = screen.query_one("#do-reveal_numbers", Button)

        def key_description() -> str:
            return next(
                a.binding.description
                for a in screen.active_bindings.values()
                if a.binding.id == "reveal_numbers"
            )

        assert str(button.label) == "r Reveal numbers" and key_description() == "Reveal"
        await pilot.press("r")
        await pilot.pause()
        assert str(button.label) == "r Hide numbers" and key_description() == "Hide"
        await pilot.press("r")
        await pilot.pause()
        assert str(button.label) == "r Reveal numbers" and key_description() == "Reveal"
        # Another account screen starts masked, with its own binding.
        await pilot.press("r", "escape")
        await open_account(pilot, "user_good")
        assert app.screen is not screen
        assert str(app.screen.query_one("#do-reveal_numbers", Button).label) == "r Reveal numbers"


async def test_balance_shows_amounts_currency_and_read_time(make_app, frozen_now) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await sign_in(pilot)
        await open_account(pilot, "user_good")
        screen = app.screen
        panel = screen.query_one("#balance-fields")
        text = widget_text(panel, " ")
        balance = screen.balance
        assert f"{balance.available:,.2f} USD" in text
        assert frozen_now.strftime("%Y-%m-%d %H:%M:%S") in text
        assert screen.balance_read_at == frozen_now


async def test_manual_user_shows_account_and_a_balance_placeholder(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await sign_in(pilot)
        await open_account(pilot, "user_manual")
        assert "Manually linked" in await _account_text(pilot)
        panel = app.screen.query_one("#balance-fields")
        text = widget_text(panel, " ")
        assert "AC-105" in text and "manually linked" in text


async def test_refresh_balance_tracks_a_job(make_app) -> None:
    app = make_app()
    tracked: list[tuple[str, str]] = []
    app.desk.track_job = lambda job, user_id: tracked.append((job.kind, user_id))
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await sign_in(pilot)
        await open_account(pilot, "user_good")
        await pilot.press("b")
        await settle(pilot)
        await pilot.press("t")
        await settle(pilot)
        assert tracked == [("balance_refresh", "user_good"), ("transactions", "user_good")]
        assert toast_titles(app) == ["Job started", "Job started"]


async def test_manual_user_refresh_is_ac107(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await sign_in(pilot)
        await open_account(pilot, "user_manual")
        await pilot.press("b")
        await settle(pilot)
        assert toast_titles(app)[-1] == "AC-107 · 405"


async def test_identity_started_twice_is_ac112(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await sign_in(pilot)
        await open_account(pilot, "user_good")
        await pilot.press("i")
        await settle(pilot)
        await pilot.press("i")
        await settle(pilot)
        assert toast_titles(app) == ["Job started", "AC-112 · 409"]
        # The service's words, then the catalogue's next step.
        assert toasts(app)[-1][1].splitlines() == [
            ERRORS["AC-112"].message_for(IDENTITY_START),
            f"Next: {ERRORS['AC-112'].next_step}",
        ]
        assert toasts(app)[-1][2] == "warning"


async def test_view_identity_shows_the_records(make_app) -> None:
    profile = SCENARIO_USERS["user_good"].account
    app = make_app()
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await sign_in(pilot)
        await open_account(pilot, "user_good")
        await pilot.press("v")
        await settle(pilot)
        assert isinstance(app.screen, IdentityScreen)
        identity = app.screen.identity
        assert identity is not None and identity.names
        body = app.screen.query_one("#identity-emails")
        text = widget_text(body, " ")
        assert identity.emails[0] in text
        assert profile is not None
        await pilot.press("escape")
        assert isinstance(app.screen, AccountScreen)


async def test_identity_mismatch_is_ac113_on_view(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await sign_in(pilot)
        await open_account(pilot, "user_identity_mismatch")
        assert toasts(app) == []
        await pilot.press("v")
        await settle(pilot)
        assert toast_titles(app) == ["AC-113 · 400"]
        app.clear_notifications()
        await pilot.pause()
        # Said once, not once per section.
        body = screen_text(app)
        assert body.count("Identity not available (AC-113)") == 1


async def test_view_transactions_opens_the_transactions_screen(make_app) -> None:
    from accountdesk.tui.screens.transactions import TransactionsScreen

    app = make_app()
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await sign_in(pilot)
        await open_account(pilot, "user_good")
        await pilot.press("x")
        await settle(pilot)
        assert isinstance(app.screen, TransactionsScreen)


async def test_action_buttons_work_with_the_mouse(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await sign_in(pilot)
        await open_account(pilot, "user_good")
        screen = app.screen
        await pilot.click("#do-reveal_numbers")
        await pilot.pause()
        assert screen.revealed
        await pilot.click("#do-show_jobs")
        await settle(pilot)
        assert type(app.screen).__name__ == "JobsScreen"
