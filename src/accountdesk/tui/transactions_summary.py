"""The transactions screen's summary line (its base class): rows shown, their total, the message."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from accountdesk.core.transactions.texts import count_text, no_match_text, total_text
from accountdesk.core.transactions.view import TransactionView
from accountdesk.tui.transactions_export import CsvExport
from accountdesk.tui.widgets.transaction_table import TransactionTable

__all__ = ["TransactionsSummary"]


class TransactionsSummary(CsvExport):
    """The base of the transactions screen that draws the lines under its table."""

    view: TransactionView | None
    #: Whether a read is under way (the count says "loading…").
    reading: bool = False

    # -- drawing ---------------------------------------------------------

    def draw_summary(self) -> None:
        """The line under the table (rows shown, their total) and what an empty table says."""
        count = self.query_one("#transactions-count", Static)
        total_line = self.query_one("#transactions-total", Static)
        table = self.query_one(TransactionTable)
        view = self.view
        if view is None:
            count.update("")
            total_line.update("")
            table.show_empty_text("")
            return
        shown, total = len(view), view.total
        bold = shown < total or not view.data.complete
        count.update(Text(count_text(view, reading=self.reading), style="bold" if bold else ""))
        # The total needs the index (exact cents), built just after the first paint.
        total_line.update(Text(total_text(view) if view.data.indexed else "total …", style="bold"))
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
