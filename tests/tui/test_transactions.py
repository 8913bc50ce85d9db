"""Transactions screen against the in-process sandbox: load, sort, filter, export."""

from __future__ import annotations

import csv
import re
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input, Static
from tui_helpers import settle, sign_in

from accountdesk.contract import ERRORS
from accountdesk.core.store import Store
from accountdesk.core.transactions.view import TransactionView
from accountdesk.tui.screens.transactions import TransactionsScreen
from accountdesk.tui.widgets.transaction_table import TransactionTable


async def open_transactions(pilot: Any, user_id: str) -> TransactionsScreen:
    await sign_in(pilot)
    screen = TransactionsScreen(user_id)
    await pilot.app.push_screen(screen)
    await settle(pilot)
    return screen


def count_text(screen: TransactionsScreen) -> str:
    return str(screen.query_one("#transactions-count", Static).render())


def shown(screen: TransactionsScreen) -> list[Any]:
    assert screen.view is not None
    return [screen.view.row(i) for i in range(len(screen.view))]


async def type_filter(pilot: Any, screen: TransactionsScreen, text: str) -> None:
    await pilot.press("slash")
    screen.query_one("#transactions-filter", Input).value = text
    await pilot.press("enter")  # Enter applies without waiting for the debounce
    await settle(pilot)


@pytest.mark.anyio
async def test_export_that_cannot_write_says_so(make_app: Any, app_dirs: dict[str, Path]) -> None:
    blocker = app_dirs["data_dir"] / "exports"  # a file where the exports folder should be
    blocker.parent.mkdir(parents=True)
    blocker.write_text("not a folder")
    app = make_app()
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        screen = await open_transactions(pilot, "user_good")
        await pilot.press("s")
        await settle(pilot)
        assert screen.last_export is None
        # The store's one policy: said once, in a sentence naming the file.
        [toast] = [n for n in app._notifications if n.title == "File problem"]
        message = re.sub(r"/\n", "/", toast.message)  # a long path is drawn broken at "/"
        assert str(blocker) in message and "Could not save" in message


@pytest.mark.anyio
async def test_sort_by_keys_and_header_click(make_app: Any) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_transactions(pilot, "user_good")
        rows = shown(screen)
        assert len(rows) == 60 and count_text(screen) == "showing 60 of 60"
        assert [r.date for r in rows] == sorted(
            (r.date for r in rows), reverse=True
        )  # service order
        await pilot.press("4")
        amounts = [r.amount for r in shown(screen)]
        assert amounts == sorted(amounts)
        await pilot.press("4")  # again: reversed
        assert [r.amount for r in shown(screen)] == sorted(amounts, reverse=True)
        # Clicking the "Category" header cell sorts by category.
        table = screen.query_one(TransactionTable)
        await pilot.click(TransactionTable, offset=(table._widths(98)["date"]
                                                   + table._widths(98)["description"] + 5, 0))  # fmt: skip
        await pilot.pause()
        categories = [r.category.casefold() for r in shown(screen)]
        assert screen.view is not None and screen.view.sort_key == "category"
        assert categories == sorted(categories)
        await pilot.click(TransactionTable, offset=(3, 3))  # the third row under the header
        assert table.cursor_row == 2
        # The cursor moves and the table scrolls with it.
        await pilot.press("end")
        assert table.cursor_row == 59 and table.scroll_offset.y > 0
        assert table.current_row == shown(screen)[-1]


@pytest.mark.anyio
async def test_filter_counts_and_csv_export(make_app: Any, app_dirs: dict[str, Path]) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        screen = await open_transactions(pilot, "user_good")
        await type_filter(pilot, screen, "GROCER")
        rows = shown(screen)
        assert rows and all("grocer" in (r.description + r.category).lower() for r in rows)
        assert count_text(screen) == f"showing {len(rows)} of 60"
        table = screen.query_one(TransactionTable)
        table.focus()
        await pilot.press("4")  # sort the filtered view by amount, then export it
        await pilot.press("s")
        await settle(pilot)
        path = screen.last_export
        assert path is not None and path.parent == app_dirs["data_dir"] / "exports"
        assert path.name == "transactions-user_good-20261120-093000.csv"
        with path.open(newline="") as stream:
            exported = list(csv.reader(stream))
        assert exported[0] == ["transaction_id", "date", "description", "category", "amount",
                               "currency", "pending"]  # fmt: skip
        body = exported[1:]
        sorted_rows = shown(screen)
        assert [line[0] for line in body] == [r.transaction_id for r in sorted_rows]
        assert [Decimal(line[4]) for line in body] == sorted(r.amount for r in rows)
        assert {line[5] for line in body} == {"USD"}
        [toast] = [n for n in app._notifications if n.title == "CSV exported"]
        # The file name and its folder each start a line: the toast never breaks a
        # path mid-word (a folder too long for the toast is broken at its "/").
        assert re.sub(r"/\n", "/", toast.message).splitlines() == [
            f"Saved {len(rows)} rows to",
            path.name,
            f"in {path.parent}",
        ]
        # An empty filter shows everything again.
        await type_filter(pilot, screen, "")
        assert count_text(screen) == "showing 60 of 60"


