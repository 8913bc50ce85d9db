"""A reload of the transactions screen (``l``): what the screen says before its first batch.

Beside test_transactions_stream, whose held transport it uses.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from test_transactions_stream import BULK, HeldTransport, text
from tui_helpers import settle, sign_in

from accountdesk.tui.screens.transactions import TransactionsScreen
from accountdesk.tui.widgets.transaction_table import TransactionTable

pytestmark = pytest.mark.anyio


@pytest.fixture
def small_bulk() -> Any:
    """The frozen sandbox with a user_bulk of BULK rows (as test_transactions_stream's)."""
    import httpx
    from tui_helpers import FROZEN_NOW

    from accountdesk.sandbox import FrozenClock, create_app

    return httpx.ASGITransport(
        create_app(clock=FrozenClock(FROZEN_NOW), ids=1, bulk_transactions=BULK)
    )


async def test_a_reload_does_not_keep_the_old_count_under_the_loading_table(
    make_app: Any, small_bulk: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(
        "test_transactions_stream.FIRST_BYTES", 0
    )  # a held answer sends nothing at all
    transport = HeldTransport(small_bulk)
    transport.release.set()
    app = make_app(transport=transport)
    async with app.run_test(size=(100, 30)) as pilot:
        await sign_in(pilot)
        screen = TransactionsScreen("user_bulk")
        await app.push_screen(screen)
        await settle(pilot)
        assert text(screen, "#transactions-count") == f"showing {BULK:,} of {BULK:,}"
        transport.release = asyncio.Event()  # the reload's answer is held after its first bytes
        await pilot.press("l")
        await pilot.pause()
        assert screen.query_one(TransactionTable).loading  # no batch of the reload is in
        # Nothing of the new read has arrived: the line must not claim the old rows.
        assert text(screen, "#transactions-count") == "loading…"
        assert text(screen, "#transactions-total") == ""
        transport.release.set()
        await settle(pilot)
        assert text(screen, "#transactions-count") == f"showing {BULK:,} of {BULK:,}"
