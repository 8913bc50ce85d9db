"""The transactions screen's filter, dates and sort (its base class): the keys that narrow the view.

The filter applies 0.25 s after the last keystroke, or at once on Enter;
while the rows still stream in (no index yet) an :class:`EarlyFilter`
answers from the rows so far and follows each batch. ``/``, ``d`` and Enter
in the filter box move the focus as the key arrives, so keys typed right
behind them go where the person meant.
"""

from __future__ import annotations

from textual import on
from textual.actions import SkipAction
from textual.timer import Timer
from textual.widgets import Input, Static

from accountdesk.core.transactions.date_range import DateRangeProblem, parse_date_range
from accountdesk.core.transactions.early_filter import EarlyFilter
from accountdesk.core.transactions.read import TransactionRead
from accountdesk.core.transactions.view import TransactionView
from accountdesk.tui.transactions_summary import TransactionsSummary
from accountdesk.tui.widgets.transaction_table import TransactionTable
from accountdesk.tui.widgets.view_field import ViewField

__all__ = ["FILTER_DEBOUNCE", "TransactionsFilters"]

#: Seconds of quiet typing before the filter applies.
FILTER_DEBOUNCE = 0.25
#: Seconds a key's answer may hold a read still streaming in (see _answer_first).
HOLD_AT_MOST = 0.25


class TransactionsFilters(TransactionsSummary):
    """The base of the transactions screen that filters, dates and sorts its view."""

    _filter_timer: Timer | None = None
    #: The filter answering before the index is built (None: the index answers).
    _early: EarlyFilter | None = None
    #: The read this screen follows (the screen's).
    read: TransactionRead | None

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

    @on(Input.Changed, "#transactions-filter")
    def _filter_typed(self) -> None:
        self._stop_filter_timer()
        self._filter_timer = self.set_timer(FILTER_DEBOUNCE, self.apply_filter, name="filter")

    def _stop_filter_timer(self) -> None:
        if self._filter_timer is not None:
            self._filter_timer.stop()
            self._filter_timer = None

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
        self._stop_filter_timer()
        view = self.view
        if view is None:
            return
        self._answer_first(changed=True)
        text = self.query_one("#transactions-filter", Input).value
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
    def _dates_submitted(self, event: Input.Submitted) -> None:
        self._submit_dates(event.input)

    def _submit_dates(self, box: Input) -> None:
        try:
            dates = parse_date_range(box.value)
        except DateRangeProblem as problem:
            # Stays in the box to be corrected; typing clears the red border.
            box.add_class("-invalid")
            self._say(str(problem), error=True, dates=True)
            return
        box.value = str(dates)
        self._say("")
        self._apply_dates(*dates.iso)
        self._keys_to(self.query_one(TransactionTable))

    @on(Input.Changed, "#transactions-dates")
    def _dates_typed(self) -> None:
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
