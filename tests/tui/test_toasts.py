"""Toasts never cover the service badge: below the header, three at most, repeats counted."""

from __future__ import annotations

import pytest
from tui_helpers import screen_line, settle, sign_in, toasts

pytestmark = pytest.mark.anyio


async def test_five_failed_sign_ins_leave_the_live_badge_whole(make_app) -> None:
    import httpx

    def refuse(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("connection refused", request=request)

    app = make_app(
        sandbox=False, base_url="http://127.0.0.1:9", transport=httpx.MockTransport(refuse)
    )
    app.NOTIFICATION_TIMEOUT = 600
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        for n in range(5):
            await sign_in(pilot, api_key="k", api_secret=f"s{n}")
        await settle(pilot)
        assert "? 127.0.0.1:9" in screen_line(app, 0)  # no answer: not known
        shown = toasts(app)
        assert len(shown) == 1  # five identical failures, one toast
        assert shown[0][0].endswith("×5")


async def test_at_most_three_toasts_and_none_on_the_header_row(make_app) -> None:
    app = make_app()
    app.NOTIFICATION_TIMEOUT = 600
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        for n in range(5):
            app.notify(f"message {n}", title=f"Title {n}")
        await settle(pilot)
        assert [title for title, _m, _s in toasts(app)] == ["Title 2", "Title 3", "Title 4"]
        assert "SANDBOX" in screen_line(app, 0)
        toast_rows = [y for y in range(24) if "Title" in screen_line(app, y)]
        assert toast_rows and min(toast_rows) > 0


async def test_a_toast_shown_over_a_dialog_is_drawn_once_when_it_closes(make_app) -> None:
    # The new-user trial saw "Job started" twice after answering MFA: the toast
    # drawn on the dialog came back on the account screen beside its redraw.
    from tui_helpers import answer_mfa, start_mfa_refresh

    app = make_app()
    app.NOTIFICATION_TIMEOUT = 600
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await start_mfa_refresh(pilot)
        await answer_mfa(pilot, "1234")
        await settle(pilot)
        drawn = [toast._notification.message for toast in app.screen.query("Toast")]
        assert sorted(drawn) == sorted(message for _, message, _ in toasts(app))
        assert len(drawn) == len(set(drawn)) == 2


def _drawn_toasts(app) -> list[str]:  # type: ignore[no-untyped-def]
    """The titles of the toasts drawn on any screen of the stack."""
    return [
        str(toast._notification.title)
        for screen in app.screen_stack
        for toast in screen.query("Toast")
    ]


async def test_no_toast_covers_a_dialog_and_they_show_when_it_closes(make_app) -> None:  # type: ignore[no-untyped-def]
    from tui_helpers import start_mfa_refresh

    from accountdesk.tui.screens.mfa import MfaDialog

    app = make_app()
    app.NOTIFICATION_TIMEOUT = 600
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await start_mfa_refresh(pilot)  # "Job started", then the dialog opens by itself
        assert isinstance(app.screen, MfaDialog)
        app.notify("while the dialog is open", title="Later")
        await settle(pilot)
        assert _drawn_toasts(app) == []
        question = "Enter the 4-digit code"
        assert any(question in screen_line(app, y) for y in range(24))
        await pilot.press("escape")
        await settle(pilot)
        assert sorted(_drawn_toasts(app)) == ["Job started", "Later"]


async def test_toasts_stand_at_the_bottom_clear_of_the_balance_panel(make_app) -> None:  # type: ignore[no-untyped-def]
    from tui_helpers import open_account

    app = make_app()
    app.NOTIFICATION_TIMEOUT = 600
    async with app.run_test(size=(120, 30), notifications=True) as pilot:
        await sign_in(pilot)
        await open_account(pilot, "user_good")
        app.notify("first", title="One", severity="error")
        app.notify("second", title="Two", severity="error")
        await settle(pilot)
        balance = app.screen.query_one("#balance-panel")
        for toast in app.screen.query("Toast"):
            assert not toast.region.overlaps(balance.region)


async def test_every_toast_has_a_title(make_app) -> None:  # type: ignore[no-untyped-def]
    app = make_app()
    app.NOTIFICATION_TIMEOUT = 600
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        for _ in range(2):
            app.notify("No unfinished job to poll.")
        await settle(pilot)
        assert [title for title, _m, _s in toasts(app)] == ["Note ×2"]


def test_every_notify_in_the_code_names_a_title() -> None:
    import ast
    from pathlib import Path

    src = Path(__file__).resolve().parents[2] / "src" / "accountdesk"
    untitled = []
    for path in src.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "notify"
                and node.args
                and not any(keyword.arg in {"title", None} for keyword in node.keywords)
            ):
                untitled.append(f"{path.relative_to(src)}:{node.lineno}")
    assert untitled == []


async def test_toasts_wait_while_the_terminal_is_too_small_and_come_back(make_app) -> None:
    """Below the minimum size the screen draws one line: a toast crushed over it waits instead."""
    app = make_app()
    app.NOTIFICATION_TIMEOUT = 600
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        app.notify("Saved 42 rows", title="CSV exported")
        await settle(pilot)
        assert any("CSV exported" in screen_line(app, y) for y in range(24))
        await pilot.resize_terminal(30, 10)
        await settle(pilot)
        assert not any("CSV" in screen_line(app, y) for y in range(10))
        assert "needs at least" in screen_line(app, 0)
        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        assert any("CSV exported" in screen_line(app, y) for y in range(24))


async def test_a_toast_leaves_the_terminal_as_it_becomes_too_small_not_a_refresh_later(
    make_app,  # type: ignore[no-untyped-def]
) -> None:
    """Found in tmux: the first frame at 40x10 drew the toast over the one line for 50-70 ms.

    Textual shows a toast rack with an inline style, which wins over the rule
    that hides a screen's widgets when the terminal is too small; the toasts
    were cleared only after the next refresh. The app hides the racks as it
    takes the new size, before any frame at that size.
    """
    from textual import events
    from textual.geometry import Size
    from textual.widgets._toast import ToastRack

    app = make_app()
    app.NOTIFICATION_TIMEOUT = 600
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        app.notify("Saved 42 rows", title="CSV exported")
        await settle(pilot)
        rack = app.screen.query_one(ToastRack)
        assert rack.display
        app.on_resize(events.Resize(Size(30, 10), Size(30, 10)))  # the app's handler, no frame yet
        assert not rack.display
        await pilot.resize_terminal(30, 10)
        await settle(pilot)
        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        assert any("CSV exported" in screen_line(app, y) for y in range(24))  # back as it grows
