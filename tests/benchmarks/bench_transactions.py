"""How the transactions screen copes with user_bulk's 100,000 rows.

Run: ``python tests/benchmarks/bench_transactions.py`` (prints the figures;
not part of the test suite). Everything runs in-process against the sandbox
(``httpx.ASGITransport``), in a headless Textual app at 100x30.

It also times Textual's ``DataTable.add_rows`` with the same rows, the
alternative the screen does not use.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from textual.app import App, ComposeResult
from textual.widgets import DataTable, Static

from accountdesk.client import AccountDataClient, AccountDataError
from accountdesk.sandbox import FrozenClock, create_app
from accountdesk.tui.screens.transactions import TransactionsScreen
from accountdesk.tui.transaction_view import TransactionView, rows_from
from accountdesk.tui.widgets.transaction_table import TransactionTable

NOW = dt.datetime(2026, 11, 20, 9, 30, tzinfo=dt.UTC)
USER = "user_bulk"


class BenchApp(App[None]):
    """Just what the screen needs from AccountDeskApp."""

    def __init__(self, client: AccountDataClient, data_dir: Path) -> None:
        super().__init__()
        self.client = client
        self.data_dir = data_dir
        self.base_url_key = "sandbox"
        self.errors: list[AccountDataError] = []

    def now(self) -> dt.datetime:
        return NOW

    def report_error(self, error: AccountDataError) -> None:
        self.errors.append(error)

    def compose(self) -> ComposeResult:
        yield Static("bench")


def ms(seconds: float) -> str:
    return f"{seconds * 1000:8.1f} ms"


async def main() -> None:
    transport = httpx.ASGITransport(app=create_app(clock=FrozenClock(NOW), ids=1))
    async with AccountDataClient("http://sandbox", "sandbox_key", "sandbox_secret",
                                 transport=transport) as client:  # fmt: skip
        await client.get_transactions(USER)  # warm: the sandbox builds its 100k rows once
        started = time.perf_counter()
        transactions = await client.get_transactions(USER)
        fetch = time.perf_counter() - started
        started = time.perf_counter()
        rows = rows_from(transactions.transactions)
        format_rows = time.perf_counter() - started
        print(f"rows: {len(rows):,}")
        print(f"fetch + parse (client, in-process sandbox)  {ms(fetch)}")
        print(f"format rows (worker thread)                 {ms(format_rows)}")

        view = TransactionView(rows)
        for column in ("amount", "description", "date"):
            started = time.perf_counter()
            view.sort_by(column, reverse=False)
            first = time.perf_counter() - started
            started = time.perf_counter()
            view.sort_by(column, reverse=True)
            again = time.perf_counter() - started
            print(f"sort by {column:<12} ascending {ms(first)}   descending {ms(again)}")
        times = []
        for needle in ("gro", "market", "zzz", "a"):
            started = time.perf_counter()
            view.set_filter(needle)
            times.append(time.perf_counter() - started)
            print(f"filter {needle!r:<9} -> {len(view):>6,} rows              {ms(times[-1])}")
        view.set_filter("")
        with tempfile.TemporaryDirectory() as folder:
            started = time.perf_counter()
            view.export_csv(Path(folder) / "all.csv", transactions.currency)
            print(
                f"CSV export of {len(view):,} rows (thread)        {ms(time.perf_counter() - started)}"
            )

            app = BenchApp(client, Path(folder))
            async with app.run_test(size=(100, 30)) as pilot:
                started = time.perf_counter()
                await pilot.press("x")
                await pilot.pause()
                press = time.perf_counter() - started
                print(f"(pilot overhead: press + pause, no action   {ms(press)})")
                started = time.perf_counter()
                screen = TransactionsScreen(USER)
                first_frame: list[float] = []
                reload = screen.action_reload

                def timed_reload() -> None:  # the screen starts loading after its first refresh
                    first_frame.append(time.perf_counter())
                    reload()

                screen.action_reload = timed_reload  # type: ignore[method-assign]
                await app.push_screen(screen)
                while not first_frame:
                    await pilot.pause()
                print(f"screen: push -> first frame (loading)       {ms(first_frame[0] - started)}")
                while screen.view is None:
                    await pilot.pause()
                await pilot.pause()  # the frame with rows
                print(
                    f"screen: push -> table painted with rows     {ms(time.perf_counter() - started)}"
                )
                table = screen.query_one(TransactionTable)

                def frame() -> None:  # what one repaint of the table costs
                    for y in range(table.size.height):
                        table.render_line(y)

                def timed(label: str, action: Any) -> None:
                    samples = []
                    for _ in range(5):
                        started = time.perf_counter()
                        action()
                        frame()
                        samples.append(time.perf_counter() - started)
                    print(f"screen: {label:<36}{ms(statistics.median(samples))}")

                timed("sort amount + repaint (median)", lambda: screen.action_sort("amount"))
                timed("sort description + repaint", lambda: screen.action_sort("description"))
                filter_box = screen.query_one("#transactions-filter")

                def filter_with(text: str) -> None:
                    filter_box.value = text
                    screen.apply_filter()

                timed("filter + repaint", lambda: (filter_with("grocer"), filter_with("")))
                timed("page down + repaint", table.action_page_down)
                started = time.perf_counter()
                await pilot.press("4")
                await pilot.pause()
                print(
                    f"screen: key 4 -> sorted frame, via Pilot    {ms(time.perf_counter() - started)}"
                )
                assert table.cursor_row > 0 and not app.errors

            app2 = DataTableApp(rows)
            async with app2.run_test(size=(100, 30)) as pilot:
                started = time.perf_counter()
                app2.fill()
                await pilot.pause()
                print(
                    f"for comparison: DataTable.add_rows 100k     {ms(time.perf_counter() - started)}"
                )


class DataTableApp(App[None]):
    def __init__(self, rows: list[Any]) -> None:
        super().__init__()
        self.rows = rows

    def compose(self) -> ComposeResult:
        yield DataTable()

    def fill(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns("Date", "Description", "Category", "Amount", "Pending")
        table.add_rows(
            (r.date, r.description, r.category, r.amount_text, r.pending) for r in self.rows
        )


if __name__ == "__main__":
    asyncio.run(main())
