"""The app shell: logging, styles, help, command palette, badge."""

from __future__ import annotations

import logging

import pytest
from tui_helpers import (
    open_account,
    screen_line,
    screen_text,
    settle,
    sign_in,
    widget_text,
)

from accountdesk.tui.resources import styles_dir
from accountdesk.tui.screens.account import AccountScreen
from accountdesk.tui.screens.help import HelpScreen

pytestmark = pytest.mark.anyio


async def test_log_file_has_the_session_and_no_secret(make_app, app_dirs) -> None:
    app = make_app(log_level="debug")
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await sign_in(pilot, api_secret="wrong-secret-123")
        await sign_in(pilot, api_secret="sandbox_secret")
        await open_account(pilot, "user_good")
        await pilot.press("r")  # reveal: the full number is on screen, never in the log
        await settle(pilot)
        number = app.screen.account.account_number.get_secret_value()
        logging.getLogger("accountdesk.test").info("typed secret=%s", "wrong-secret-123")
        # A secret typed at sign-in is hidden even where nothing labels it a secret.
        logging.getLogger("accountdesk.test").info("echo of the field: %s", "wrong-secret-123")
    text = (app_dirs["log_dir"] / "accountdesk.log").read_text()
    assert "signed in with key sandbox_key" in text
    assert "AC-101 · 401" in text
    for secret in ("sandbox_secret", "wrong-secret-123", number):
        assert secret not in text
    # The handler is gone once the app has exited.
    handlers = logging.getLogger("accountdesk").handlers
    assert all(isinstance(handler, logging.NullHandler) for handler in handlers)


def test_styles_are_found_from_the_checkout() -> None:
    folder = styles_dir()
    from accountdesk.tui.app import AccountDeskApp
    from accountdesk.tui.screens import (
        account,
        error_log,
        help,
        identity,
        login,
        lookup,
    )

    for owner in (
        AccountDeskApp,
        login.LoginScreen,
        lookup.LookupScreen,
        account.AccountScreen,
        identity.IdentityScreen,
        error_log.ErrorLogScreen,
        help.HelpScreen,
    ):
        path = owner.CSS_PATH
        assert path.parent == folder and path.is_file(), owner


async def test_f1_shows_help_for_the_current_screen(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await sign_in(pilot)
        await open_account(pilot, "user_good")
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        keys = widget_text(app.screen.query_one("#help-keys"))
        assert "Show or mask the account and routing numbers" in keys
        assert "Start a balance refresh job" in keys
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, AccountScreen)


async def test_every_binding_has_an_id_and_is_in_the_palette(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await sign_in(pilot)
        await open_account(pilot, "user_good")
        screen = app.screen
        shown = [a.binding for a in screen.active_bindings.values() if a.binding.show]
        assert shown and all(binding.id for binding in shown)
        titles = {command.title for command in app.get_system_commands(screen)}
        for description in ("Refresh", "Reveal", "Identity", "Txns", "Jobs", "Errors", "Theme"):
            assert description in titles


async def test_palette_command_runs_the_screen_action(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await sign_in(pilot)
        await open_account(pilot, "user_good")
        screen = app.screen
        reveal = next(c for c in app.get_system_commands(screen) if c.title == "Reveal")
        await reveal.callback()
        assert screen.revealed


async def test_sign_out_returns_to_login(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await sign_in(pilot)
        await app.screen.run_action("sign_out")
        await settle(pilot)
        assert type(app.screen).__name__ == "LoginScreen"
        assert not app.desk.signed_in
        with pytest.raises(RuntimeError):
            app.desk.client  # noqa: B018


@pytest.mark.parametrize("size", [(80, 24), (60, 20), (120, 30)])
async def test_header_keeps_the_user_id_on_narrow_terminals(make_app, size) -> None:
    from accountdesk.tui.widgets.header import AppHeader

    app = make_app()
    async with app.run_test(size=size, notifications=True) as pilot:
        await sign_in(pilot)
        await open_account(pilot, "user_mfa_good")
        await pilot.press("v")
        await settle(pilot)
        # The unknown user's toasts (tall on a narrow screen) may cover the header: not its fault.
        app.clear_notifications()
        await pilot.pause()
        assert app.screen.query_one(AppHeader).region.y == 0
        text = screen_line(app, 0)
        assert "Identity · user_mfa_good" in text
        assert "SANDBOX" in text
        hint = app.screen.query_one("#header-hint")
        # The hint only shows when there is room for it beside the whole title;
        # before it gives way, its short form "F1 help" (the key bar counts on it).
        assert hint.display == (size[0] >= 80)
        assert ("^p commands · F1 help" in text) == (size[0] >= 100)
        if size[0] >= 80:
            assert "F1 help" in text and "sandbox_key" in text


async def test_header_ellipsises_the_title_as_a_last_resort(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(60, 20), notifications=True) as pilot:
        await sign_in(pilot)
        await open_account(pilot, "user_with_a_long_identifier_of_many_words")
        text = screen_line(app, 0)
        assert "Account · user_" in text and "…" in text
        assert "SANDBOX" in text


@pytest.mark.parametrize("size", [(80, 24), (100, 30)])
async def test_help_fits_and_shows_how_to_close_it(make_app, size) -> None:
    app = make_app()
    async with app.run_test(size=size, notifications=True) as pilot:
        await sign_in(pilot)
        await open_account(pilot, "user_good")
        await pilot.press("f1")
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen)
        text = screen_text(app)
        assert "Help · Account and balance" in text
        assert "Esc or F1 closes this help" in text
        dialog = app.screen.query_one("#help-dialog")
        assert dialog.region.height <= size[1]


async def test_help_titles_are_words_and_keys_are_the_bound_ones(make_app) -> None:
    from textual.screen import Screen

    from accountdesk.tui.screens.help import _title_of

    class ErrorLogScreen(Screen[None]):
        pass

    class MfaDialog(Screen[None]):
        pass

    assert _title_of(ErrorLogScreen()) == "Error log"
    assert _title_of(MfaDialog()) == "MFA"
    app = make_app()
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await sign_in(pilot)
        await app.screen.run_action("app.show_error_log")
        await settle(pilot)
        await pilot.press("f1")
        await settle(pilot)
        assert widget_text(app.screen.query_one("#help-title")).startswith("Help · Error log")
        general = screen_text(app)
        assert "j/F2 jobs" in general and "e/F3 error log" in general


async def test_screenshot_goes_to_the_data_dir_and_is_toasted(
    make_app, app_dirs, monkeypatch, tmp_path
) -> None:
    from tui_helpers import toasts

    # No ~/Downloads here: Textual's default folder would fail.
    monkeypatch.setenv("HOME", str(tmp_path / "home-without-downloads"))
    app = make_app()
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        assert any(c.title == "Screenshot" for c in app.get_system_commands(app.screen))
        await app.run_action("screenshot")
        await pilot.pause()
        folder = app_dirs["data_dir"] / "screenshots"
        saved = list(folder.glob("*.svg"))
        assert len(saved) == 1 and "rich-terminal" in saved[0].read_text()
        assert ("Screenshot saved", str(saved[0]), "information") in toasts(app)
