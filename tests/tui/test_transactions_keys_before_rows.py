"""Keys pressed on the transactions screen before its first rows arrive go where they were meant.

A support person presses ``x`` (or ``l``) and ``/`` and types at once: the
first rows arrive while they type. The letters must stay in the filter box:
in the table they are commands (``e`` opens the error log, ``s`` saves a
CSV, ``l`` reads the list again). The first rows' view took the focus for
the table whatever had it (#16, fifth round).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from test_transactions_stream import FIRST_BYTES, small_bulk, until
from tui_helpers import footer_composes, screen_line, settle, sign_in

from accountdesk.tui.screens.transactions import TransactionsScreen
from accountdesk.tui.widgets.transaction_table import TransactionTable

pytestmark = pytest.mark.anyio

__all__ = ["small_bulk"]  # the fixture, shared with test_transactions_stream


class GatedTransport(httpx.AsyncBaseTransport):
    """The sandbox, but a transactions answer waits for ``first`` before any byte, then
    sends FIRST_BYTES and waits for ``rest``."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.first = asyncio.Event()
        self.rest = asyncio.Event()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        answer = await self.inner.handle_async_request(request)
        if not request.url.path.endswith("/transactions") or request.method != "GET":
            return answer
        body = await answer.aread()
        gates = self

        class Gated(httpx.AsyncByteStream):
            async def __aiter__(self) -> AsyncIterator[bytes]:
                await gates.first.wait()
                yield body[:FIRST_BYTES]
                await gates.rest.wait()
                yield body[FIRST_BYTES:]

        return httpx.Response(answer.status_code, headers=answer.headers, stream=Gated())

    async def aclose(self) -> None:
        await self.inner.aclose()


async def _opened_before_any_row(pilot: Any) -> TransactionsScreen:
    """Signed in, user_bulk's transactions screen pushed: its read waits at the first gate."""
    await sign_in(pilot)
    screen = TransactionsScreen("user_bulk")
    await pilot.app.push_screen(screen)
    await pilot.pause()
    return screen


async def test_typing_in_the_filter_box_while_the_first_rows_arrive_stays_in_the_box(
    make_app: Any, small_bulk: Any
) -> None:
    transport = GatedTransport(small_bulk)
    app = make_app(transport=transport)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await _opened_before_any_row(pilot)
        await pilot.press("slash", "c", "a")  # no row yet: the box has the keys
        box = screen.query_one("#transactions-filter")
        assert app.focused is box
        transport.first.set()  # the first rows arrive while the person types
        await until(pilot, lambda: screen.view is not None and len(screen.view) > 0)
        await pilot.press("f", "e")
        assert isinstance(app.screen, TransactionsScreen)  # not the error log (e)
        assert box.value == "cafe" and app.focused is box
        transport.rest.set()
        await settle(pilot)


async def test_the_screen_s_keys_are_composed_once_with_the_screen_not_after_its_first_rows(
    make_app: Any, small_bulk: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The footer was composed only after the screen's first refresh (as
    # Textual does): right after the first rows' frame, ~40 ms of the loop
    # in the middle of the read, and a key pressed as the rows showed
    # waited for it.
    composed = footer_composes(monkeypatch)
    transport = GatedTransport(small_bulk)
    app = make_app(transport=transport)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await _opened_before_any_row(pilot)
        table = screen.query_one(TransactionTable)
        assert table.loading and screen.focused is table
        assert "Filter" in screen_line(app, 29)  # the screen's keys, from its first frame
        transport.first.set()
        await until(pilot, lambda: screen.view is not None and len(screen.view) > 0)
        transport.rest.set()
        await settle(pilot)
        assert not table.loading and screen.focused is table
        assert composed.count("TransactionsScreen") == 1
