"""Login screen: sign in on the sandbox, refused credentials, unreachable service."""

from __future__ import annotations

import httpx
import pytest
from textual.widgets import Input
from tui_helpers import RecordingTransport, settle, sign_in, toasts

from accountdesk.contract import ERRORS
from accountdesk.contract.endpoints import TOKEN
from accountdesk.tui.screens.login import LoginScreen
from accountdesk.tui.screens.lookup import LookupScreen

pytestmark = pytest.mark.anyio


async def test_sandbox_credentials_are_prefilled_and_sign_in(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        screen = app.screen
        assert isinstance(screen, LoginScreen)
        assert screen.query_one("#api-key", Input).value == "sandbox_key"
        assert screen.query_one("#api-secret", Input).password is True
        assert str(app.screen.query_one("#service-badge").render()).strip() == "SANDBOX"
        await sign_in(pilot)
        assert isinstance(app.screen, LookupScreen)
        assert app.desk.signed_in
        assert app.desk.signed_in_as == "sandbox_key"


async def test_enter_in_a_field_signs_in(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        app.screen.query_one("#api-secret", Input).focus()
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, LookupScreen)


async def test_wrong_secret_toasts_ac101_and_keeps_what_was_typed(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await sign_in(pilot, api_key="sandbox_key", api_secret="not-the-secret")
        assert isinstance(app.screen, LoginScreen)
        refused = f"{ERRORS['AC-101'].message_for(TOKEN)}\nNext: {ERRORS['AC-101'].next_step}"
        assert ("AC-101 · 401", refused, "error") in toasts(app)
        assert app.screen.query_one("#api-key", Input).value == "sandbox_key"
        assert app.screen.query_one("#api-secret", Input).value == "not-the-secret"
        assert not app.screen.query_one("#sign-in").disabled
        assert not app.desk.signed_in


def _refusing_transport() -> httpx.MockTransport:
    def refuse(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("connection refused", request=request)

    return httpx.MockTransport(refuse)


async def test_unreachable_service_is_a_connection_toast_not_an_ac_code(make_app) -> None:
    app = make_app(
        transport=_refusing_transport(), sandbox=False, base_url="https://api.bank.example"
    )
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await settle(pilot)
        # No answer, so not known: neither SANDBOX nor LIVE.
        assert "? api.bank.example" in str(app.screen.query_one("#service-badge").render())
        await sign_in(pilot, api_key="live_key", api_secret="live_secret")
        (title, _message, severity), *_ = toasts(app)
        assert not title.startswith("AC-")
        assert "connect" in title.lower()
        assert severity == "error"
        assert isinstance(app.screen, LoginScreen)
        assert app.screen.query_one("#api-secret", Input).value == "live_secret"
        assert app.desk.error_log.records[0].code is None


async def test_live_base_url_can_be_edited_before_sign_in(make_app) -> None:
    app = make_app(
        transport=_refusing_transport(), sandbox=False, base_url="https://api.bank.example"
    )
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        app.screen.query_one("#base-url", Input).value = "https://OTHER.example/v1/"
        await sign_in(pilot, api_key="k", api_secret="s")
        assert app.desk.service_url == "https://other.example/v1"
        assert app.desk.service_key == "https://other.example/v1"
        assert "? other.example" in str(app.screen.query_one("#service-badge").render())
        app.screen.query_one("#base-url", Input).value = "not a url"
        await sign_in(pilot)
        assert toasts(app)[-1][0] == "Invalid base URL"


async def test_a_sandbox_that_fails_to_start_is_a_toast_not_a_hang(make_app, monkeypatch) -> None:
    import accountdesk.core.connection as connection

    def broken() -> None:
        raise ImportError("No module named 'fastapi'")

    monkeypatch.setattr(connection, "build_embedded_transport", broken)
    app = make_app(transport=None)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await sign_in(pilot)
        # An internal error: one toast that says where the details are, the
        # traceback in the log, and the button back for another try.
        title, message, _severity = toasts(app)[-1]
        assert title == "Internal error" and "details are in the log" in message
        assert not app.screen.query_one("#sign-in").disabled
        assert "ImportError" in app.desk.error_log.records[-1].kind


async def test_default_embedded_sandbox_is_built_on_demand(make_app) -> None:
    app = make_app(transport=None)  # what `accountdesk` does with nothing configured
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await sign_in(pilot)
        assert isinstance(app.screen, LookupScreen)
        assert app.desk.service_key == "sandbox"


@pytest.mark.parametrize(
    "typed",
    ["http://127.0.0.1:9zz", "http://127.0.0.1:99999", "https://user:pw@h.example", "ftp://h"],
)
async def test_a_url_the_client_would_refuse_is_refused_before_the_badge_changes(
    make_app, typed
) -> None:
    app = make_app(
        transport=_refusing_transport(), sandbox=False, base_url="https://api.bank.example"
    )
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        field = app.screen.query_one("#base-url", Input)
        field.value = typed
        await sign_in(pilot, api_key="k", api_secret="s")
        assert toasts(app)[-1][0] == "Invalid base URL"
        problem = app.screen.query_one("#base-url-problem")
        assert problem.display and str(problem.render()).strip()
        assert field.value == typed  # kept as typed, to be corrected
        assert app.desk.service_url == "https://api.bank.example"
        assert "? api.bank.example" in str(app.screen.query_one("#service-badge").render())
        field.value = "https://api.bank.example"
        await pilot.pause()
        assert not problem.display


async def test_remember_says_what_goes_where_on_a_live_service(make_app, app_dirs) -> None:
    import tomllib

    from textual.widgets import Checkbox

    app = make_app(sandbox=False, base_url="https://api.bank.example")
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        checkbox = app.screen.query_one("#remember-secret", Checkbox)
        assert checkbox.value is False
        checkbox.value = True
        await pilot.pause()
        warning = str(app.screen.query_one("#remember-warning").render())
        assert "URL and key" in warning and "not kept" in warning  # no keyring in tests
        await sign_in(pilot, api_key="sandbox_key", api_secret="sandbox_secret")
    saved = tomllib.loads(app_dirs["config_path"].read_text())
    assert saved["base_url"] == "https://api.bank.example" and "api_secret" not in saved


async def test_focus_lands_on_the_first_empty_field_and_nothing_is_selected(make_app) -> None:
    # What a person does after `accountdesk --base-url URL`: type key, Tab, secret, Enter.
    app = make_app(
        sandbox=False, base_url="https://api.bank.example", transport=_refusing_transport()
    )
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        screen = app.screen
        url = screen.query_one("#base-url", Input)
        assert screen.focused is screen.query_one("#api-key", Input)
        assert url.selected_text == ""
        await pilot.press(*"live_key", "tab", *"live-secret")
        await pilot.pause()
        assert url.value == "https://api.bank.example"
        assert screen.query_one("#api-key", Input).value == "live_key"
        assert screen.query_one("#api-secret", Input).value == "live-secret"


async def test_a_prefilled_field_keeps_its_text_when_focused(make_app) -> None:
    app = make_app(sandbox=False, base_url="https://api.bank.example", api_key="k", api_secret="s")
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        key = app.screen.query_one("#api-key", Input)
        key.focus()
        await pilot.pause()
        assert key.selected_text == ""
        await pilot.press("x")
        assert key.value == "kx"  # typed at the end, not over a selection


async def test_empty_fields_are_checked_before_anything_is_sent(
    make_app, sandbox_transport
) -> None:
    recording = RecordingTransport(sandbox_transport)
    app = make_app(transport=recording)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await sign_in(pilot, api_key="", api_secret="")
        assert recording.requests == []
        assert isinstance(app.screen, LoginScreen)
        status = str(app.screen.query_one("#login-status").render())
        assert "API key" in status
        assert app.screen.focused is app.screen.query_one("#api-key", Input)


async def test_the_secret_can_be_shown_and_hidden(make_app) -> None:
    from textual.widgets import Button

    app = make_app()
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        secret = app.screen.query_one("#api-secret", Input)
        assert secret.password
        await pilot.press("ctrl+t")
        assert not secret.password
        assert str(app.screen.query_one("#toggle-secret", Button).label) == "Hide"
        await pilot.click("#toggle-secret")
        assert secret.password
