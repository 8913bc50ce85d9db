"""The boxes above the transactions table that narrow it: the filter and the date range.

The filter (a substring of the description or the category) applies once
typing pauses for :data:`FILTER_DEBOUNCE` seconds (:class:`FilterBar.Paused`,
posted to the screen), or at once on Enter (the screen's key: the keys
behind Enter are the table's). The date range (``FROM..TO``, one day, or one
end open) applies on Enter, read here (:meth:`FilterBar.read_dates`): a
range that is not one stays in its box, marked, to be corrected. Escape in
either box clears it (:class:`~.view_field.ViewField.Left`).
"""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.message import Message
from textual.timer import Timer
from textual.widgets import Input

from accountdesk.core.transactions.date_range import DateRange, DateRangeProblem, parse_date_range
from accountdesk.tui.widgets.view_field import ViewField

__all__ = ["FILTER_DEBOUNCE", "FilterBar"]

#: Seconds of quiet typing before the filter applies.
FILTER_DEBOUNCE = 0.25


class FilterBar(Horizontal):
    """The filter box and the date range box (see the module docstring)."""

    class Paused(Message):
        """Typing in the filter box paused: apply the filter."""

    class DatesEdited(Message):
        """Text typed in the date range box: a refusal said of it is out of date."""

    def __init__(self) -> None:
        super().__init__(id="transactions-bar")
        self._pause: Timer | None = None

    def compose(self) -> ComposeResult:
        yield ViewField(
            placeholder="Filter: description, category  ( / )", id="transactions-filter"
        )
        yield ViewField(placeholder="YYYY-MM-DD..YYYY-MM-DD ( d )", id="transactions-dates")

    @property
    def filter_box(self) -> ViewField:
        return self.query_one("#transactions-filter", ViewField)

    @property
    def dates_box(self) -> ViewField:
        return self.query_one("#transactions-dates", ViewField)

    @property
    def filter_text(self) -> str:
        """The filter as typed."""
        return self.filter_box.value

    # -- the filter's typing pause ------------------------------------------------

    @property
    def waiting(self) -> bool:
        """Whether a filter typed waits for the pause before it applies."""
        return self._pause is not None

    def stop_waiting(self) -> None:
        """The filter applies now (or was cleared): no pause to wait for."""
        if self._pause is not None:
            self._pause.stop()
            self._pause = None

    @on(Input.Changed, "#transactions-filter")
    def _filter_typed(self) -> None:
        self.stop_waiting()
        self._pause = self.set_timer(FILTER_DEBOUNCE, self._paused, name="filter")

    def _paused(self) -> None:
        self._pause = None
        self.post_message(self.Paused())

    # -- the date range ------------------------------------------------------------

    def read_dates(self) -> DateRange | DateRangeProblem:
        """The date range typed (written back in its usual form), or why it is not one (marked)."""
        box = self.dates_box
        try:
            dates = parse_date_range(box.value)
        except DateRangeProblem as problem:
            # Stays in the box to be corrected; typing clears the red border.
            box.add_class("-invalid")
            return problem
        box.value = str(dates)
        return dates

    @on(Input.Changed, "#transactions-dates")
    def _dates_typed(self) -> None:
        self.post_message(self.DatesEdited())
