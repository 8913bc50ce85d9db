"""What the transactions screen says in words: the failure line, the count, the totals.

Text only, no Textual: the screen draws these, and tests read them.
"""

from __future__ import annotations

from accountdesk.client import AccountDataError
from accountdesk.core.errors.log import InternalError, failure_line
from accountdesk.core.transactions.columns import amount_text
from accountdesk.core.transactions.view import TransactionView

__all__ = ["count_text", "failure_text", "no_match_text", "total_text"]


def failure_text(error: AccountDataError | InternalError) -> str:
    """The failure line: the service's message verbatim with its code, as the toast shows it."""
    return failure_line("Could not read transactions", error)


def count_text(view: TransactionView, *, reading: bool) -> str:
    """The count under the table: ``showing 60 of 60``, or how far a read has come.

    While rows stream in: ``loading… 420,000 rows`` (with a filter or dates,
    ``showing 1,200 of 420,000 so far · loading…``); a read that stopped
    part way says its rows are not the whole list.
    """
    shown, total = len(view), view.total
    if view.data.complete:
        return f"showing {shown:,} of {total:,}"
    if reading:
        if shown == total and not view.filtered:
            return f"loading… {total:,} rows"
        return f"showing {shown:,} of {total:,} so far · loading…"
    return f"showing {shown:,} of {total:,} read (the read stopped: not the whole list)"


def total_text(view: TransactionView) -> str:
    """``total -1,234.50 USD``: the sum of the amounts shown, with the currency when known.

    ``so far`` while the list is not whole (a read streaming in, or stopped).
    """
    text = f"total {amount_text(view.view_amount_total)}"
    if view.currency:
        text += f" {view.currency}"
    return text if view.data.complete else f"{text} so far"


def no_match_text(view: TransactionView) -> str:
    """What an empty view says: which filter and dates left nothing."""
    if view.filter_text.strip():
        text = f"No transactions match “{view.filter_text}”"
        if view.date_from or view.date_to:
            text += " in these dates"
        return text
    return "No transactions in these dates"
