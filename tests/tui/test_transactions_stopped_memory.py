"""A read stopped part way holds nothing once its screen is gone: it is not cached, so its rows go."""

from __future__ import annotations

import gc
import weakref
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from tui_helpers import open_account, settle, sign_in

from accountdesk.tui.screens.lookup import LookupScreen
from accountdesk.tui.screens.transactions import TransactionsScreen

pytestmark = pytest.mark.anyio


class TinyRows(httpx.AsyncBaseTransport):
    """The sandbox, but user_good's transactions are endless tiny rows (past any cap)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.method != "GET" or not request.url.path.endswith("/user_good/transactions"):
            return await self.inner.handle_async_request(request)

        class Rows(httpx.AsyncByteStream):
            async def __aiter__(self) -> AsyncIterator[bytes]:
                yield b'{"transactions": ['
                row = 0
                while True:
                    rows = (
                        f'{{"transaction_id":"t{n}","amount":"1"}},' for n in range(row, row + 5000)
                    )
                    yield "".join(rows).encode()
                    row += 5000

        return httpx.Response(200, stream=Rows())

    async def aclose(self) -> None:
        await self.inner.aclose()


@pytest.mark.parametrize("when", ["stopped", "reading"])
async def test_a_read_not_kept_leaves_no_rows_behind_once_its_screen_is_left(
    make_app: Any, sandbox_transport: Any, when: str
) -> None:
    # By reference counting, as the screen goes: not at the next full
    # collection, which may not come for minutes (the app held 520 MB).
    app = make_app(transport=TinyRows(sandbox_transport), max_response_mb=2)
    async with app.run_test(size=(100, 30)) as pilot:
        await sign_in(pilot)
        await open_account(pilot, "user_good")
        gc.collect()
        gc.disable()
        try:
            await pilot.press("x")
            screen = app.screen
            assert isinstance(screen, TransactionsScreen)
            if when == "stopped":
                await settle(pilot)
            else:
                while screen.view is None or len(screen.view.data) < 10_000:
                    await pilot.pause()
            assert screen.view is not None and not screen.view.data.complete
            assert len(screen.view.data) >= 10_000
            data = weakref.ref(screen.view.data)
            del screen
            await pilot.press("escape")
            await settle(pilot)
            await pilot.press("escape")
            await settle(pilot)
            assert isinstance(app.screen, LookupScreen)
            assert data() is None, _held_by(data())
        finally:
            gc.enable()


def _held_by(target: object) -> str:
    """What holds ``target`` (types of its referrers, two levels), for the failure message."""
    lines = []
    for referrer in gc.get_referrers(target):
        if isinstance(referrer, list) and referrer and referrer[0] is target:
            continue
        lines.append(f"{type(referrer).__name__}")
        for second in gc.get_referrers(referrer)[:5]:
            lines.append(f"  <- {type(second).__name__}: {str(second)[:120]}")
    return "\n".join(lines)
