"""The transactions screen's imports and stylesheet, ready once signed in, before any account is opened."""

from __future__ import annotations

import sys
import threading
import types
from typing import Any

import pytest
from tui_helpers import settle, sign_in

from accountdesk.tui import preload
from accountdesk.tui.resources import styles_path
from accountdesk.tui.screens.lookup import LookupScreen

pytestmark = pytest.mark.anyio


async def test_the_transactions_screen_is_made_ready_from_the_sign_in_screen_on(
    make_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # As in a fresh process: not imported yet (the import itself is recorded, not run).
    monkeypatch.delitem(sys.modules, preload.TRANSACTIONS_SCREEN, raising=False)
    imported: list[str] = []
    monkeypatch.setattr(preload, "_import", lambda: imported.append(type(app.screen).__name__))
    app = make_app()
    prepared: list[str | None] = []

    async def prepare(user_id: str | None = None) -> None:
        prepared.append(user_id)

    monkeypatch.setattr(app.desk, "prepare_transactions", prepare)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        # Started once the sign-in screen is on the terminal and the sandbox
        # built, not beside that build: a quick person's ``x`` waited for it.
        assert imported[:1] == ["LoginScreen"] and prepared == []
        await sign_in(pilot)
        await settle(pilot)
        assert isinstance(app.screen, LookupScreen)
        # The embedded sandbox's large answers, before any account is opened.
        assert prepared == [None]
        # Textual parses a screen's CSS on its first push, unless it has the source.
        assert app.stylesheet.has_source(str(styles_path("transactions.tcss")), "")


def test_the_import_runs_with_a_short_switch_interval_and_restores_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Beside a busy loop, each file an import reads cost it a whole switch interval.
    monkeypatch.delitem(sys.modules, preload.TRANSACTIONS_SCREEN, raising=False)
    seen: list[float] = []
    monkeypatch.setattr(
        preload.importlib, "import_module", lambda name: seen.append(sys.getswitchinterval())
    )
    before = sys.getswitchinterval()
    preload._import()
    assert seen == [preload.IMPORT_SWITCH_INTERVAL] and seen[0] < before
    assert sys.getswitchinterval() == before


def test_two_imports_at_once_put_back_the_interval_found_before_either(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The sign-in and lookup screens may both start one: the second must not
    # save the first's short interval and put it back for good.
    monkeypatch.delitem(sys.modules, preload.TRANSACTIONS_SCREEN, raising=False)
    second = threading.Thread(target=preload._import)
    calls: list[str] = []

    def import_module(name: str) -> None:
        calls.append(name)
        if len(calls) == 1:
            second.start()  # while this one runs
            second.join(0.2)  # (it waits for this one, or runs beside it)
        sys.modules[name] = types.ModuleType(name)

    monkeypatch.setattr(preload.importlib, "import_module", import_module)
    before = sys.getswitchinterval()
    preload._import()
    second.join(10)
    assert calls == [preload.TRANSACTIONS_SCREEN]
    assert sys.getswitchinterval() == before
