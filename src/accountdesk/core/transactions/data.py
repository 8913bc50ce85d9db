"""A user's transactions as one read gave them: compact columns, and what is worth computing once.

No Textual here. :class:`TransactionData` keeps every transaction once, as
columns (:mod:`.store`: 100,000 rows are a few arrays, not 100,000
objects), with what is worth computing once per read: each column's sort
order and the filter's search text (:mod:`.index`), the width each column's
texts need. It is what the session cache (:mod:`.cache`) keeps, so reopening
a user reuses all of it; every screen looks at it through a view of its own
(:mod:`.view`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from decimal import Decimal
from typing import TYPE_CHECKING, Any

import numpy as np

from accountdesk.core.transactions.columns import TransactionRow, row_widths
from accountdesk.core.transactions.index import TransactionIndex
from accountdesk.core.transactions.store import NO_DAY, TransactionStore

if TYPE_CHECKING:
    from accountdesk.client import Transaction, TransactionColumns

__all__ = ["TransactionData"]


class TransactionData:
    """Every transaction of one read, as compact columns, plus what is derived from them once.

    The rows live in a :class:`~.transaction_columns.TransactionStore`
    (codes, cents, flags, joined ids); ``transaction_ids``, ``dates``,
    ``descriptions``, ``categories``, ``amounts`` and ``pending`` read its
    columns as sequences of Python values. Rows are only added (a streamed
    read's :meth:`append`); the derived caches are filled on first use and
    shared by every view of the data.
    """

    def __init__(
        self,
        *,
        transaction_ids: Sequence[str],
        dates: Sequence[str],
        descriptions: Sequence[str],
        categories: Sequence[str],
        amounts: Sequence[Decimal],
        pending: Sequence[bool],
        currency: str | None = None,
    ) -> None:
        self.store = TransactionStore()
        self.currency = currency
        #: False while a streamed read is still adding rows (:meth:`append`).
        self.complete = True
        self._index: TransactionIndex | None = None
        self._widths: dict[str, int] | None = None
        self._widths_rows = 0
        self._widths_texts = {"description": 0, "category": 0}
        # Both are built in a worker thread while the UI may ask for them too.
        self._index_lock = threading.Lock()
        self._widths_lock = threading.Lock()
        self.store.append(
            transaction_ids=transaction_ids,
            dates=dates,
            descriptions=descriptions,
            categories=categories,
            amounts=amounts,
            pending=pending,
        )
        store = self.store
        self.transaction_ids = store.column("transaction_id")
        self.dates = store.column("date")
        self.descriptions = store.column("description")
        self.categories = store.column("category")
        self.amounts = store.column("amount")
        self.pending = store.column("pending")

    @classmethod
    def from_rows(
        cls, rows: Sequence[TransactionRow], currency: str | None = None
    ) -> TransactionData:
        return cls(
            transaction_ids=[row.transaction_id for row in rows],
            dates=[row.date for row in rows],
            descriptions=[row.description for row in rows],
            categories=[row.category for row in rows],
            amounts=[row.amount for row in rows],
            pending=[row.pending for row in rows],
            currency=currency,
        )

    @classmethod
    def from_columns(cls, columns: TransactionColumns) -> TransactionData:
        """The client's columnar read (validated, sanitised), its compact columns taken as they are."""
        return cls(**_columns_of(columns), currency=columns.currency)

    @classmethod
    def streaming(cls) -> TransactionData:
        """Empty data that a streamed read's batches are appended to (``complete`` False)."""
        data = cls(
            transaction_ids=[], dates=[], descriptions=[], categories=[], amounts=[], pending=[]
        )
        data.complete = False
        return data

    def append(self, columns: TransactionColumns) -> None:
        """Add a streamed batch after the rows held, and to the index if it is built.

        The columns grow before the row count, and the index's count last,
        so a view built meanwhile (from the index) only names rows already
        held. Call it from one worker at a time (the read's).
        """
        if columns.currency is not None:
            self.currency = columns.currency
        self.store.append(**_columns_of(columns))
        with self._index_lock:
            if self._index is not None:
                self._index.extend(len(self))

    @classmethod
    def from_transactions(
        cls, transactions: Sequence[Transaction], currency: str | None
    ) -> TransactionData:
        """Columns from the client's records (run it off the UI thread for big lists).

        Reads each model's field dict directly: pydantic attribute access is
        what made this slow (0.5 s for 100,000 rows, 0.1 s this way).
        """
        fields = [vars(txn) for txn in transactions]
        return cls(
            transaction_ids=[f["transaction_id"] for f in fields],
            dates=[f["date"].isoformat() if f["date"] else "" for f in fields],
            descriptions=[f["description"] for f in fields],
            categories=[f["category"] or "" for f in fields],
            amounts=[f["amount"] for f in fields],
            pending=[f["pending"] for f in fields],
            currency=currency,
        )

    def columns(self) -> dict[str, Sequence[Any]]:
        return {
            "date": self.dates,
            "description": self.descriptions,
            "category": self.categories,
            "amount": self.amounts,
            "pending": self.pending,
            "transaction_id": self.transaction_ids,
        }

    def __len__(self) -> int:
        return self.store.count

    def row(self, i: int) -> TransactionRow:
        """Row ``i`` in the service's order."""
        store = self.store
        return TransactionRow(
            store.transaction_id(i),
            store.date(i),
            store.descriptions.text(i),
            store.categories.text(i),
            store.amount(i),
            store.is_pending(i),
        )

    def index(self) -> TransactionIndex:
        """Sort keys, filter codes and cents (built on first use; cheap: NumPy over the columns)."""
        with self._index_lock:
            if self._index is None:
                self._index = TransactionIndex(self.store, len(self))
            return self._index

    def warm_orders(self) -> None:
        """Build the index and the sorts a person reaches for first (from a worker thread)."""
        index = self.index()
        for column in ("amount", "date"):
            for reverse in (False, True):
                index.order(column, reverse)  # NumPy's sort lets the GIL go

    @property
    def indexed(self) -> bool:
        """Whether :meth:`index` is built (it answers at once)."""
        return self._index is not None

    def content_widths(self, measure: Callable[[str], int]) -> dict[str, int]:
        """Cells the longest text of each column needs, by ``measure`` (a terminal's cell count).

        Computed once (call it from a worker thread for big data); later
        calls return the first answer, or merge in the rows appended since:
        texts are measured once each, amounts by the smallest and largest.
        """
        with self._widths_lock:
            count = len(self)
            if self._widths is None or self._widths_rows < count:
                start, self._widths_rows = self._widths_rows, count
                store, seen = self.store, self._widths_texts
                texts = {}
                for key, column in (
                    ("description", store.descriptions),
                    ("category", store.categories),
                ):
                    uniques = column.uniques
                    texts[key], seen[key] = uniques[seen[key] :], len(uniques)
                widths = row_widths(
                    measure,
                    _some_date(store, start, count),
                    texts["description"],
                    texts["category"],
                    _extreme_amounts(store, start, count),
                    [bool(store.pending[start:count].any())],
                )
                old = self._widths or {}
                self._widths = {key: max(old.get(key, 0), width) for key, width in widths.items()}
            return self._widths


def _columns_of(columns: TransactionColumns) -> dict[str, Sequence[Any]]:
    """The client's six columns, as :class:`TransactionStore` takes them."""
    return {
        "transaction_ids": columns.transaction_ids,
        "dates": columns.dates,
        "descriptions": columns.descriptions,
        "categories": columns.categories,
        "amounts": columns.amounts,
        "pending": columns.pending,
    }


def _some_date(store: TransactionStore, start: int, end: int) -> list[str]:
    """One date of rows ``start:end``, if any has one (every date is as wide)."""
    dated = np.flatnonzero(store.days[start:end] != NO_DAY)
    return [store.date(start + int(dated[0]))] if len(dated) else []


def _extreme_amounts(store: TransactionStore, start: int, end: int) -> list[Decimal]:
    """The smallest and largest amount of rows ``start:end`` (the widest texts are theirs)."""
    if end <= start:
        return []
    cents = store.cents[start:end]
    plain = [Decimal(int(cents.min())).scaleb(-2), Decimal(int(cents.max())).scaleb(-2)]
    exact = [amount for row, amount in store.exact_rows() if start <= row < end]
    if len(exact) == end - start:
        return exact
    return plain + exact
