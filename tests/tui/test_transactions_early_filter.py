"""The filter as a quick typist and a long read meet it: keys typed ahead, rows still arriving."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from test_transactions_stream import BULK, HeldTransport, small_bulk, text, until
from textual import events
from textual.widgets import Input
from tui_helpers import settle, sign_in

from accountdesk.tui.screens.transactions import TransactionsScreen
from accountdesk.tui.widgets.transaction_table import TransactionTable

pytestmark = pytest.mark.anyio

__all__ = ["small_bulk"]  # the fixture, shared with the streaming tests

#: In some of user_bulk's descriptions or categories, not in most.
WORD = "coffee"


class NothingYet(HeldTransport):
    """The sandbox, but no transactions answer at all until ``release``."""

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/transactions"):
            await self.release.wait()
        return await self.inner.handle_async_request(request)


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


async def test_a_filter_while_rows_stream_in_shows_the_matches_so_far_then_all(
    make_app: Any, small_bulk: Any
) -> None:
    transport = HeldTransport(small_bulk)
    app = make_app(transport=transport)
    async with app.run_test(size=(100, 30)) as pilot:
        await sign_in(pilot)
        screen = TransactionsScreen("user_bulk")
        await app.push_screen(screen)
        await until(pilot, lambda: screen.view is not None and len(screen.view) > 0)
        assert screen.view is not None
        data = screen.view.data
        arrived = len(data)
        assert 0 < arrived < BULK
        await pilot.press("slash", *WORD, "enter")
        # The rows so far that match, in the service's order, at once: not
        # after an index of every row so far built on the UI's loop.
        assert screen.view.filter_text == WORD and not data.indexed
        assert list(screen.view.view) == matching(data, arrived) != []
        assert text(screen, "#transactions-count") == (
            f"showing {len(screen.view):,} of {arrived:,} so far · loading…"
        )
        transport.release.set()
        await settle(pilot)
        assert data.complete and len(data) == BULK
        assert list(screen.view.view) == matching(data, BULK)
        assert text(screen, "#transactions-count") == f"showing {len(screen.view):,} of {BULK:,}"
        assert text(screen, "#transactions-total").startswith("total ")  # the index came after
        await pilot.press("4")  # a sort keeps the filter (now from the index)
        amounts = [screen.view.row(i).amount for i in range(len(screen.view))]
        assert len(amounts) == len(matching(data, BULK)) and amounts == sorted(amounts)


def matching(data: Any, count: int) -> list[int]:
    """What the filter should keep of the first ``count`` rows, worked out plainly."""
    return [
        i
        for i in range(count)
        if WORD in data.descriptions[i].casefold() or WORD in data.categories[i].casefold()
    ]


async def test_escape_while_the_first_rows_load_goes_back(make_app: Any, small_bulk: Any) -> None:
    app = make_app(transport=NothingYet(small_bulk))
    async with app.run_test(size=(100, 30)) as pilot:
        await sign_in(pilot)
        before = app.screen
        screen = TransactionsScreen("user_bulk")
        await app.push_screen(screen)
        await until(pilot, lambda: screen.query_one(TransactionTable).loading)
        # Not the filter box (its Escape clears it and stays on the screen).
        assert not isinstance(app.focused, Input)
        read = screen.read
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is before)
        assert read is not None and read.cancelled
        assert screen.read is None  # (a gone screen keeps no read: its rows go with it)
