"""The transactions screen: a user's transactions, sortable, filterable, exportable.

``GET .../transactions`` runs in a worker while a loading indicator shows;
rows are formatted off the UI thread and drawn by a virtual table, so
``user_bulk``'s 100,000 rows paint, sort and filter without freezing the app
(see ``tests/benchmarks/bench_transactions.py`` for the figures). The filter
(substring of description or category) applies 0.25 s after the last
keystroke, or at once on Enter, which also hands the keys back to the table
(so ``s`` saves rather than types). ``s`` writes the filtered, sorted view to
a CSV file under the app's data dir.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.message import Message
from textual.timer import Timer
from textual.widgets import Input, Static

from accountdesk.client import AccountDataError
from accountdesk.core.errors import InternalError, failure_line
from accountdesk.core.transactions import COLUMNS, TransactionView
from accountdesk.tui.base import DeskScreen
from accountdesk.tui.messages import ServiceFailed
from accountdesk.tui.resources import styles_path
from accountdesk.tui.widgets.footer import AppFooter
from accountdesk.tui.widgets.header import AppHeader
from accountdesk.tui.widgets.transaction_table import TransactionTable

__all__ = ["TransactionsScreen"]

#: Seconds of quiet typing before the filter applies.
FILTER_DEBOUNCE = 0.25


class TransactionsLoaded(Message):
    def __init__(self, view: TransactionView, currency: str | None) -> None:
        super().__init__()
        self.view = view
        self.currency = currency


class TransactionsExported(Message):
    def __init__(self, path: Path, count: int) -> None:
        super().__init__()
        self.path = path
        self.count = count


class TransactionsScreen(DeskScreen[None]):
    """All transactions of one user in a virtual table."""

    CSS_PATH = styles_path("transactions.tcss")
    HELP = """\
Every transaction the service holds for the user, newest first.

- Type in the filter box (`/`) to keep rows whose description or category
  contains the text; Enter applies it at once and goes back to the table.
- `1`–`5` sort by date, description, category, amount or pending; the same
  key again reverses. Clicking a column header does the same.
- `s` saves the rows shown (filtered and sorted) to a CSV file; a toast
  says where.
- `l` reloads, Escape goes back.

