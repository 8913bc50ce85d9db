"""Transactions in daily use: Escape in the filter, the session cache, widths, dates, totals."""

from __future__ import annotations

import asyncio
from decimal import Decimal
from typing import Any

import httpx
import pytest
from rich.cells import cell_len
from test_transactions_stream import until
from textual.widgets import Input, Static
from tui_helpers import (
    RecordingTransport,
    driver,
    open_account,
    settle,
    sign_in,
    token_handler,
)

from accountdesk.tui.screens.account import AccountScreen
from accountdesk.tui.screens.lookup import LookupScreen
from accountdesk.tui.screens.transactions import TransactionsScreen
from accountdesk.tui.widgets.transaction_table import TransactionTable

READ_PATH = "/accounts/{}/transactions"


async def open_transactions(pilot: Any, user_id: str) -> TransactionsScreen:
    """From the account screen (looked up first when elsewhere), as a person would: ``x``."""
    current = pilot.app.screen
    if not (isinstance(current, AccountScreen) and current.user_id == user_id):
        await open_account(pilot, user_id)
    await pilot.press("x")
    # Until the new screen has mounted and read (settle's few pauses were
    # not always enough for the push on a loaded CI machine).
    await asyncio.wait_for(driver(pilot).until_quiet(), 20)
    await settle(pilot)
    # ... and until its read is complete: the rows are decoded off the loop, and
    # a CI run under load found the view still None after quiet and settle.
    await until(pilot, lambda: _read(pilot.app.screen))
    screen = pilot.app.screen
    assert isinstance(screen, TransactionsScreen)
    return screen


def _read(screen: object) -> bool:
    return (
        isinstance(screen, TransactionsScreen)
        and screen.view is not None
        and screen.view.data.complete
    )


def text_of(screen: TransactionsScreen, selector: str) -> str:
    return str(screen.query_one(selector, Static).render())


def shown(screen: TransactionsScreen) -> list[Any]:
    assert screen.view is not None
    return [screen.view.row(i) for i in range(len(screen.view))]


def reads(transport: RecordingTransport, user_id: str) -> int:
    path = READ_PATH.format(user_id)
    return sum(1 for r in transport.requests if r.method == "GET" and r.url.path == path)


# -- Escape in the filter ------------------------------------------------------


@pytest.mark.anyio
async def test_escape_in_the_filter_clears_it_and_stays_on_the_screen(make_app: Any) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await sign_in(pilot)
        screen = await open_transactions(pilot, "user_good")
        await pilot.press("slash", "f", "u", "e", "l", "enter")
        assert screen.view is not None and 0 < len(screen.view) < 60
        await pilot.press("slash", "x")  # back into the box, typing (debounce pending)
        await pilot.press("escape")
        assert app.screen is screen
        box = screen.query_one("#transactions-filter", Input)
        assert box.value == "" and screen.view.filter_text == "" and len(screen.view) == 60
        assert not screen.filter_bar.waiting  # the pending "fuelx" never applies
        table = screen.query_one(TransactionTable)
        assert table.has_focus
        await pilot.press("escape")  # from the table, Escape leaves the screen
        assert app.screen is not screen


@pytest.mark.anyio
async def test_escape_in_an_empty_filter_only_leaves_it(make_app: Any) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await sign_in(pilot)
        screen = await open_transactions(pilot, "user_good")
        await pilot.press("slash", "escape")
        assert app.screen is screen and screen.query_one(TransactionTable).has_focus


# -- the session cache -----------------------------------------------------------


@pytest.mark.anyio
async def test_reopening_reads_from_the_session_cache_until_reload(
    make_app: Any, sandbox_transport: Any
) -> None:
    transport = RecordingTransport(sandbox_transport)
    app = make_app(transport=transport)
    async with app.run_test(size=(100, 30)) as pilot:
        await sign_in(pilot)
        screen = await open_transactions(pilot, "user_good")
        await pilot.press("4")  # sorted by amount
        assert reads(transport, "user_good") == 1
        await pilot.press("escape")
        screen = await open_transactions(pilot, "user_good")
        assert reads(transport, "user_good") == 1  # from the session cache
        # A fresh screen: the service's order, no filter, every row.
        assert screen.view is not None and screen.view.sort_key is None
        assert text_of(screen, "#transactions-count") == "showing 60 of 60"
        await pilot.press("l")
        await settle(pilot)
        assert reads(transport, "user_good") == 2  # l reloads from the service
        assert text_of(screen, "#transactions-count") == "showing 60 of 60"


