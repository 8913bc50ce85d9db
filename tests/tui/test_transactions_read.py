"""The transactions read starts on the key press, before the screen is mounted (#16 item 4)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from test_transactions_stream import BULK, HeldTransport, until
from tui_helpers import FROZEN_NOW, open_account, settle, sign_in

from accountdesk.core.transactions.read import TransactionRead
from accountdesk.tui.screens.account import AccountScreen
from accountdesk.tui.screens.transactions import TransactionsScreen, open_transactions

pytestmark = pytest.mark.anyio


class CountingHeld(HeldTransport):
    """:class:`HeldTransport` that counts transactions reads and sees each one closed."""

    def __init__(self, inner: Any) -> None:
        super().__init__(inner)
        self.reads = 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.method == "GET" and request.url.path.endswith("/transactions"):
            self.reads += 1
        return await super().handle_async_request(request)


@pytest.fixture
def held() -> CountingHeld:
    from accountdesk.sandbox import FrozenClock, create_app

    app = create_app(clock=FrozenClock(FROZEN_NOW), ids=1, bulk_transactions=BULK)
    return CountingHeld(httpx.ASGITransport(app))


async def on_account(pilot: Any) -> AccountScreen:
    await sign_in(pilot)
    await open_account(pilot, "user_bulk")
    assert isinstance(pilot.app.screen, AccountScreen)
    return pilot.app.screen


async def test_the_read_starts_with_the_key_press_and_the_screen_follows_it(
    make_app: Any, held: CountingHeld
) -> None:
    app = make_app(transport=held)
    async with app.run_test(size=(100, 30)) as pilot:
        account = await on_account(pilot)
        open_transactions(account, "user_bulk")  # what "x" does
        # Before anything has run (the screen is not mounted): the read is under way.
        [read] = app.desk.transactions.running
        screen = app.screen_stack[-1]
        assert isinstance(screen, TransactionsScreen) and not screen.is_mounted
        assert screen.read is read and not read.done
        await until(pilot, lambda: screen.view is not None and len(screen.view) > 0)
        assert screen.view is not None and screen.view.data is read.data  # the same rows
        held.release.set()
        await settle(pilot)
        assert read.data.complete and len(screen.view) == BULK
        assert held.reads == 1  # no second read by the screen
        assert app.desk.cached_transactions("user_bulk") is read.data


async def test_back_stops_the_read_before_the_screen_mounts_and_while_rows_arrive(
    make_app: Any, held: CountingHeld
) -> None:
    app = make_app(transport=held)
    async with app.run_test(size=(100, 30)) as pilot:
        account = await on_account(pilot)
        started: list[TransactionRead] = []
        start = app.desk.start_transaction_read
        app.desk.start_transaction_read = lambda user: started.append(start(user)) or started[-1]
        await pilot.press("x", "escape")  # Back at once, as the screen comes up
        await settle(pilot)
        [first] = started
        assert app.screen is account and first.cancelled and not app.desk.transactions.running
        await pilot.press("x")  # nothing cached (nothing whole was read): a new read
        screen = app.screen
        assert isinstance(screen, TransactionsScreen) and screen.read is not None, (
            app.screen_stack,
            app.focused,
        )
        second = screen.read
        await until(pilot, lambda: screen.view is not None and len(screen.view) > 0)
        await pilot.press("escape")  # Back while the rows arrive
        await settle(pilot)
        assert second.cancelled and not second.data.complete and not app.desk.transactions.running
        assert held.reads == 2 and app.desk.cached_transactions("user_bulk") is None
        assert started == [first, second]
