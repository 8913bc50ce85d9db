"""Error toasts, the error log screen and the support-ticket copy."""

from __future__ import annotations

import json
import os
import stat

import httpx
import pytest
from textual.widgets import DataTable, TextArea
from tui_helpers import (
    RecordingTransport,
    open_account,
    settle,
    sign_in,
    toasts,
    token_handler,
    widget_text,
)

from accountdesk.client import ApiError, MalformedResponseError, TransportError
from accountdesk.contract import ERRORS, UNLISTED_CODES
from accountdesk.contract.endpoints import IDENTITY_START, TOKEN
from accountdesk.core.errors.log import ErrorRecord, InternalError
from accountdesk.tui.screens.clipboard import ClipboardDialog
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
        advice = f"Next: {UNLISTED_CODES['AC-204'].next_step}"
        assert toasts(app) == [("AC-204 · 400", f"{hostile}\n{advice}", "error")]
        toast = app.screen.query_one("Toast")
        assert "[/x]" in widget_text(toast)
        await app.screen.run_action("app.show_error_log")
        await settle(pilot)
        table = app.screen.query_one(DataTable)
        assert table.row_count == 1
        # The cell holds the words as sent (it ends in "…" where the column is
        # narrower); the detail pane shows them whole.
        assert table.get_row_at(0)[-1].plain == hostile
        assert "No account [/x]" in widget_text(table)
        assert hostile in widget_text(app.screen.query_one("#error-detail"))


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


async def test_an_open_error_log_adds_new_errors_where_the_reader_left_it(make_app) -> None:
    # A flaky connection records an error per job polled (70 in a 5-second
    # drop of the soak's 100 jobs). Each one rebuilt the whole table and put
    # the cursor on the newest: 30 ms an error at the log's 1,000, and
    # whoever was reading an older error lost it.
    app = make_app()
    app.desk.error_log.limit = 5

    def fail(n: int) -> None:
        path = f"/jobs/user_good/job_{n}"
        error = TransportError("connect", f"refused {n}", method="GET", path=path)
        app.desk.listener.error_recorded(app.desk.record_error(error))

    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        for n in range(3):
            fail(n)
        await pilot.press("f3")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ErrorLogScreen)
        table = screen.query_one(DataTable)
        assert table.cursor_row == 2  # the newest, as it opens
        first_row = table.get_row_at(0)
        await pilot.press("up", "up")
        assert screen.selected_record() == app.desk.error_log.records[0]
        fail(3)
        await settle(pilot)
        # The new row at the bottom; the reader still on the error they chose.
        assert table.row_count == 4 and str(table.get_row_at(3)[2]) == "/jobs/user_good/job_3"
        kept = table.get_row_at(0)
        assert all(now is then for now, then in zip(kept, first_row, strict=True))  # not rebuilt
        assert screen.selected_record() == app.desk.error_log.records[0]
        assert "refused 0" in widget_text(screen.query_one("#error-detail"))
        # Past the log's limit the oldest go, from the table too, and the
        # reader's error with them: the cursor goes to the oldest left, and
        # the detail pane with it.
        fail(4)
        fail(5)
        await settle(pilot)
        assert screen.selected_record() == app.desk.error_log.records[0]
        assert "refused 1" in widget_text(screen.query_one("#error-detail"))
        for n in range(6, 8):
            fail(n)
        await settle(pilot)
        paths = [str(table.get_row_at(i)[2]) for i in range(table.row_count)]
        assert paths == [f"/jobs/user_good/job_{n}" for n in range(3, 8)]
        assert screen.selected_record() == app.desk.error_log.records[0]
        assert "refused 3" in widget_text(screen.query_one("#error-detail"))
        # On the newest row, the cursor follows what comes.
        await pilot.press("ctrl+end")
        fail(8)
        await settle(pilot)
        assert screen.selected_record() == app.desk.error_log.records[-1]
        assert "refused 8" in widget_text(screen.query_one("#error-detail"))
        # Many let go at once (the screen was under a dialog meanwhile): the
        # table is built again, the same rows as the log's.
        for n in range(9, 100):
            app.desk.record_error(TransportError("connect", f"refused {n}"))
        screen.show_records()
        await settle(pilot)
        messages = [str(table.get_row_at(i)[5]) for i in range(table.row_count)]
        assert messages == [f"refused {n}" for n in range(95, 100)]
        assert "refused 99" in widget_text(screen.query_one("#error-detail"))


# -- guidance, exports, curl and the clipboard fallback -------------------------------------


def _flat(text: str) -> str:
    return " ".join(text.split())


async def _error_log_with(pilot, *user_ids: str) -> ErrorLogScreen:
    """Sign in, open each user (each one an error), then the error log."""
    await sign_in(pilot)
    for user_id in user_ids:
        await open_account(pilot, user_id)
        await pilot.press("escape")
        await settle(pilot)
    pilot.app.clear_notifications()
    await pilot.press("f3")  # the lookup's input has focus: the letter would be typed
    await settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, ErrorLogScreen)
    return screen