@pytest.mark.anyio
async def test_sign_out_forgets_the_cached_transactions(
    make_app: Any, sandbox_transport: Any
) -> None:
    transport = RecordingTransport(sandbox_transport)
    app = make_app(transport=transport)
    async with app.run_test(size=(100, 30)) as pilot:
        await sign_in(pilot)
        await open_transactions(pilot, "user_good")
        await app.sign_out()
        await settle(pilot)
        await sign_in(pilot)
        assert isinstance(app.screen, LookupScreen)
        await open_transactions(pilot, "user_good")
        assert reads(transport, "user_good") == 2


@pytest.mark.anyio
async def test_user_bulk_is_downloaded_once_per_session(
    make_app: Any, sandbox_transport: Any
) -> None:
    transport = RecordingTransport(sandbox_transport)
    app = make_app(transport=transport)
    async with app.run_test(size=(100, 30)) as pilot:
        await sign_in(pilot)
        await open_transactions(pilot, "user_bulk")
        await pilot.press("escape")
        screen = await open_transactions(pilot, "user_bulk")
        assert reads(transport, "user_bulk") == 1
        assert text_of(screen, "#transactions-count") == "showing 100,000 of 100,000"


# -- widths --------------------------------------------------------------------------


def column_starts(header: str) -> dict[str, int]:
    return {label: header.index(label) for label in ("Description", "Category", "Amount")}


@pytest.mark.anyio
async def test_wide_terminal_keeps_the_columns_together(make_app: Any) -> None:
    app = make_app()
    async with app.run_test(size=(200, 30)) as pilot:
        await sign_in(pilot)
        screen = await open_transactions(pilot, "user_good")
        table = screen.query_one(TransactionTable)
        header = table.render_line(0).text
        starts = column_starts(header)
        longest = max(cell_len(r.description) for r in shown(screen))
        # The description column is as wide as its longest text, plus the gap.
        assert starts["Category"] - starts["Description"] == longest + 2, header
        # The amount is close by: no run of 140 blank cells in any line.
        for y in range(1, 10):
            line = table.render_line(y).text.rstrip()
            assert "  " * 20 not in line, line


@pytest.mark.anyio
@pytest.mark.parametrize("size", [(80, 24), (100, 30)])
async def test_descriptions_are_not_cut_while_the_category_has_room(
    make_app: Any, size: tuple[int, int]
) -> None:
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await sign_in(pilot)
        screen = await open_transactions(pilot, "user_good")
        table = screen.query_one(TransactionTable)
        widths = table._widths(table.scrollable_content_region.width)
        longest_category = max(cell_len(r.category) for r in shown(screen))
        assert widths["category"] == max(longest_category, len("Category ▲"))
        await pilot.press("2")  # by description: the longest ones come into view
        lines = [table.render_line(y).text for y in range(1, table.size.height)]
        assert not any("…" in line for line in lines), lines


# -- date range and totals -------------------------------------------------------


async def type_dates(pilot: Any, screen: TransactionsScreen, text: str) -> None:
    await pilot.press("d")
    screen.query_one("#transactions-dates", Input).value = text
    await pilot.press("enter")
    await settle(pilot)


def total_line(rows: list[Any], currency: str = "USD") -> str:
    total = sum((r.amount for r in rows), Decimal(0))
    return f"total {total:,.2f} {currency}"


