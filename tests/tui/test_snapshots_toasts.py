"""Snapshots at 80x24 of toasts that hide nothing: none over a dialog, the held ones after it."""

from __future__ import annotations

from typing import Any

from tui_helpers import settle, start_mfa_refresh

SIZE = (80, 24)


def _app(make_app: Any) -> Any:
    app = make_app(poll_interval=3600)
    app.NOTIFICATION_TIMEOUT = 600  # toasts outlive a slow machine's run
    return app


def test_the_mfa_dialog_just_opened_has_no_toast_over_it(snap_compare: Any, make_app: Any) -> None:
    async def run_before(pilot: Any) -> None:
        await start_mfa_refresh(pilot)  # "Job started" came just before the dialog

    assert snap_compare(_app(make_app), terminal_size=SIZE, run_before=run_before)


def test_the_held_toast_shows_once_the_dialog_closes(snap_compare: Any, make_app: Any) -> None:
    async def run_before(pilot: Any) -> None:
        await start_mfa_refresh(pilot)
        await pilot.press("escape")
        await settle(pilot)

    assert snap_compare(_app(make_app), terminal_size=SIZE, run_before=run_before)