async def test_the_detail_pane_says_what_the_error_means_and_what_to_do(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        screen = await _error_log_with(pilot, "user_fi_paused", "user_fi_down")
        detail = _flat(widget_text(screen.query_one("#error-detail")))
        spec = ERRORS["AC-104"]
        assert _flat(spec.meaning) in detail and _flat(spec.next_step) in detail
        await pilot.press("up")  # the AC-106 row: its own meaning, naming the balance read
        await pilot.pause()
        detail = _flat(widget_text(screen.query_one("#error-detail")))
        assert _flat(ERRORS["AC-106"].meaning) in detail and "/balance" in detail


def _sent_token(transport: RecordingTransport) -> str:
    """The bearer token the app really sent (what no copy may hold)."""
    [token] = {
        request.headers["authorization"].removeprefix("Bearer ")
        for request in transport.requests
        if "authorization" in request.headers
    }
    assert len(token) > 8
    return token


async def test_u_copies_the_request_as_curl_with_the_token_as_a_variable(
    make_app, sandbox_transport
) -> None:
    transport = RecordingTransport(sandbox_transport)
    app = make_app(transport=transport)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await _error_log_with(pilot, "user_fi_down")
        token = _sent_token(transport)
        await pilot.press("u")
        await pilot.pause()
        command = app.clipboard
        assert command.splitlines()[-1] == (
            "curl -sS -i -X GET http://127.0.0.1:8765/accounts/user_fi_down"
            ' -H "Authorization: Bearer $TOKEN"'
        )
        # The embedded sandbox has no URL: the command targets a served one and says so.
        assert "accountdesk sandbox --host 127.0.0.1 --port 8765" in command
        assert token not in command and "sandbox_secret" not in command
        title, message, _severity = toasts(app)[-1]
        assert title == "Copied" and "AC-104 · 400 as a curl command" in message


async def test_no_curl_for_an_error_that_sent_nothing(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await pilot.press("f3")
        await pilot.pause()
        app.desk.record_error(InternalError(RuntimeError("boom"), "worker"))
        app.screen.show_records()
        await pilot.pause()
        await pilot.press("u")
        await pilot.pause()
        title, message, severity = toasts(app)[-1]
        assert (title, severity) == ("Internal error", "warning")
        assert "nothing to replay" in message
        assert app.clipboard == ""


async def test_m_and_shift_j_save_the_log_as_markdown_and_json(
    make_app, app_dirs, sandbox_transport
) -> None:
    transport = RecordingTransport(sandbox_transport)
    app = make_app(transport=transport)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await _error_log_with(pilot, "user_fi_down", "user_manual")
        token = _sent_token(transport)
        await pilot.press("m")
        await pilot.press("J")
        await pilot.pause()
        exports = app_dirs["data_dir"] / "exports"
        markdown = exports / "errors-20261120-093000.md"
        document = exports / "errors-20261120-093000.json"
        assert toasts(app)[-2:] == [
            ("2 errors saved as Markdown", str(markdown), "information"),
            ("2 errors saved as JSON", str(document), "information"),
        ]
        for path in (markdown, document):
            assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
            assert token not in path.read_text()
        text = markdown.read_text()
        assert "## 1. AC-104 · 400" in text and "## 2. AC-105 · 405" in text
        assert _flat(ERRORS["AC-105"].next_step) in _flat(text)
        errors = json.loads(document.read_text())["errors"]
        assert [e["code"] for e in errors] == ["AC-104", "AC-105"]
        assert errors[0]["meaning"] == ERRORS["AC-104"].meaning


async def test_saving_an_empty_log_says_there_is_nothing(make_app, app_dirs) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await pilot.press("f3")
        await pilot.press("m")
        await pilot.pause()
        assert toasts(app)[-1][1] == "No errors to save."
        assert not (app_dirs["data_dir"] / "exports").exists()


async def test_where_osc52_cannot_work_the_text_opens_in_a_dialog_and_a_file(
    make_app, app_dirs
) -> None:
    app = make_app(clipboard="file")
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await _error_log_with(pilot, "user_fi_down")
        await pilot.press("c")
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, ClipboardDialog)
        saved = app_dirs["data_dir"] / "clipboard" / "ticket-20261120-093000.txt"
        shown = dialog.query_one(TextArea).text
        assert saved.read_text() == shown and stat.S_IMODE(os.stat(saved).st_mode) == 0o600
        assert shown.startswith("accountdesk error report: AC-104 · 400")
        assert f"Next step: {ERRORS['AC-104'].next_step}" in shown
        # The path on a line of its own (wrapped only where the dialog is narrower).
        path_text = widget_text(dialog.query_one("#clipboard-path"))
        assert str(saved) in "".join(path_text.split())
        assert 'clipboard = "file"' in _flat(widget_text(dialog.query_one("#clipboard-reason")))
        assert app.clipboard == ""  # nothing sent to a terminal that was said to ignore it
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ErrorLogScreen)
        # The curl command takes the same way, into its own file.
        await pilot.press("u")
        await settle(pilot)
        assert isinstance(app.screen, ClipboardDialog)
        curl = app_dirs["data_dir"] / "clipboard" / "curl-20261120-093000.sh"
        assert app.screen.query_one(TextArea).text == curl.read_text()
        await pilot.click("#clipboard-close")
        await pilot.pause()
        assert isinstance(app.screen, ErrorLogScreen)


async def test_auto_uses_the_dialog_inside_tmux_without_set_clipboard(
    make_app, monkeypatch
) -> None:
    from accountdesk.core import clipboard

    monkeypatch.setenv("TMUX", "/tmp/tmux-test/default,1,0")
    # What `tmux show-options -sv set-clipboard` answers by default.
    monkeypatch.setattr(clipboard, "_tmux_answer", lambda socket: "external")
    app = make_app(clipboard="auto")
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await _error_log_with(pilot, "user_fi_down")
        await pilot.press("c")
        await settle(pilot)
        assert isinstance(app.screen, ClipboardDialog)
        reason = _flat(widget_text(app.screen.query_one("#clipboard-reason")))
        assert "tmux" in reason and "set-clipboard on" in reason
