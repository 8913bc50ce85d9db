"""Snapshots of presenter mode: the account (numbers revealed), identity and transactions screens.

user_good's customer drawn as fakes, with the PRESENTING badge, at the two
sizes every screen is drawn at. The fakes are drawn from a key fixed here
(a run's own key is random). Accept changes only after looking at the SVGs.
"""

from __future__ import annotations

from typing import Any

import pytest
from tui_helpers import open_account, settle, sign_in

from accountdesk.core import presenting

SIZES = pytest.mark.parametrize("size", [(100, 30), (80, 24)], ids=["100x30", "80x24"])


@pytest.fixture(autouse=True)
def _one_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(presenting, "session_key", lambda: b"\7" * 32)


def _on_account(*keys: str) -> Any:
    async def run_before(pilot: Any) -> None:
        await sign_in(pilot)
        await open_account(pilot, "user_good")
        for key in keys:
            await pilot.press(key)
            await settle(pilot)
        pilot.app.clear_notifications()
        await settle(pilot)

    return run_before


@SIZES
def test_account_presenting_numbers_revealed(
    snap_compare: Any, make_app: Any, size: tuple[int, int]
) -> None:
    app = make_app(present=True)
    assert snap_compare(app, terminal_size=size, run_before=_on_account("r"))


@SIZES
def test_identity_presenting(snap_compare: Any, make_app: Any, size: tuple[int, int]) -> None:
    app = make_app(present=True)
    assert snap_compare(app, terminal_size=size, run_before=_on_account("v"))


@SIZES
def test_transactions_presenting(snap_compare: Any, make_app: Any, size: tuple[int, int]) -> None:
    app = make_app(present=True)
    assert snap_compare(app, terminal_size=size, run_before=_on_account("x"))
