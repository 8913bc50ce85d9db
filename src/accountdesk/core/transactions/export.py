"""Transactions written to a CSV file: the rows a view shows, in its order, every field.

The columns are the table's own list (:data:`~.columns.COLUMNS`), in its
order: what the table shows, and the id and currency it does not. Text from
the bank that a spreadsheet would run as a formula is quoted. The file is
``transactions-<user>-<time>.csv`` in the exports folder
(:func:`export_path`), written through the store (atomic, 0600); what the
toast says of it is :func:`export_text`.
"""

from __future__ import annotations

import csv
import datetime as dt
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING

from accountdesk.core.store import Store
from accountdesk.core.transactions.columns import COLUMNS

if TYPE_CHECKING:
    from accountdesk.core.transactions.data import TransactionData

__all__ = ["export_path", "export_text", "write_csv"]


def export_path(folder: Path, user_id: str, when: dt.datetime) -> Path:
    """Where an export of ``user_id``'s rows made at ``when`` (a wall-clock time) is written."""
    safe_user = re.sub(r"[^A-Za-z0-9_.-]", "_", user_id)
    return folder / f"transactions-{safe_user}-{when:%Y%m%d-%H%M%S}.csv"


def export_text(path: Path, count: int, *, complete: bool = True) -> str:
    """The export toast: file name and folder each start a line, so no path breaks mid-word."""
    noun = "row" if count == 1 else "rows"
    part = "" if complete else " (of the rows read so far: not the whole list)"
    return f"Saved {count:,} {noun}{part} to\n{path.name}\nin {path.parent}"


def write_csv(
    data: TransactionData,
    order: Sequence[int],
    store: Store,
    path: Path,
    *,
    shown: Callable[[str], str] | None = None,
) -> int | None:
    """Write ``data``'s rows ``order`` to ``path`` (atomic, 0600); the row count, or None.

    ``shown``: each text (a description, a category) as it may leave the app
    (presenting: with the fakes the screen shows).
    """
    cells = [_CELLS[column.key](data) for column in COLUMNS]
    if shown is not None:
        cells = [
            _through(cell, shown) if column.key in _TEXTS else cell
            for column, cell in zip(COLUMNS, cells, strict=True)
        ]

    def write(stream: IO[str]) -> int:
        writer = csv.writer(stream)
        writer.writerow([column.key for column in COLUMNS])
        for i in order:
            writer.writerow([cell(i) for cell in cells])
        return len(order)

    return store.write_stream(path, write, newline="")


def _currency(data: TransactionData) -> Callable[[int], str]:
    currency = data.currency or ""
    return lambda _row: currency


#: The columns that hold the bank's text (a customer's name may be in them).
_TEXTS = frozenset({"description", "category"})


def _through(cell: Callable[[int], str], shown: Callable[[str], str]) -> Callable[[int], str]:
    return lambda row: shown(cell(row))


#: For each column, what its cell of a row says (given the data once, then the row).
_CELLS: dict[str, Callable[[TransactionData], Callable[[int], str]]] = {
    "transaction_id": lambda data: data.transaction_ids.__getitem__,
    "date": lambda data: data.dates.__getitem__,
    "description": lambda data: lambda i: _cell(data.descriptions[i]),
    "category": lambda data: lambda i: _cell(data.categories[i]),
    "amount": lambda data: lambda i: str(data.amounts[i]),
    "currency": _currency,
    "pending": lambda data: lambda i: "yes" if data.pending[i] else "no",
}


def _cell(text: str) -> str:
    # Text from the bank opened in a spreadsheet must not run as a formula.
    if text[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + text
    return text
