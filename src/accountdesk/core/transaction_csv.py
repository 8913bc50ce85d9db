"""Transactions written to a CSV file: the rows a view shows, in its order."""

from __future__ import annotations

import csv
from collections.abc import Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING

from .store import Store

if TYPE_CHECKING:
    from .transactions import TransactionData

__all__ = ["write_csv"]

_HEADER = ["transaction_id", "date", "description", "category", "amount", "currency", "pending"]


def write_csv(data: TransactionData, order: Sequence[int], store: Store, path: Path) -> int | None:
    """Write ``data``'s rows ``order`` to ``path`` (atomic, 0600); the row count, or None."""
    currency = data.currency or ""

    def write(stream: IO[str]) -> int:
        writer = csv.writer(stream)
        writer.writerow(_HEADER)
        for i in order:
            writer.writerow(
                [
                    data.transaction_ids[i],
                    data.dates[i],
                    _cell(data.descriptions[i]),
                    _cell(data.categories[i]),
                    str(data.amounts[i]),
                    currency,
                    "yes" if data.pending[i] else "no",
                ]
            )
        return len(order)

    return store.write_stream(path, write, newline="")


def _cell(text: str) -> str:
    # Text from the bank opened in a spreadsheet must not run as a formula.
    if text[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + text
    return text