@pytest.mark.anyio
async def test_date_range_keeps_the_days_typed_and_totals_follow(make_app: Any) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await sign_in(pilot)
        screen = await open_transactions(pilot, "user_good")
        everything = shown(screen)
        assert text_of(screen, "#transactions-total") == total_line(everything)
        await type_dates(pilot, screen, "2026-11-01..2026-11-10")
        rows = shown(screen)
        expected = [r for r in everything if "2026-11-01" <= r.date <= "2026-11-10"]
        assert rows == expected and 0 < len(rows) < 60
        assert text_of(screen, "#transactions-count") == f"showing {len(rows)} of 60"
        assert text_of(screen, "#transactions-total") == total_line(rows)
        assert screen.query_one(TransactionTable).has_focus
        # One end open, then the filter on top of the range.
        await type_dates(pilot, screen, "2026-11-01..")
        await pilot.press("slash")
        screen.query_one("#transactions-filter", Input).value = "market"
        await pilot.press("enter")
        await settle(pilot)
        rows = shown(screen)
        assert rows == [
            r
            for r in everything
            if r.date >= "2026-11-01" and "market" in (r.description + r.category).lower()
        ]
        assert text_of(screen, "#transactions-total") == total_line(rows)
        # One day alone (the filter still applies); Escape in the filter keeps the day.
        day = rows[-1].date
        await type_dates(pilot, screen, day)
        assert shown(screen) == [r for r in rows if r.date == day]
        await pilot.press("slash", "escape")
        assert shown(screen) == [r for r in everything if r.date == day]
        assert screen.query_one("#transactions-dates", Input).value == day


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("typed", "problem"),
    [
        ("2026-13-01", "“2026-13-01” is not a date: use YYYY-MM-DD"),
        ("1/11/2026..", "“1/11/2026” is not a date: use YYYY-MM-DD"),
        ("2026-11-10..2026-11-01", "The range ends (2026-11-01) before it starts (2026-11-10)"),
    ],
)
async def test_a_wrong_date_says_what_is_wrong_and_keeps_the_rows(
    make_app: Any, typed: str, problem: str
) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await sign_in(pilot)
        screen = await open_transactions(pilot, "user_good")
        await type_dates(pilot, screen, typed)
        assert text_of(screen, "#transactions-message") == problem
        assert screen.view is not None and len(screen.view) == 60
        box = screen.query_one("#transactions-dates", Input)
        assert box.has_focus and box.has_class("-invalid")  # stays, to be corrected
        # Escape clears the dates and the complaint, and leaves the box.
        await pilot.press("escape")
        assert app.screen is screen and box.value == ""
        assert not screen.query_one("#transactions-message", Static).display
        assert screen.query_one(TransactionTable).has_focus


@pytest.mark.anyio
async def test_totals_of_no_rows(make_app: Any) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await sign_in(pilot)
        screen = await open_transactions(pilot, "user_good")
        await type_dates(pilot, screen, "2001-01-01..2001-12-31")
        assert text_of(screen, "#transactions-count") == "showing 0 of 60"
        assert text_of(screen, "#transactions-total") == "total 0.00 USD"


@pytest.mark.anyio
async def test_totals_without_a_currency(make_app: Any) -> None:
    rows = [
        {"transaction_id": "a", "date": "2026-11-01", "amount": "-1.25", "description": "x"},
        {"transaction_id": "b", "date": "2026-11-02", "amount": "1000.00", "description": "y"},
    ]

    def service(request: httpx.Request) -> httpx.Response:
        assert request.url.path == READ_PATH.format("u1")
        return httpx.Response(200, json={"user_id": "u1", "transactions": rows})

    app = make_app(transport=httpx.MockTransport(token_handler(service)))
    async with app.run_test(size=(100, 30)) as pilot:
        await sign_in(pilot)
        screen = TransactionsScreen("u1")
        await app.push_screen(screen)
        await settle(pilot)
        assert text_of(screen, "#transactions-count") == "showing 2 of 2"
        assert text_of(screen, "#transactions-total") == "total 998.75"


@pytest.mark.anyio
async def test_reload_keeps_the_sort_filter_and_dates(
    make_app: Any, sandbox_transport: Any
) -> None:
    transport = RecordingTransport(sandbox_transport)
    app = make_app(transport=transport)
    async with app.run_test(size=(100, 30)) as pilot:
        await sign_in(pilot)
        screen = await open_transactions(pilot, "user_good")
        await pilot.press("4", "4")  # amount, largest first
        await type_dates(pilot, screen, "2026-10-01..")
        await pilot.press("slash")
        screen.query_one("#transactions-filter", Input).value = "market"
        await pilot.press("enter")
        await settle(pilot)
        before = shown(screen)
        assert before and screen.view is not None
        old_view = screen.view
        await pilot.press("l")
        await settle(pilot)
        assert reads(transport, "user_good") == 2 and screen.view is not old_view
        assert (screen.view.sort_key, screen.view.sort_reverse) == ("amount", True)
        assert shown(screen) == before
        assert text_of(screen, "#transactions-total") == total_line(before)
