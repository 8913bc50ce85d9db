"""Error toasts, the error log screen and the support-ticket copy."""

from __future__ import annotations

import httpx
import pytest
from textual.widgets import DataTable
from tui_helpers import (
    open_account,
    settle,
    sign_in,
    toasts,
    token_handler,
    widget_text,
)

from accountdesk.client import ApiError, MalformedResponseError, TransportError
from accountdesk.contract import ERRORS
from accountdesk.contract.endpoints import IDENTITY_START, TOKEN
from accountdesk.core.errors import ErrorRecord
from accountdesk.tui.screens.error_log import ErrorLogScreen

pytestmark = pytest.mark.anyio


def _error_envelope(code: str, message: str, status: int):
    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(status, json={"error": {"code": code, "message": message}})

    return token_handler(answer)


async def test_markup_in_a_service_message_renders_verbatim(make_app) -> None:
    hostile = "No account [/x] information [b]available[/b]"
    app = make_app(transport=httpx.MockTransport(_error_envelope("AC-204", hostile, 400)))
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await sign_in(pilot)
        await open_account(pilot, "user_good")
        assert toasts(app) == [("AC-204 · 400", hostile, "error")]
        toast = app.screen.query_one("Toast")
        assert "[/x]" in widget_text(toast)
        await app.screen.run_action("app.show_error_log")
        await settle(pilot)
        table = app.screen.query_one(DataTable)
        assert table.row_count == 1
        assert hostile in widget_text(table)


async def test_html_from_a_proxy_is_an_unexpected_response(make_app) -> None:
    def proxy(request: httpx.Request) -> httpx.Response:
        return httpx.Response(502, text="<html><body>Bad gateway</body></html>")

    app = make_app(transport=httpx.MockTransport(token_handler(proxy)))
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await sign_in(pilot)
        await open_account(pilot, "user_good")
        ((title, _message, severity),) = toasts(app)
        assert title == "Unexpected response · 502"
        assert severity == "error"
        assert app.desk.error_log.records[0].code is None


def test_records_take_titles_from_the_error_kind(frozen_now) -> None:
    api = ErrorRecord.from_error(
        ApiError(
            409,
            "AC-112",
            ERRORS["AC-112"].message_for(IDENTITY_START),
            method="POST",
            path="/accounts/u/identity",
        ),
        frozen_now,
    )
    assert (api.title, api.status, api.code, api.severity) == (
        "AC-112 · 409",
        409,
        "AC-112",
        "warning",
    )
    transport = ErrorRecord.from_error(TransportError("connect", "refused"), frozen_now)
    assert not transport.title.startswith("AC") and transport.code is None
    malformed = ErrorRecord.from_error(
        MalformedResponseError(None, "", problem="not JSON"), frozen_now
    )
    assert malformed.title == "Unexpected response"


async def test_error_log_lists_the_session_and_copies_a_ticket(make_app, frozen_now) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await sign_in(pilot, api_secret="wrong")
        await sign_in(pilot, api_secret="sandbox_secret")
        await open_account(pilot, "user_fi_down")
        await pilot.press("e")
        await settle(pilot)
        assert isinstance(app.screen, ErrorLogScreen)
        table = app.screen.query_one(DataTable)
        assert table.row_count == 2
        rows = [table.get_row_at(i) for i in range(2)]
        assert [str(cell) for cell in rows[0]] == [
            "09:30:00",
            "POST",
            "/token",
            "401",
            "AC-101",
            ERRORS["AC-101"].message_for(TOKEN),
        ]
        assert [str(cell) for cell in rows[1]][1:5] == [
            "GET",
            "/accounts/user_fi_down",
            "400",
            "AC-104",
        ]
        assert table.cursor_row == 1  # newest selected
        await pilot.press("c")
        await pilot.pause()
        ticket = app.clipboard
        assert "AC-104" in ticket and "GET /accounts/user_fi_down" in ticket
        assert frozen_now.isoformat() in ticket
        assert "sandbox_secret" not in ticket
        await pilot.press("escape")
        assert not isinstance(app.screen, ErrorLogScreen)


async def test_empty_error_log_says_so(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await pilot.press("f3")
        await pilot.pause()
        assert isinstance(app.screen, ErrorLogScreen)
        assert "No errors" in widget_text(app.screen.query_one("#error-log-empty"))
        await pilot.press("c")
        await pilot.pause()
        assert toasts(app)[-1][1] == "No error selected."


async def test_open_error_log_shows_new_errors(make_app, frozen_now) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await pilot.press("f3")
        await pilot.pause()
        # What a failed poll does: the desk records it and tells the app.
        error = TransportError(
            "timeout", "GET /accounts/x timed out", method="GET", path="/accounts/x"
        )
        app.desk.listener.error_recorded(app.desk.record_error(error))
        await pilot.pause()
        table = app.screen.query_one(DataTable)
        assert table.row_count == 1
        assert "timed out" in widget_text(app.screen.query_one("#error-detail"))
