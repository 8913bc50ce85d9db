"""The line under the transactions table: how many rows it shows, and their total.

"showing 1,200 of 420,000 so far · loading…" while a read streams in; the
total once the index has the exact cents ("total …" until then). Bold when
the table shows less than the whole list. The words are the core's
(:mod:`accountdesk.core.transactions.texts`).
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Static

from accountdesk.core.transactions.texts import count_text, total_text
from accountdesk.core.transactions.view import TransactionView

__all__ = ["SummaryLine"]


class SummaryLine(Horizontal):
    """The rows shown and their total (see the module docstring)."""

    def __init__(self) -> None:
        super().__init__(id="transactions-summary")

    def compose(self) -> ComposeResult:
        yield Static(id="transactions-count")
        yield Static(id="transactions-total")

    def show(self, view: TransactionView | None, *, reading: bool) -> None:
        """What ``view`` shows (nothing for no view); ``reading``: a read is under way."""
        count = self.query_one("#transactions-count", Static)
        total_line = self.query_one("#transactions-total", Static)
        if view is None:
            count.update("")
            total_line.update("")
            return
        bold = len(view) < view.total or not view.data.complete
        count.update(Text(count_text(view, reading=reading), style="bold" if bold else ""))
        # The total needs the index (exact cents), built just after the first paint.
        total_line.update(Text(total_text(view) if view.data.indexed else "total …", style="bold"))

    def show_loading(self) -> None:
        """A read starts afresh: the last one's count and total do not stand for it."""
        self.query_one("#transactions-count", Static).update("loading…")
        self.query_one("#transactions-total", Static).update("")
