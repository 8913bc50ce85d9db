"""The transactions screen: a user's transactions, sortable, filterable, exportable.

The rows come from the desk's session cache, or stream in
(:meth:`Desk.stream_transactions`): the first open of a user (and ``l``)
reads the service in a worker, shows the first page with the first batch
and keeps appending, a few redraws a second, with ``loading… 420,000 rows``
under the table; sort, filter, totals and CSV act on the rows that have
arrived and say "so far" until the read is complete. A read that stops part
way keeps its rows and says where it stopped. A virtual table draws them,
so ``user_bulk``'s 100,000 rows paint, sort and filter without freezing the
app (``python -m benchmarks --only bulk``).

The screen is its table (:class:`~accountdesk.tui.widgets.transaction_table.TransactionTable`),
a filter bar above it (:class:`~accountdesk.tui.widgets.filter_bar.FilterBar`:
the filter, applied 0.25 s after the last keystroke or at once on Enter, and
the date range, ``d``, ``FROM..TO``, on Enter) and a summary line under it
(:class:`~accountdesk.tui.widgets.summary_line.SummaryLine`: how many rows
are shown and the total of their amounts). Every key it binds has its action
here. Enter hands the keys back to the table (so ``s`` saves rather than
types); Escape in either box clears it and leaves it, never the screen.
While rows stream in, the filter answers over the rows so far without
waiting for the index (:class:`~accountdesk.core.transactions.early_filter.EarlyFilter`),
and a key's answer comes before the read's next batch
(:meth:`TransactionsScreen._answer_first`). ``s`` writes the rows shown to a
CSV file under the app's data dir.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from pathlib import Path
from typing import Any, ClassVar

from rich.cells import cell_len
from rich.text import Text
from textual import on, work
from textual.actions import SkipAction
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.widgets import Input, Static

from accountdesk.client import AccountDataError
from accountdesk.core.transactions.columns import TABLE_COLUMNS
from accountdesk.core.transactions.data import TransactionData
from accountdesk.core.transactions.date_range import DateRangeProblem
from accountdesk.core.transactions.early_filter import EarlyFilter
from accountdesk.core.transactions.export import export_path, export_text
from accountdesk.core.transactions.read import TransactionRead
from accountdesk.core.transactions.reads import INLINE_ROWS
from accountdesk.core.transactions.texts import failure_text, no_match_text
from accountdesk.core.transactions.view import TransactionView
from accountdesk.tui.base import DeskScreen
from accountdesk.tui.messages import ServiceFailed
from accountdesk.tui.resources import styles_path
from accountdesk.tui.widgets.filter_bar import FilterBar
from accountdesk.tui.widgets.footer import AppFooter
from accountdesk.tui.widgets.header import AppHeader
from accountdesk.tui.widgets.summary_line import SummaryLine
from accountdesk.tui.widgets.transaction_table import TransactionTable
from accountdesk.tui.widgets.view_field import ViewField

__all__ = ["TransactionsScreen", "open_transactions"]

#: Seconds between redraws of the table and its count while rows stream in.
PROGRESS_EVERY = 0.5
#: Seconds a key's answer may hold a read still streaming in (see _answer_first).
HOLD_AT_MOST = 0.25
SORT_KEYS = Binding.Group("Sort", compact=True)


class TransactionsArrived(Message):
    """Rows of a read are in ``data`` (the first batch, more, or all: ``data.complete``)."""

    def __init__(self, data: TransactionData) -> None:
        super().__init__()
        self.data = data


class TransactionsIndexed(Message):
    """The data's sort keys and cents are ready: the total can be shown."""


class TransactionsExported(Message):
    """A CSV export was written: where, how many rows, all of them or the rows so far."""

    def __init__(self, path: Path, count: int, *, complete: bool) -> None:
        super().__init__()
        self.path = path
        self.count = count
        self.complete = complete


