"""A transaction's fields: the one list the table and the CSV export both read, and how each reads.

:data:`COLUMNS` names every field in the order a CSV export writes them;
the table shows those with a label (:data:`TABLE_COLUMNS`, sorted by keys
``1``-``5`` in that order). The texts of an amount and a flag are here too,
so the table, the totals and the export say them alike.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import NamedTuple

__all__ = [
    "COLUMNS",
    "SORT_KEYS",
    "TABLE_COLUMNS",
    "Column",
    "TransactionRow",
    "amount_text",
    "pending_text",
    "row_widths",
]


class TransactionRow(NamedTuple):
    """One transaction as the table shows it."""

    transaction_id: str
    date: str
    description: str
    category: str
    amount: Decimal
    pending: bool

    @property
    def amount_text(self) -> str:
        return amount_text(self.amount)


def amount_text(amount: Decimal) -> str:
    """An amount as the table and the totals show it: ``-1,234.50``."""
    return f"{amount:,.2f}"


def pending_text(pending: bool) -> str:
    return "pending" if pending else ""


@dataclass(frozen=True, slots=True)
class Column:
    """A field: its name (the CSV's header), and its heading in the table ("": the CSV's alone)."""

    key: str
    label: str = ""
    #: The most cells the column takes however long its texts (None: no limit,
    #: the description, which gets the room that is left).
    max_width: int | None = None
    align_right: bool = False


#: Every field, in the order a CSV export writes them.
COLUMNS: tuple[Column, ...] = (
    Column("transaction_id"),
    Column("date", "Date", 10),
    Column("description", "Description"),
    Column("category", "Category", 24),
    Column("amount", "Amount", 20, align_right=True),
    Column("currency"),
    Column("pending", "Pending", 7),
)
#: The table's columns, in order (and the keys 1-5 that sort by them).
TABLE_COLUMNS: tuple[Column, ...] = tuple(column for column in COLUMNS if column.label)
#: What a view can be sorted by.
SORT_KEYS = frozenset(column.key for column in TABLE_COLUMNS)


def row_widths(
    measure: Callable[[str], int],
    dates: Sequence[str],
    descriptions: Sequence[str],
    categories: Sequence[str],
    amounts: Sequence[Decimal],
    pending: Sequence[bool],
) -> dict[str, int]:
    """Cells the longest text of each column of these rows needs, by ``measure``."""
    return {
        "date": _widest(measure, dates),
        "description": _widest(measure, descriptions),
        "category": _widest(measure, categories),
        # The widest text is the smallest or the largest amount's.
        "amount": _widest(measure, [amount_text(min(amounts)), amount_text(max(amounts))])
        if amounts
        else 0,
        "pending": measure(pending_text(True)) if any(pending) else 0,
    }


def _widest(measure: Callable[[str], int], texts: Sequence[str]) -> int:
    # Distinct texts only: a statement repeats its merchants thousands of times.
    distinct = set(texts)
    if "".join(distinct).isascii():  # one cell per character: no need to measure each
        return max(map(len, distinct), default=0)
    return max(map(measure, distinct), default=0)