@pytest.mark.anyio
async def test_filter_applies_after_typing_pause(make_app: Any) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_transactions(pilot, "user_good")
        await pilot.press("slash", "f", "u", "e", "l")
        assert screen.view is not None and screen.view.filter_text == ""  # debounced
        assert screen.filter_bar.waiting
        screen.apply_filter()  # what the debounce timer calls
        await pilot.pause()
        assert screen.view.filter_text == "fuel" and 0 < len(screen.view) < 60


@pytest.mark.anyio
async def test_manual_user_has_no_transaction_data(make_app: Any) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        screen = await open_transactions(pilot, "user_manual")
        assert screen.view is None
        assert any(n.title and n.title.startswith("AC-115") for n in app._notifications)
        message = str(screen.query_one("#transactions-message", Static).render())
        [toast] = [n for n in app._notifications if n.title and n.title.startswith("AC-115")]
        # The line under the table says what the toast says: the service's words and code.
        toast_words, next_step = toast.message.splitlines()
        assert message == f"Could not read transactions (AC-115): {toast_words}"
        assert next_step == f"Next: {ERRORS['AC-115'].next_step}"
        await pilot.press("s")  # nothing to export: a warning, no crash
        await pilot.pause()


@pytest.mark.anyio
async def test_user_bulk_counts_and_filter(make_app: Any) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_transactions(pilot, "user_bulk")
        assert count_text(screen) == "showing 100,000 of 100,000"
        await type_filter(pilot, screen, "pharmacy")
        assert screen.view is not None
        kept = len(screen.view)
        assert 0 < kept < 100_000
        rows = [screen.view.row(i) for i in range(kept)]
        assert all("pharmacy" in f"{r.description} {r.category}".lower() for r in rows)
        assert count_text(screen) == f"showing {kept:,} of 100,000"
        table = screen.query_one(TransactionTable)
        table.focus()
        await pilot.press("1")  # sort the filtered rows by date (oldest first)
        assert screen.view.row(0).date <= screen.view.row(kept - 1).date


def test_view_sort_is_stable_and_csv_cells_are_defused(tmp_path: Path) -> None:
    from accountdesk.client.models import Transaction

    txns = [Transaction.model_validate({"transaction_id": f"t{i}", "date": "2026-11-0" + str(9 - i),
                                        "amount": "-1.00" if i % 2 else "2.00",
                                        "description": "=HYPERLINK(\"x\")" if i == 0 else f"Shop {i}",
                                        "category": "Misc"}) for i in range(4)]  # fmt: skip
    view = TransactionView.from_transactions(txns, "EUR")
    view.sort_by("amount")
    assert [view.row(i).transaction_id for i in range(4)] == ["t1", "t3", "t0", "t2"]
    view.sort_by("amount")  # again: descending, ties still in the service's order
    assert view.sort_reverse
    assert [view.row(i).transaction_id for i in range(4)] == ["t0", "t2", "t1", "t3"]
    count = view.export_csv(Store(), tmp_path / "out.csv")
    lines = list(csv.reader((tmp_path / "out.csv").open(newline="")))
    assert count == 4 and lines[1][2] == '\'=HYPERLINK("x")' and lines[1][5] == "EUR"
    with pytest.raises(ValueError):
        view.sort_by("nope")


@pytest.mark.anyio
async def test_unknown_user_shows_the_services_message(make_app: Any) -> None:
    from accountdesk.contract.endpoints import TRANSACTIONS_READ

    app = make_app()
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        screen = await open_transactions(pilot, "user_nobody")
        message = str(screen.query_one("#transactions-message", Static).render())
        expected = ERRORS["AC-102"].message_for(TRANSACTIONS_READ, user_id="user_nobody")
        assert message == f"Could not read transactions (AC-102): {expected}"
        assert [n.message for n in app._notifications] == [
            f"{expected}\nNext: {ERRORS['AC-102'].next_step}"
        ]


