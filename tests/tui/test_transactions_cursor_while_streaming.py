"""The transactions table's cursor while rows stream in: it stays on the transaction it is on.

The cursor is a position in the view (``TransactionTable.cursor_row``). Rows
a read appends go after the last one in the service's order, so there the
transaction under the cursor stays put. In a sorted view they are merged
in: each batch moves the rows after the cursor's place down, so the screen
notes the transaction under the cursor before a batch and moves the cursor
to its new place after it (it landed on another transaction: #16, fifth round).
"""

from __future__ import annotations

from typing import Any

import pytest
from test_transactions_stream import BULK, HeldTransport, small_bulk, until
from tui_helpers import settle, sign_in

from accountdesk.tui.screens.transactions import TransactionsScreen
from accountdesk.tui.widgets.transaction_table import TransactionTable

pytestmark = pytest.mark.anyio

__all__ = ["small_bulk"]  # the fixture, shared with test_transactions_stream


async def _end_on_the_first_rows(pilot: Any, transport: HeldTransport, *keys: str) -> Any:
    """Sign in, open user_bulk, press ``keys`` then End on the rows that came first."""
    app = pilot.app
    await sign_in(pilot)
    screen = TransactionsScreen("user_bulk")
    await app.push_screen(screen)
    await until(pilot, lambda: screen.view is not None and len(screen.view) > 0)
    table = screen.query_one(TransactionTable)
    assert 0 < len(screen.view) < BULK  # the rest is held back
    await pilot.press(*keys, "end")
    await pilot.pause()
    assert table.cursor_row == len(screen.view) - 1
    return screen, table


async def test_end_in_the_services_order_stays_on_its_transaction(
    make_app: Any, small_bulk: Any
) -> None:
    transport = HeldTransport(small_bulk)
    app = make_app(transport=transport)
    async with app.run_test(size=(100, 30)) as pilot:
        screen, table = await _end_on_the_first_rows(pilot, transport)
        chosen = table.current_row.transaction_id
        transport.release.set()
        await settle(pilot)
        assert len(screen.view) == BULK
        assert table.current_row.transaction_id == chosen


async def test_end_on_a_sorted_table_stays_on_its_transaction_as_rows_arrive(
    make_app: Any, small_bulk: Any
) -> None:
    transport = HeldTransport(small_bulk)
    app = make_app(transport=transport)
    async with app.run_test(size=(100, 30)) as pilot:
        screen, table = await _end_on_the_first_rows(pilot, transport, "4")  # by amount
        chosen = table.current_row.transaction_id
        transport.release.set()
        await settle(pilot)
        assert len(screen.view) == BULK and screen.view.sort_key == "amount"
        assert table.current_row.transaction_id == chosen