class TransactionsScreen(DeskScreen[None]):
    """All transactions of one user in a virtual table."""

    CSS_PATH = styles_path("transactions.tcss")
    # The table, once it has rows (_show): not the filter box while they
    # load, whose Escape only leaves the box (Escape then is Back).
    AUTO_FOCUS = "#transactions-table"
    HELP = """\
Every transaction the service holds for the user, newest first, read once
per session (`l` reads them again). Under the table: how many rows are
shown and the total of their amounts. A long list shows its first rows at
once and fills in ("loading… 420,000 rows"); until it is complete, sorting,
filtering, totals and CSV cover the rows read so far.

- `/` filters: rows whose description or category contains the text.
- `d` types dates: `2026-11-01..2026-11-30`, `2026-11-01..` (from),
  `..2026-11-30` (until) or one day `2026-11-05`.
- Enter applies a box and goes back to the table; Escape clears it.
- `1`–`5` sort by date, description, category, amount or pending; the same
  key again reverses. Clicking a column header does the same.
- `s` saves the rows shown (filtered and sorted) to a CSV file.

Manually linked users have no transaction data (`AC-115`). Start a
transactions job on the account screen first if the list is empty.
"""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back", id="back"),
        # Priority (checked as the key arrives, before it goes to the widget
        # focused then): keys typed right behind them go to the box, not the
        # table. In a box they type themselves (SkipAction).
        Binding("slash", "focus_filter", "Filter", id="focus_filter", priority=True),
        Binding("d", "focus_dates", "Dates", id="focus_dates", priority=True),
        # Enter in the filter box, the same way: the keys behind it are the table's.
        Binding("enter", "submit_box", "Apply filter", show=False, priority=True),
        # "s" rather than "e": the app keeps "e" for the error log everywhere.
        Binding("s", "export_csv", "Save CSV", id="export_csv"),
        Binding("l", "reload", "Reload", id="reload_transactions"),
        *(
            Binding(
                str(n),
                f"sort('{column.key}')",
                f"Sort {column.label.lower()}",
                id=f"sort_{column.key}",
                # One footer entry for the five ("12345 Sort"): room for the others.
                group=SORT_KEYS,
            )
            for n, column in enumerate(TABLE_COLUMNS, start=1)
        ),
    ]

    def __init__(self, user_id: str, read: TransactionRead | None = None) -> None:
        """``read``: the read of ``user_id``'s list started for this screen (it follows it)."""
        super().__init__()
        self.user_id = user_id
        self.view: TransactionView | None = None
        #: The file the last export wrote (None before the first export).
        self.last_export: Path | None = None
        #: The data whose index is being built (or was).
        self._indexing: TransactionData | None = None
        #: The data a read is streaming into (or streamed).
        self._arriving: TransactionData | None = None
        #: The read this screen follows (started on the key press, or by ``l``).
        self.read = read
        #: Whether a read is under way (the count says "loading…").
        self.reading = read is not None
        #: The filter answering before the index is built (None: the index answers).
        self._early: EarlyFilter | None = None

    def compose(self) -> ComposeResult:
        self.desk.presenter.learn_user_ids([self.user_id])  # the title names it
        yield AppHeader(f"Transactions · {self.user_id}")
        yield FilterBar()
        yield TransactionTable(id="transactions-table")
        yield SummaryLine()
        yield Static(id="transactions-message")
        yield AppFooter()

    @property
    def filter_bar(self) -> FilterBar:
        return self.query_one(FilterBar)

    def on_mount(self) -> None:
        cached = self.desk.cached_transactions(self.user_id) if self.read is None else None
        if cached is not None:
            self._show(cached)
        elif self.read is not None:
            if self.read.cancelled:
                return  # Back before this screen was mounted: it is going away
            # Started on the key press (open_transactions): its first rows may be in.
            self.query_one(TransactionTable).loading = True
            self._load()
        else:
            self.action_reload()

    def on_unmount(self) -> None:
        # Back (even before the screen was mounted): nobody reads on for nothing.
        if self.read is not None:
            self.read.cancel()
        # A screen's widgets point at each other: Textual's gone screen waits
        # for a full collection, which may not come for minutes. The rows of
        # a read not cached (stopped part way) go now, with the last reference.
        self.read = self.view = self._arriving = self._indexing = self._early = None

    # -- loading ---------------------------------------------------------

    def action_reload(self) -> None:
        table = self.query_one(TransactionTable)
        table.loading = True
        self._say("")
        self.query_one(SummaryLine).show_loading()
        if self.read is not None:
            self.read.cancel()
        self.read = self.desk.start_transaction_read(self.user_id)
        self.reading = True
        self._load()

    @work(exclusive=True, exit_on_error=False, group="transactions", name="get_transactions")
    async def _load(self) -> None:
        """Follow ``self.read`` (not an argument: a worker keeps its arguments, the read's rows)."""
        read = self.read
        if read is None:
            return
        # Presenting: the customer's names learnt before a description is drawn.
        await self.desk.learn_customer(self.user_id)
        data: TransactionData | None = None
        told = 0.0
        try:
            async with contextlib.aclosing(read.updates()) as updates:
                async for data in updates:
                    if time.monotonic() - told < PROGRESS_EVERY and data is self._arriving:
                        continue  # the table and the count follow a few times a second
                    await self._ready(data)
                    self.post_message(TransactionsArrived(data))
                    told = time.monotonic()
        except AccountDataError as error:
            # Its frames (this one, the read's) hold the rows and the read, in
            # a cycle with the read: they go, the error is all that is shown.
            error.__traceback__ = None
            if data is not None:  # the rows that came stay, with where the read stopped
                await self._ready(data)
                self.post_message(TransactionsArrived(data))
            self.post_message(ServiceFailed(error, "get_transactions"))
            return
        finally:
            if read is self.read:
                self.reading = False
        if data is not None:
            await self._ready(data)
            self.post_message(TransactionsArrived(data))

    async def _ready(self, data: TransactionData) -> None:
        """What showing ``data`` needs, done off the UI's loop: widths, the index a reload keeps."""
        # Reads every distinct text of the new rows once (the first few on the loop).
        if data is self._arriving or len(data) > INLINE_ROWS:
            await asyncio.to_thread(data.content_widths, cell_len)
        else:
            data.content_widths(cell_len)
        old = self.view
        if data is not self._arriving:
            self._arriving = data
            if old is not None and (old.filtered or old.sort_key is not None):
                # A reload keeps the filter and sort, which need the index: build it here.
                await asyncio.to_thread(data.index)

    def on_transactions_arrived(self, message: TransactionsArrived) -> None:
        if not self.is_attached:
            return  # Back while this was on its way: the screen is gone
        data = message.data
        if self.view is not None and self.view.data is data:
            table = self.query_one(TransactionTable)
            chosen = self._row_under_cursor(table)
            self.view_grown(self.view)
            if chosen is not None:
                # Sorted, the new rows are merged in: stay on the same transaction.
                table.cursor_row = self.view.position_of(chosen, near=table.cursor_row)
            self._view_changed()
        else:
            self._show(data)
        if data.complete and data.indexed:
            # Each batch dropped the index's sorted orders: the usual ones again.
            self._warm_orders_of(data)
        elif data.complete and (table := self.query_one(TransactionTable)).has_painted(table.view):
            self._start_index(data)  # (else once painted: on_transaction_table_painted)

    def _show(self, data: TransactionData) -> None:
        """A new view of ``data``, keeping the sort, filter and dates of the one before."""
        old, view = self.view, TransactionView(data)
        self._early = None
        if old is not None and old.sort_key is not None:
            view.sort_by(old.sort_key, reverse=old.sort_reverse)
        filter_text = self.filter_bar.filter_text
        if filter_text:
            view.set_filter(filter_text)
        if old is not None and (old.date_from or old.date_to):
            view.set_date_range(old.date_from, old.date_to)
        self.view = view
        table = self.query_one(TransactionTable)
        table.loading = False
        table.set_view(view)
        self.draw_summary()
        if not isinstance(self.focused, Input):
            # Not from a box the person moved to (/ or d) while the rows were on their way.
            table.focus()
        if not data.indexed:
            # Built once the first page is on screen (on_transaction_table_painted);
            # at the latest a second on, for a table not drawn (a terminal a
            # few rows high, another screen on top), whose total waits for it.
            self.set_timer(1.0, lambda: self._start_index(data))

    def _row_under_cursor(self, table: TransactionTable) -> int | None:
        """The data row under the cursor, where growing may move it (a sorted view)."""
        view = self.view
        if view is None or view.sort_key is None or not len(view.view):
            return None
        return int(view.view[min(table.cursor_row, len(view.view) - 1)])

    def on_transaction_table_painted(self, message: TransactionTable.Painted) -> None:
        # Not sooner: the index's thread takes the GIL in turns with the UI
        # and slowed that first paint (an after-refresh callback could run
        # after a frame of the loading indicator, before the rows' frame).
        if message.view is self.view:
            self._start_index(message.view.data)

    def _start_index(self, data: TransactionData) -> None:
        # Not while rows stream in: extending it batch by batch slowed the
        # read; a key pressed meanwhile builds it for the rows so far.
        if (
            not data.complete
            or data.indexed
            or data is self._indexing
            or self.view is None
            or self.view.data is not data
        ):
            return
        self._indexing = data
        self._index(data)

    @work(
        exclusive=True,
        exit_on_error=False,
        group="transactions-index",
        thread=True,
        name="index_transactions",
    )
    def _index(self, data: TransactionData) -> None:
        # After the first page is painted: sorting and filtering need it, the
        # first paint does not (it yields the GIL between chunks).
        data.index()
        self.post_message(TransactionsIndexed())
        data.warm_orders()

    @work(exclusive=True, exit_on_error=False, group="transactions-orders", thread=True)
    def _warm_orders_of(self, data: TransactionData) -> None:
        data.warm_orders()

    def on_transactions_indexed(self) -> None:
        self.draw_summary()

    def on_service_failed(self, message: ServiceFailed) -> None:
        if message.operation not in {"get_transactions", "export_csv"}:
            return
        table = self.query_one(TransactionTable)
        table.loading = False
        if message.operation == "get_transactions":
            self._say(failure_text(message.error), error=True)
            self.draw_summary()
            # The focus on the table, whose Escape is "Back": nothing here to
            # filter, and the filter box's Escape only leaves the box.
            table.focus()

    # -- filter, dates and sort ---------------------------------------------

    def _answer_first(self, *, changed: bool) -> None:
        """A key's answer comes before the read's next batch.

        Each batch is decoded and appended in a thread that takes most of the
        GIL from the loop drawing the answer (an early filter's frame came
        100-200 ms after Enter): the read waits, from the key (``changed``
        False) until the frame after the view changed, ``HOLD_AT_MOST`` at most.
        """
        read = self.read
        if read is None or read.done:
            return
        read.hold(HOLD_AT_MOST)
        if changed:
            self.call_after_refresh(read.release)

    def on_filter_bar_paused(self) -> None:
        self.apply_filter()

    @on(Input.Submitted, "#transactions-filter")
    def _filter_submitted(self) -> None:
        # Enter ends the typing: apply, and give the keys back to the table,
        # or the next key (s, 1-5, l) would be typed into the filter.
        self.apply_filter()
        self._keys_to(self.query_one(TransactionTable))

    def action_submit_box(self) -> None:
        """Enter in the filter box: the keys behind it go to the table, the filter applies."""
        box = self.focused
        if not isinstance(box, ViewField) or box.id != "transactions-filter":
            raise SkipAction()  # the dates box's Enter is its own (it stays on a bad range)
        self._keys_to(self.query_one(TransactionTable))
        self._answer_first(changed=False)
        # The box still has the letters typed before Enter queued: after them.
        box.call_later(self.apply_filter)

    def apply_filter(self) -> None:
        """Apply the filter box's text now (Enter, or after the typing pause)."""
        self.filter_bar.stop_waiting()
        view = self.view
        if view is None:
            return
        self._answer_first(changed=True)
        text = self.filter_bar.filter_text
        if text == view.filter_text:
            return
        if self._early_filter_fits(view):
            # No index yet (rows still streaming in, or its build under way):
            # the rows so far answer now, without building it on the loop.
            self._early = EarlyFilter(text)
            view.show_filtered(text, self._early.rows(view.data))
        else:
            self._early = None
            view.set_filter(text)
        self._view_changed()

    def _early_filter_fits(self, view: TransactionView) -> bool:
        return (
            not view.data.indexed and view.sort_key is None and not (view.date_from or view.date_to)
        )

    def view_grown(self, view: TransactionView) -> None:
        """Show the rows a read appended to ``view``'s data, with its filter, sort and dates."""
        early = self._early
        if early is not None and early.text == view.filter_text and self._early_filter_fits(view):
            view.show_filtered(early.text, early.rows(view.data))
        else:
            self._early = None
            view.grown()

    @on(Input.Submitted, "#transactions-dates")
    def _dates_submitted(self) -> None:
        dates = self.filter_bar.read_dates()
        if isinstance(dates, DateRangeProblem):
            self._say(str(dates), error=True, dates=True)
            return
        self._say("")
        self._apply_dates(*dates.iso)
        self._keys_to(self.query_one(TransactionTable))

    def on_filter_bar_dates_edited(self) -> None:
        if self.query_one("#transactions-message", Static).has_class("-dates"):
            self._say("")

    def _apply_dates(self, date_from: str | None, date_to: str | None) -> None:
        if self.view is not None and (date_from, date_to) != (
            self.view.date_from,
            self.view.date_to,
        ):
            self.view.set_date_range(date_from, date_to)
            self._view_changed()

    def on_view_field_left(self, message: ViewField.Left) -> None:
        """Escape in a box: it is empty now; the view shows what the other box leaves."""
        if message.field.id == "transactions-filter":
            self.apply_filter()
        else:
            self._say("")
            self._apply_dates(None, None)
        self._keys_to(self.query_one(TransactionTable))

    def _view_changed(self) -> None:
        self.query_one(TransactionTable).view_changed()
        self.draw_summary()

    def action_sort(self, column: str) -> None:
        """Sort by ``column``; again on the same column reverses."""
        if self.view is None:
            return
        self._answer_first(changed=True)  # (before: the sort may build the index)
        self.view.sort_by(column)
        self.query_one(TransactionTable).view_changed()

    def on_transaction_table_sort_requested(self, message: TransactionTable.SortRequested) -> None:
        self.action_sort(message.column)

    def action_focus_filter(self) -> None:
        if isinstance(self.focused, Input):
            raise SkipAction()  # "/" typed in a box
        self._keys_to(self.query_one("#transactions-filter", Input))
        self._answer_first(changed=True)

    def action_focus_dates(self) -> None:
        if isinstance(self.focused, Input):
            raise SkipAction()  # "d" typed in a box
        self._keys_to(self.query_one("#transactions-dates", Input))

    def _keys_to(self, widget: Input | TransactionTable) -> None:
        # Now, not at the next turn of the loop (``widget.focus()``): keys
        # typed right behind "/" or Enter are already queued, and went to
        # the widget focused before (the letters to the table, Enter not to
        # the box: the filter waited for the typing pause).
        self.set_focus(widget)

    # -- the lines under the table -------------------------------------------

    def draw_summary(self) -> None:
        """The line under the table (rows shown, their total) and what an empty table says."""
        table = self.query_one(TransactionTable)
        view = self.view
        self.query_one(SummaryLine).show(view, reading=self.reading)
        if view is None:
            table.show_empty_text("")
            return
        shown, total = len(view), view.total
        if not total and not view.data.complete:
            table.show_empty_text("No transactions read." if not self.reading else "")
        elif not total:
            table.show_empty_text(
                "No transactions. Start a transactions job from the account screen."
            )
        elif not shown:
            table.show_empty_text(no_match_text(view))
        else:
            table.show_empty_text("")

    def _say(self, text: str, *, error: bool = False, dates: bool = False) -> None:
        message = self.query_one("#transactions-message", Static)
        message.update(Text(text))
        message.display = bool(text)
        message.set_class(error, "-error")
        message.set_class(dates, "-dates")

    # -- export ------------------------------------------------------------------

    def action_export_csv(self) -> None:
        if self.view is None or not self.view.total:
            self.notify("Nothing to export yet.", title="CSV", severity="warning")
            return
        # The exports folder is kept beside the app's other files, in the data folder.
        # Presenting: named by the fake id the screen shows (presenter.user_id).
        user_id = self.desk.presenter.user_id(self.user_id)
        self._export(export_path(self.desk.dirs.exports_dir, user_id, self.desk.wall_time()))

    @work(
        exclusive=True,
        exit_on_error=False,
        group="transactions-export",
        thread=True,
        name="export_csv",
    )
    def _export(self, path: Path) -> None:
        assert self.view is not None
        complete = self.view.data.complete
        presenter = self.desk.presenter
        shown = presenter.text if presenter.active else None
        count = self.view.export_csv(self.desk.store, path, shown=shown)
        if count is not None:  # a failure was reported by the store
            self.post_message(TransactionsExported(path, count, complete=complete))

    def on_transactions_exported(self, message: TransactionsExported) -> None:
        self.last_export = message.path
        presenting = self.desk.presenter.active
        self.notify(
            export_text(message.path, message.count, complete=message.complete),
            title="CSV exported (presenting: fakes)" if presenting else "CSV exported",
            markup=False,
        )

    def action_back(self) -> None:
        self.dismiss()


def open_transactions(screen: DeskScreen[Any], user_id: str) -> None:
    """Push ``user_id``'s transactions screen; a list not read yet is requested first.

    The read starts here, on the key press, so the request is out (and the
    first batch may be in) by the time the new screen is mounted.
    """
    desk = screen.desk
    read = None
    if desk.cached_transactions(user_id) is None:
        read = desk.start_transaction_read(user_id)
    screen.app.push_screen(TransactionsScreen(user_id, read))