def header_text(table: TransactionTable) -> str:
    return table.render_line(0).text


def body_lines(table: TransactionTable) -> list[str]:
    return [table.render_line(y).text for y in range(1, 4)]


@pytest.mark.anyio
async def test_headers_keep_room_for_the_sort_arrow(make_app: Any) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_transactions(pilot, "user_good")
        table = screen.query_one(TransactionTable)
        for key, label in (("1", "Date"), ("2", "Description"), ("3", "Category"),
                           ("4", "Amount"), ("5", "Pending")):  # fmt: skip
            await pilot.press(key)
            assert f"{label} ▲" in header_text(table), header_text(table)
            await pilot.press(key)
            assert f"{label} ▼" in header_text(table), header_text(table)
        assert "…" not in header_text(table)


@pytest.mark.anyio
async def test_table_lines_up_with_the_filter_box(make_app: Any) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_transactions(pilot, "user_good")
        table = screen.query_one(TransactionTable)
        box = screen.query_one("#transactions-filter", Input)
        # The header text starts where the filter box's border does.
        assert table.content_region.x == box.region.x == 1
        assert header_text(table).startswith("Date")
        # Clicks still land on the right cells with the padding.
        await pilot.click(TransactionTable, offset=(1 + 2, 3))
        assert table.cursor_row == 2
        await pilot.click(TransactionTable, offset=(0, 3))  # on the padding: nothing
        assert table.cursor_row == 2


@pytest.mark.anyio
async def test_a_filter_matching_nothing_says_so(make_app: Any) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_transactions(pilot, "user_good")
        await type_filter(pilot, screen, "coffeee")
        assert count_text(screen) == "showing 0 of 60"
        table = screen.query_one(TransactionTable)
        assert body_lines(table)[0].strip() == "No transactions match “coffeee”"
        await type_filter(pilot, screen, "coffee")
        assert "No transactions match" not in "".join(body_lines(table))


@pytest.mark.anyio
async def test_enter_in_the_filter_hands_the_keys_back_to_the_table(make_app: Any) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        screen = await open_transactions(pilot, "user_good")
        await pilot.press("slash", "f", "u", "e", "l", "enter")
        table = screen.query_one(TransactionTable)
        assert table.has_focus
        assert screen.view is not None and screen.view.filter_text == "fuel"
        await pilot.press("s")  # saves, rather than typing "fuels"
        await settle(pilot)
        assert screen.query_one("#transactions-filter", Input).value == "fuel"
        assert screen.last_export is not None


@pytest.mark.anyio
async def test_the_index_is_built_once_the_first_page_is_on_screen(
    make_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Its thread takes the GIL in turns with the UI: started before the rows'
    # frame (after a frame of the loading indicator), it slowed that frame.
    from accountdesk.core.transactions.data import TransactionData

    painted_first: list[bool] = []
    real_index = TransactionData.index
    app = make_app()

    def index(data: TransactionData) -> Any:
        table = app.screen.query_one(TransactionTable)
        painted_first.append(table._painted is not None and table._painted.data is data)
        return real_index(data)

    monkeypatch.setattr(TransactionData, "index", index)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_transactions(pilot, "user_good")
        assert screen.view is not None and screen.view.data.indexed
        assert painted_first and all(painted_first)
        assert "total" in str(screen.query_one("#transactions-total", Static).render())


@pytest.mark.anyio
async def test_a_table_too_short_to_draw_still_gets_its_index_and_total(make_app: Any) -> None:
    app = make_app()
    async with app.run_test(size=(100, 4)) as pilot:
        screen = await open_transactions(pilot, "user_good")
        assert screen.view is not None
        await pilot.pause(1.5)
        await settle(pilot)
        assert screen.view.data.indexed
        assert "…" not in str(screen.query_one("#transactions-total", Static).render())


@pytest.mark.anyio
async def test_an_export_is_named_by_the_wall_clock_after_f4(make_app: Any) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        screen = await open_transactions(pilot, "user_good")
        await app.desk.advance_sandbox_clock(300)  # F4 +5 min: the sandbox reads 09:35
        screen.query_one(TransactionTable).focus()
        await pilot.press("s")
        await settle(pilot)
        assert screen.last_export is not None
        assert screen.last_export.name == "transactions-user_good-20261120-093000.csv"
