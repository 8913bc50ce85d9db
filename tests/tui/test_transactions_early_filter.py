"""The filter as a quick typist and a long read meet it: keys typed ahead, rows still arriving."""

from __future__ import annotations

from typing import Any

import pytest
from textual import events
from textual.widgets import Input
from tui_helpers import settle, sign_in

from accountdesk.tui.screens.transactions import TransactionsScreen
from accountdesk.tui.widgets.transaction_table import TransactionTable

pytestmark = pytest.mark.anyio


def type_ahead(app: Any, *keys: str) -> None:
    """Queue keys as a terminal delivers a fast typist's: all at once, none waited for."""
    for key in keys:
        character = {"slash": "/", "enter": "\r"}.get(key, key)
        event = events.Key(key, character)
        event.set_sender(app)
        app._driver.send_message(event)


async def test_keys_typed_right_after_slash_go_to_the_filter_and_enter_applies_it(
    make_app: Any,
) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await sign_in(pilot)
        screen = TransactionsScreen("user_good")
        await app.push_screen(screen)
        await settle(pilot)
        # "/fuel", Enter, "s" in one burst: the letters are the filter's (not
        # the table's), Enter applies it at once (not after the typing pause)
        # and hands the keys back, so "s" saves rather than types.
        type_ahead(app, "slash", "f", "u", "e", "l", "enter", "s")
        await pilot.pause()
        await pilot.pause()
        assert screen.query_one("#transactions-filter", Input).value == "fuel"
        assert screen.view is not None and screen.view.filter_text == "fuel"
        assert screen.query_one(TransactionTable).has_focus
        await settle(pilot)
        assert screen.last_export is not None
        assert screen.query_one("#transactions-filter", Input).value == "fuel"
