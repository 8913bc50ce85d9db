"""The read waits after its first batch for the first page's paint, then reads on."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from test_transactions_stream import BULK, until
from tui_helpers import FROZEN_NOW, sign_in

from accountdesk.core.transaction_read import TransactionRead
from accountdesk.sandbox import FrozenClock, create_app
from accountdesk.tui.screens import transactions
from accountdesk.tui.screens.transactions import TransactionsScreen, open_transactions

pytestmark = pytest.mark.anyio


async def test_the_first_paint_lets_the_read_go_on(
    make_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Held "at most" a minute here: only the paint can let it go on in time.
    monkeypatch.setattr(transactions, "FIRST_PAINT_HOLD", 60.0)
    holds: list[tuple[int, float]] = []
    hold = TransactionRead.hold

    def spy(read: TransactionRead, at_most: float) -> None:
        holds.append((read.batches, at_most))
        hold(read, at_most)

    monkeypatch.setattr(TransactionRead, "hold", spy)
    sandbox = create_app(clock=FrozenClock(FROZEN_NOW), ids=1, bulk_transactions=BULK)
    app = make_app(transport=httpx.ASGITransport(sandbox))
    async with app.run_test(size=(100, 30)) as pilot:
        await sign_in(pilot)
        open_transactions(app.screen, "user_bulk")
        await until(pilot, lambda: isinstance(app.screen, TransactionsScreen))
        screen = app.screen
        assert isinstance(screen, TransactionsScreen) and screen.read is not None
        await until(pilot, lambda: screen.read is not None and screen.read.done)
        assert holds == [(1, 60.0)]  # after the first batch, for the paint
        assert screen.view is not None and len(screen.view) == BULK
