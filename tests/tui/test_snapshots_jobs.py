"""Snapshots of the jobs screen, the MFA dialog, the MFA toasts and transactions.

Deterministic: the sandbox clock is frozen (moved only by the tests), the app
clock is a hand-moved stand-in, job ids are seeded, live polling is slowed to
once an hour (rounds are driven by ``poll_jobs_now``), no cursor blink.
Accept changes with ``--snapshot-update`` only after looking at the SVGs.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest
from tui_helpers import (
    FROZEN_NOW,
    HandClock,
    answer_mfa,
    open_account,
    settle,
    sign_in,
    start_mfa_refresh,
    state_dir,
)

from accountdesk.tui.screens.transactions import TransactionsScreen

SIZE = (100, 30)


def quiet_app(make_app: Any, clock: HandClock | None = None) -> Any:
    app = make_app(clock=clock or HandClock())
    app.desk.poll_interval = 3600.0
    return app


def test_jobs_screen(
    snap_compare: Any, make_app: Any, sandbox_app: Any, app_dirs: dict[str, Path]
) -> None:
    # Two jobs kept from an earlier run: one the service no longer knows
    # (gone), one whose bank is down (stale after its error).
    earlier = (FROZEN_NOW - dt.timedelta(hours=3)).isoformat()
    (state_dir(app_dirs) / "jobs.json").write_text(json.dumps({"version": 1, "services": {"sandbox": [
        {"user_id": "user_good", "job_id": "job_0777", "kind": "identity", "status": "in_progress",
         "created_at": earlier},
        {"user_id": "user_fi_down", "job_id": "job_0778", "kind": "balance_refresh",
         "status": "pending", "created_at": earlier},
    ]}}))  # fmt: skip
    clock = HandClock()
    app = quiet_app(make_app, clock)

    async def run_before(pilot: Any) -> None:
        await sign_in(pilot)
        await open_account(pilot, "user_good")
        await pilot.press("b")  # balance refresh: completes after 2 s
        await settle(pilot)
        sandbox_app.state.clock.advance(5)
        clock.advance(5)
        await pilot.press("t")  # transactions: still pending
        await settle(pilot)
        await pilot.press("escape")
        await open_account(pilot, "user_mfa")
        await pilot.press("b")  # waits for MFA: the dialog opens; leave it
        await settle(pilot)
        await pilot.press("escape")
        await settle(pilot)
        sandbox_app.state.clock.advance(1)
        clock.advance(12)
        pilot.app.desk.poller.poll_now()
        await settle(pilot)
        await pilot.press("j")
        await settle(pilot)
        pilot.app.clear_notifications()
        await pilot.pause()

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_mfa_dialog(snap_compare: Any, make_app: Any) -> None:
    async def run_before(pilot: Any) -> None:
        await start_mfa_refresh(pilot)
        await answer_mfa(pilot, "0000")
        pilot.app.clear_notifications()
        await pilot.pause()

    assert snap_compare(quiet_app(make_app), terminal_size=SIZE, run_before=run_before)


def test_toast_mfa_blocked_ac108(snap_compare: Any, make_app: Any) -> None:
    async def run_before(pilot: Any) -> None:
        await start_mfa_refresh(pilot)
        for wrong in ("0000", "1111", "2222"):
            await answer_mfa(pilot, wrong)
        pilot.app.clear_notifications()
        await pilot.press("b")  # refresh again while blocked: AC-108 · 429
        await settle(pilot)

    assert snap_compare(quiet_app(make_app), terminal_size=SIZE, run_before=run_before)


def test_toast_mfa_expired_ac110(
    snap_compare: Any, make_app: Any, sandbox_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The dialog's own countdown would race the answer to the expiry: hold it still.
    from accountdesk.tui.screens.mfa import MfaDialog

    monkeypatch.setattr(MfaDialog, "tick_interval", 3600.0)
    monkeypatch.setattr(MfaDialog, "check_interval", 3600.0)
    clock = HandClock()

    async def run_before(pilot: Any) -> None:
        await start_mfa_refresh(pilot)
        pilot.app.clear_notifications()
        sandbox_app.state.clock.advance(301)
        clock.advance(301)
        await answer_mfa(pilot, "1234")

    assert snap_compare(quiet_app(make_app, clock), terminal_size=SIZE, run_before=run_before)


@pytest.mark.parametrize(
    "size", [(80, 24), (100, 30), (200, 30)], ids=["80x24", "100x30", "200x30"]
)
def test_transactions_screen(snap_compare: Any, make_app: Any, size: tuple[int, int]) -> None:
    # 80 and 100: no description cut while the category has room; 200: the
    # columns stay together (the room left is after the last column).
    async def run_before(pilot: Any) -> None:
        await sign_in(pilot)
        await pilot.app.push_screen(TransactionsScreen("user_good"))
        await settle(pilot)
        await pilot.press("4")  # sort by amount
        await pilot.press("down", "down")
        await settle(pilot)

    assert snap_compare(quiet_app(make_app), terminal_size=size, run_before=run_before)
