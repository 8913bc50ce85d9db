"""The dashboard against a hostile service on a real loopback socket (``tests/hostile.py``).

Each test drives the real app through Pilot into one fault: escape sequences
in every text the service sends, an escape in an error message, huge
numbers, a dripping answer, a gzip bomb, a 5,000-character job id. The app
must show something clear, stay responsive, and never pass a control
character on: not to the screen, a toast, the error log, a CSV export, the
log file or a screenshot.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Static
from tui_helpers import open_account, screen_text, settle, sign_in, toasts, widget_text

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from hostile import BANK_DOWN, HostileServer

pytestmark = [pytest.mark.anyio, pytest.mark.loopback]

#: What must never reach the terminal: ESC, C1 CSI, BEL, the bidi override.
FORBIDDEN = ("\x1b", "\x9b", "\x07", "\u202e")


def assert_inert(text: str, where: str) -> None:
    found = [repr(ch) for ch in FORBIDDEN if ch in text]
    assert not found, f"{where} holds {found}"


@pytest.fixture
def hostile() -> Iterator[Any]:
    servers: list[Any] = []

    def start(mode: str = "valid", **options: Any) -> str:
        server = HostileServer(mode, **options)
        servers.append(server)
        return server.__enter__()

    yield start
    for server in servers:
        server.__exit__(None, None, None)


def live_app(make_app: Any, base_url: str, **options: Any) -> Any:
    app = make_app(sandbox=False, base_url=base_url, transport=None, poll_interval=3600, **options)
    app.NOTIFICATION_TIMEOUT = 600
    return app


async def test_escape_sequences_are_inert_on_every_screen_and_file(
    make_app, hostile, app_dirs
) -> None:
    app = live_app(make_app, hostile("escapes"), log_level="debug")
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await sign_in(pilot, api_key="k", api_secret="hostile-secret")
        assert_inert(screen_text(app), "the lookup screen (scenario list)")
        await open_account(pilot, "user_x")
        shown = screen_text(app)
        assert_inert(shown, "the account screen")
        assert "␛" in shown and "‹U+202E›" in shown  # made visible, not dropped
        for action in ("view_identity", "view_transactions"):
            await app.screen.run_action(action)
            await settle(pilot)
            assert_inert(screen_text(app), action)
            if action == "view_transactions":
                await pilot.press("s")  # CSV export of the rows shown
                await settle(pilot)
            await pilot.press("escape")
            await settle(pilot)
        await pilot.press("b")  # the job fails with an escaped message when polled
        await settle(pilot)
        app.desk.poller.poll_now(force=True)
        await settle(pilot)
        for title, message, _severity in toasts(app):
            assert_inert(title + message, f"the toast {title!r}")
        await app.run_action("show_jobs")
        await settle(pilot)
        assert_inert(screen_text(app), "the jobs screen")
        assert_inert(app.export_screenshot(), "a screenshot")
    [csv] = (app_dirs["data_dir"] / "exports").glob("transactions-*.csv")
    assert_inert(csv.read_text(), "the CSV export")
    assert_inert((app_dirs["log_dir"] / "accountdesk.log").read_text(), "the log file")


async def test_an_escape_in_an_error_message_is_inert_in_toast_and_error_log(
    make_app, hostile, app_dirs
) -> None:
    app = live_app(make_app, hostile("escape_error"))
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await sign_in(pilot, api_key="k", api_secret="hostile-secret")
        await open_account(pilot, "user_x")
        [(title, message, _severity)] = toasts(app)
        assert title.startswith("AC-204") and "␛" in message
        assert_inert(message, "the toast")
        await app.run_action("show_error_log")
        await settle(pilot)
        assert_inert(screen_text(app), "the error log")
        await pilot.press("m")  # the log as Markdown, for a ticket
        await settle(pilot)
    [markdown] = (app_dirs["data_dir"] / "exports").glob("errors-*.md")
    assert_inert(markdown.read_text(), "the Markdown export")
    assert_inert((app_dirs["log_dir"] / "accountdesk.log").read_text(), "the log file")


async def test_a_huge_balance_is_a_clear_refusal_not_a_frozen_screen(make_app, hostile) -> None:
    app = live_app(make_app, hostile("huge_numbers"))
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await sign_in(pilot, api_key="k", api_secret="hostile-secret")
        started = time.monotonic()
        await open_account(pilot, "user_x")
        balance = widget_text(app.screen.query_one("#balance-fields", Static), " ")
        assert "out of range" in balance  # said, with the field it was in
        assert any(title.startswith("Unexpected response") for title, _m, _s in toasts(app))
        assert time.monotonic() - started < 20  # no 3-million-digit number was drawn


async def test_a_dripping_answer_ends_in_a_visible_time_out(make_app, hostile) -> None:
    url = hostile("drip", drip_interval=0.2)
    app = live_app(make_app, url, client_options={"attempt_timeout": 1.0, "call_timeout": 3.0})
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await sign_in(pilot, api_key="k", api_secret="hostile-secret")
        started = time.monotonic()
        await open_account(pilot, "user_x")
        waited = time.monotonic() - started
        account = widget_text(app.screen.query_one("#account-fields", Static), " ")
        assert "Loading" not in account and "Not available" in account
        assert any("answer in time" in title for title, _m, _s in toasts(app))
        assert "no answer since" in screen_text(app).splitlines()[0]
        assert waited < 3.0 * 3  # the call's deadline, with room for a loaded machine


async def test_a_gzip_bomb_is_refused_past_the_size_cap(make_app, hostile) -> None:
    app = live_app(make_app, hostile("gzip_bomb", bomb_bytes=64 * 2**20), max_response_mb=8)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await sign_in(pilot, api_key="k", api_secret="hostile-secret")
        await open_account(pilot, "user_x")
        [(title, message, _severity), *_] = toasts(app)
        assert title.startswith("Unexpected response") and "8 MiB" in message


async def test_a_5000_character_job_id_does_not_flood_the_jobs_screen(make_app, hostile) -> None:
    app = live_app(make_app, hostile("long_job_id"))
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await sign_in(pilot, api_key="k", api_secret="hostile-secret")
        await open_account(pilot, "user_x")
        await pilot.press("b")
        await settle(pilot)
        assert any("job_id" in message for _t, message, _s in toasts(app))
        assert len(app.desk.tracker) == 0  # refused at the boundary, never tracked
        assert "j" * 200 not in screen_text(app)


@pytest.mark.parametrize("mode", ["error_200", "empty_200"])
async def test_a_transactions_answer_of_200_without_its_list_is_a_failure_not_an_empty_list(
    make_app, hostile, mode
) -> None:
    from accountdesk.tui.screens.transactions import TransactionsScreen

    app = live_app(make_app, hostile(paths={"/accounts/user_x/transactions": mode}))
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await sign_in(pilot, api_key="k", api_secret="hostile-secret")
        await open_account(pilot, "user_x")
        await pilot.press("x")
        await settle(pilot)
        assert isinstance(app.screen, TransactionsScreen)
        shown = screen_text(app)
        assert "No transactions" not in shown
        said = widget_text(app.screen.query_one("#transactions-message", Static), " ")
        if mode == "error_200":
            assert "Could not read transactions (AC-104)" in said and BANK_DOWN[:30] in said
        else:
            assert "Could not read transactions" in said and "missing" in said


async def test_a_read_past_the_row_bound_keeps_its_rows_and_says_why_it_stopped(
    make_app, hostile
) -> None:
    from accountdesk.tui.screens.transactions import TransactionsScreen

    # 1 MiB: at most 8,192 rows (one per 128 bytes); 20,000 tiny rows are ~800 KB.
    app = live_app(make_app, hostile("tiny_rows", tiny_rows=20_000), max_response_mb=1)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await sign_in(pilot, api_key="k", api_secret="hostile-secret")
        await open_account(pilot, "user_x")
        await pilot.press("x")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, TransactionsScreen) and screen.view is not None
        assert len(screen.view.data) == 8_192
        said = " ".join(widget_text(screen.query_one("#transactions-message", Static), " ").split())
        assert "max_response_rows (8,192)" in said and "rows before are kept" in said
        count = widget_text(screen.query_one("#transactions-count", Static), " ")
        assert "the read stopped: not the whole list" in count
