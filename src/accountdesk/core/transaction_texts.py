"""What the transactions screen says in words: the failure line, the export toast, totals.

Text only, no Textual: the screen draws these, and tests read them.
"""

from __future__ import annotations

from pathlib import Path

from accountdesk.client import AccountDataError

from .errors import InternalError, failure_line
from .transactions import TransactionView, amount_text

__all__ = ["export_text", "failure_text", "no_match_text", "total_text"]


def failure_text(error: AccountDataError | InternalError) -> str:
    """The failure line: the service's message verbatim with its code, as the toast shows it."""
    return failure_line("Could not read transactions", error)


def export_text(path: Path, count: int) -> str:
    """The export toast: file name and folder each start a line, so no path breaks mid-word."""
    noun = "row" if count == 1 else "rows"
    return f"Saved {count:,} {noun} to\n{path.name}\nin {path.parent}"


def total_text(view: TransactionView) -> str:
    """``total -1,234.50 USD``: the sum of the amounts shown, with the currency when known."""
    text = f"total {amount_text(view.view_amount_total)}"
    return f"{text} {view.currency}" if view.currency else text


def no_match_text(view: TransactionView) -> str:
    """What an empty view says: which filter and dates left nothing."""
    if view.filter_text.strip():
        text = f"No transactions match “{view.filter_text}”"
        if view.date_from or view.date_to:
            text += " in these dates"
        return text
    return "No transactions in these dates"
