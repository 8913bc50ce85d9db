"""The transactions screen while rows stream in: first page at once, progress, a stopped read."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

import httpx
import pytest
from textual.widgets import Static
from tui_helpers import settle, sign_in

from accountdesk.tui.screens.transactions import TransactionsScreen
from accountdesk.tui.widgets.transaction_table import TransactionTable

pytestmark = pytest.mark.anyio

#: Bytes of user_bulk's answer sent before the transport holds the rest back.
FIRST_BYTES = 60_000
#: user_bulk's rows here: enough for several batches, quick to build.
BULK = 8_000


@pytest.fixture
def small_bulk() -> httpx.ASGITransport:
    from tui_helpers import FROZEN_NOW

    from accountdesk.sandbox import FrozenClock, create_app

    return httpx.ASGITransport(
        create_app(clock=FrozenClock(FROZEN_NOW), ids=1, bulk_transactions=BULK)
    )


class HeldTransport(httpx.AsyncBaseTransport):
    """The sandbox, but a transactions answer stops after FIRST_BYTES until ``release``.

    ``drop``: the rest never comes, the connection drops instead.
    """

    def __init__(self, inner: Any, *, drop: bool = False) -> None:
        self.inner = inner
        self.drop = drop
        self.release = asyncio.Event()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        answer = await self.inner.handle_async_request(request)
        if not request.url.path.endswith("/transactions") or request.method != "GET":
            return answer
        body = await answer.aread()
        transport = self

        class Held(httpx.AsyncByteStream):
            async def __aiter__(self) -> AsyncIterator[bytes]:
                yield body[:FIRST_BYTES]
                if transport.drop:
                    raise httpx.ReadError("connection reset")
                await transport.release.wait()
                yield body[FIRST_BYTES:]

        return httpx.Response(answer.status_code, headers=answer.headers, stream=Held())

    async def aclose(self) -> None:
        await self.inner.aclose()


def text(screen: TransactionsScreen, selector: str) -> str:
    return str(screen.query_one(selector, Static).render())


async def until(pilot: Any, condition: Callable[[], bool]) -> None:
    """Let the app run until ``condition`` holds (the read is held open: no settle).

    Bounded in time, not in loop turns: the rows are decoded in a thread, and
    on a loaded machine 2,000 turns of the loop passed before its first batch.
    """
    deadline = time.monotonic() + 20.0
    while time.monotonic() < deadline:
        if condition():
            return
        await pilot.pause()
    raise AssertionError("the app never got there")


async def test_the_first_page_shows_while_the_rest_streams_in(
    make_app: Any, small_bulk: Any
) -> None:
    transport = HeldTransport(small_bulk)
    app = make_app(transport=transport)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await sign_in(pilot)
        screen = TransactionsScreen("user_bulk")
        await app.push_screen(screen)
        await until(pilot, lambda: screen.view is not None and len(screen.view) > 0)
        assert screen.view is not None
        arrived = len(screen.view)
        assert 0 < arrived < BULK and not screen.query_one(TransactionTable).loading
        assert text(screen, "#transactions-count") == f"loading… {arrived:,} rows"
        assert screen.view.row(0).transaction_id == "txn_000001"
        # Keys act on what has arrived, and say so.
        await pilot.press("4")
        amounts = [screen.view.row(i).amount for i in range(len(screen.view))]
        assert len(amounts) == arrived and amounts == sorted(amounts)
        screen.draw_summary()
        assert text(screen, "#transactions-total").endswith("so far")
        await pilot.press("s")
        await until(pilot, lambda: screen.last_export is not None)
        [toast] = [n for n in app._notifications if n.title == "CSV exported"]
        assert f"Saved {arrived:,} rows (of the rows read so far" in toast.message
        transport.release.set()
        await settle(pilot)
        assert text(screen, "#transactions-count") == f"showing {BULK:,} of {BULK:,}"
        assert not text(screen, "#transactions-total").endswith("so far")
        amounts = [screen.view.row(i).amount for i in range(0, BULK, 97)]
        assert amounts == sorted(amounts)  # the sort kept over every row
        assert app.desk.cached_transactions("user_bulk") is screen.view.data


async def test_a_read_that_stops_keeps_its_rows_and_says_where(
    make_app: Any, small_bulk: Any
) -> None:
    app = make_app(transport=HeldTransport(small_bulk, drop=True))
    async with app.run_test(size=(100, 30)) as pilot:
        await sign_in(pilot)
        screen = TransactionsScreen("user_bulk")
        await app.push_screen(screen)
        await settle(pilot)
        assert screen.view is not None
        kept = len(screen.view)
        assert 0 < kept < BULK
        message = text(screen, "#transactions-message")
        assert f"after {kept:,} rows" in message and "rows before are kept" in message
        assert text(screen, "#transactions-count") == (
            f"showing {kept:,} of {kept:,} read (the read stopped: not the whole list)"
        )
        assert app.desk.cached_transactions("user_bulk") is None  # not the whole list
