"""The transactions screen's imports and stylesheet, ready once signed in, before any account is opened."""

from __future__ import annotations

import sys
from typing import Any

import pytest
from tui_helpers import settle, sign_in

from accountdesk.tui import preload
from accountdesk.tui.resources import styles_path
from accountdesk.tui.screens.lookup import LookupScreen

pytestmark = pytest.mark.anyio


async def test_the_lookup_screen_gets_the_transactions_screen_ready(
    make_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # As in a fresh process: not imported yet (the import itself is recorded, not run).
    monkeypatch.delitem(sys.modules, preload.TRANSACTIONS_SCREEN, raising=False)
    imported: list[str] = []
    monkeypatch.setattr(preload, "_import", lambda: imported.append("transactions screen"))
    app = make_app()
    prepared: list[str | None] = []

    async def prepare(user_id: str | None = None) -> None:
        prepared.append(user_id)

    monkeypatch.setattr(app.desk, "prepare_transactions", prepare)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert imported == [] and prepared == []  # not while signing in (the first frame's time)
        await sign_in(pilot)
        await settle(pilot)
        assert isinstance(app.screen, LookupScreen)
        assert imported == ["transactions screen"]
        # The embedded sandbox's large answers, before any account is opened.
        assert prepared == [None]
        # Textual parses a screen's CSS on its first push, unless it has the source.
        assert app.stylesheet.has_source(str(styles_path("transactions.tcss")), "")