Manually linked users have no transaction data (`AC-115`). Start a
transactions job on the account screen first if the list is empty.
"""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back", id="back"),
        Binding("slash", "focus_filter", "Filter", id="focus_filter"),
        # "s" rather than "e": the app keeps "e" for the error log everywhere.
        Binding("s", "export_csv", "Save CSV", id="export_csv"),
        Binding("l", "reload", "Reload", id="reload_transactions"),
        *(
            Binding(
                str(n),
                f"sort('{column.key}')",
                f"Sort {column.label.lower()}",
                id=f"sort_{column.key}",
                show=n in (1, 4),
            )
            for n, column in enumerate(COLUMNS, start=1)
        ),
    ]

    def __init__(self, user_id: str) -> None:
        super().__init__()
        self.user_id = user_id
        self.view: TransactionView | None = None
        self.currency: str | None = None
        self._filter_timer: Timer | None = None
        #: The file the last export wrote (None before the first export).
        self.last_export: Path | None = None

    def compose(self) -> ComposeResult:
        yield AppHeader(f"Transactions · {self.user_id}")
        with Horizontal(id="transactions-bar"):
            yield Input(
                placeholder="Filter description or category  ( / )", id="transactions-filter"
            )
            yield Static(id="transactions-count")
        yield TransactionTable(id="transactions-table")
        yield Static(id="transactions-message")
        yield AppFooter()

    def on_mount(self) -> None:
        # Paint the screen (and its loading indicator) before the fetch: parsing
        # 100,000 rows in the client holds the event loop for most of a second.
        self.call_after_refresh(self.action_reload)

    # -- loading ---------------------------------------------------------

    def action_reload(self) -> None:
        table = self.query_one(TransactionTable)
        table.loading = True
        self._say("")
        self._load()

    @work(exclusive=True, exit_on_error=False, group="transactions", name="get_transactions")
    async def _load(self) -> None:
        try:
            transactions = await self.desk.client.get_transactions(self.user_id)
        except AccountDataError as error:
            self.post_message(ServiceFailed(error, "get_transactions"))
            return
        # Building 100,000 rows takes a moment: keep it off the UI's loop.
        view = await asyncio.to_thread(
            TransactionView.from_transactions, transactions.transactions, transactions.currency
        )
        self.post_message(TransactionsLoaded(view, transactions.currency))

    def on_transactions_loaded(self, message: TransactionsLoaded) -> None:
        self.view = message.view
        self.currency = message.currency
        table = self.query_one(TransactionTable)
        table.loading = False
        filter_text = self.query_one("#transactions-filter", Input).value
        if filter_text:
            self.view.set_filter(filter_text)
        table.set_view(self.view)
        self._draw_count()
        table.focus()

    def on_service_failed(self, message: ServiceFailed) -> None:
        if message.operation not in {"get_transactions", "export_csv"}:
            return
        self.query_one(TransactionTable).loading = False
        if message.operation == "get_transactions":
            self._say(failure_text(message.error), error=True)
            self._draw_count()

    # -- filter and sort ---------------------------------------------------

    @on(Input.Changed, "#transactions-filter")
    def _filter_typed(self) -> None:
        if self._filter_timer is not None:
            self._filter_timer.stop()
        self._filter_timer = self.set_timer(FILTER_DEBOUNCE, self.apply_filter, name="filter")

    @on(Input.Submitted, "#transactions-filter")
    def _filter_submitted(self) -> None:
        # Enter ends the typing: apply, and give the keys back to the table,
        # or the next key (s, 1-5, l) would be typed into the filter.
        self.apply_filter()
        self.query_one(TransactionTable).focus()

    def apply_filter(self) -> None:
        """Apply the filter box's text now (Enter, or after the typing pause)."""
        if self._filter_timer is not None:
            self._filter_timer.stop()
            self._filter_timer = None
        if self.view is None:
            return
        text = self.query_one("#transactions-filter", Input).value
        if text != self.view.filter_text:
            self.view.set_filter(text)
            self.query_one(TransactionTable).view_changed()
            self._draw_count()

    def action_sort(self, column: str) -> None:
        """Sort by ``column``; again on the same column reverses."""
        if self.view is None:
            return
        self.view.sort_by(column)
        self.query_one(TransactionTable).view_changed()

    def on_transaction_table_sort_requested(self, message: TransactionTable.SortRequested) -> None:
        self.action_sort(message.column)

    def action_focus_filter(self) -> None:
        self.query_one("#transactions-filter", Input).focus()

    def action_back(self) -> None:
        self.dismiss()

    # -- export ----------------------------------------------------------

    def action_export_csv(self) -> None:
        if self.view is None or not self.view.total:
            self.notify("Nothing to export yet.", severity="warning")
            return
        stamp = self.desk.now().strftime("%Y%m%d-%H%M%S")
        safe_user = re.sub(r"[^A-Za-z0-9_.-]", "_", self.user_id)
        path = self.export_dir() / f"transactions-{safe_user}-{stamp}.csv"
        self._export(path)

    def export_dir(self) -> Path:
        """Where exports go: ``<data dir>/exports`` (kept beside the app's other files)."""
        return self.desk.dirs.exports_dir

    @work(
        exclusive=True,
        exit_on_error=False,
        group="transactions-export",
        thread=True,
        name="export_csv",
    )
    def _export(self, path: Path) -> None:
        assert self.view is not None
        count = self.view.export_csv(self.desk.store, path)
        if count is not None:  # a failure was reported by the store
            self.post_message(TransactionsExported(path, count))

    def on_transactions_exported(self, message: TransactionsExported) -> None:
        self.last_export = message.path
        self.notify(export_text(message.path, message.count), title="CSV exported", markup=False)

    # -- drawing ---------------------------------------------------------

    def _draw_count(self) -> None:
        """The "showing N of M" count, and what an empty table says."""
        count = self.query_one("#transactions-count", Static)
        table = self.query_one(TransactionTable)
        if self.view is None:
            count.update("")
            table.show_empty_text("")
            return
        shown, total = len(self.view), self.view.total
        count.update(Text(f"showing {shown:,} of {total:,}", style="bold" if shown < total else ""))
        if not total:
            table.show_empty_text(
                "No transactions. Start a transactions job from the account screen."
            )
        elif not shown:
            table.show_empty_text(f"No transactions match “{self.view.filter_text}”")
        else:
            table.show_empty_text("")

    def _say(self, text: str, *, error: bool = False) -> None:
        message = self.query_one("#transactions-message", Static)
        message.update(Text(text))
        message.display = bool(text)
        message.set_class(error, "-error")


def failure_text(error: AccountDataError | InternalError) -> str:
    """The failure line: the service's message verbatim with its code, as the toast shows it."""
    return failure_line("Could not read transactions", error)


def export_text(path: Path, count: int) -> str:
    """The export toast: file name and folder each start a line, so no path breaks mid-word."""
    noun = "row" if count == 1 else "rows"
    return f"Saved {count:,} {noun} to\n{path.name}\nin {path.parent}"
