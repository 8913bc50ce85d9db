"""A user's transactions as a table model: columns, sort, filter, date range, totals, CSV.

No Textual here. :class:`TransactionData` keeps every transaction once, as
columns (one list per field: 100,000 rows are six lists, not 100,000
objects), with what is worth computing once per download: each column's
sort order, the filter's search text, the width each column's texts need.
It is what the session cache (:mod:`.transaction_cache`) keeps, so
reopening a user reuses all of it.

A :class:`TransactionView` is one screen's look at that data: the filter,
the date range, the sort, and the array of row indexes that pass, in order.
Sorting and filtering work on NumPy arrays (:mod:`.transaction_index`), so a
million rows answer a key in milliseconds; the widget draws only the rows
on screen.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from .store import Store
from .transaction_columns import NO_DAY, TransactionStore
from .transaction_csv import write_csv
from .transaction_index import Mask, Rows, TransactionIndex
from .transaction_rows import (
    _KEYS,
    COLUMNS,
    Column,
    TransactionRow,
    amount_text,
    pending_text,
    row_widths,
)

if TYPE_CHECKING:
    from accountdesk.client import Transaction, TransactionColumns

__all__ = [
    "COLUMNS",
    "Column",
    "TransactionData",
    "TransactionRow",
    "TransactionView",
    "amount_text",
    "pending_text",
]


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


class TransactionView:
    """One screen's filters and sort over :class:`TransactionData`; ``view`` lists the rows shown."""

    def __init__(self, data: TransactionData) -> None:
        self.data = data
        self.filter_text = ""
        self.date_from: str | None = None
        self.date_to: str | None = None
        self.sort_key: str | None = None  # None: the service's order (newest first)
        self.sort_reverse = False
        #: The rows shown, as indexes into the data, in order (never changed in place).
        self.view: Rows = np.arange(len(data), dtype=np.int32)
        self._view_total: Decimal | None = None

    @classmethod
    def from_rows(
        cls, rows: Sequence[TransactionRow], currency: str | None = None
    ) -> TransactionView:
        return cls(TransactionData.from_rows(rows, currency))

    @classmethod
    def from_transactions(
        cls, transactions: Sequence[Transaction], currency: str | None
    ) -> TransactionView:
        return cls(TransactionData.from_transactions(transactions, currency))

    # -- reading -----------------------------------------------------------

    def __len__(self) -> int:
        return len(self.view)

    @property
    def total(self) -> int:
        """How many transactions the data holds (shown or not)."""
        return len(self.data)

    @property
    def currency(self) -> str | None:
        return self.data.currency

    def position_of(self, data_row: int, *, near: int = 0) -> int:
        """Where data row ``data_row`` is shown now (``near``, kept in range, if it is not)."""
        found = np.flatnonzero(self.view == data_row)
        if len(found):
            return int(found[0])
        return min(near, max(len(self.view) - 1, 0))

    def row(self, position: int) -> TransactionRow:
        """The row shown at ``position`` of the view."""
        return self.data.row(int(self.view[position]))

    @property
    def view_amount_total(self) -> Decimal:
        """Sum of the amounts of the rows shown (computed once per view)."""
        if self._view_total is None:
            self._view_total = self.data.index().total(self.view)
        return self._view_total

    @property
    def filtered(self) -> bool:
        return bool(self.filter_text.strip() or self.date_from or self.date_to)

    # -- changing the view ---------------------------------------------------

    def set_filter(self, text: str) -> None:
        """Keep rows whose description or category contains ``text`` (case-insensitive)."""
        self.filter_text = text
        self._rebuild()

    def show_filtered(self, text: str, rows: Rows) -> None:
        """Show ``rows`` as those matching ``text`` (an :class:`.early_filter.EarlyFilter`'s answer)."""
        self.filter_text = text
        self.view = rows
        self._view_total = None

    def set_date_range(self, date_from: str | None, date_to: str | None) -> None:
        """Keep rows dated within ``[date_from, date_to]`` (ISO dates, either end open)."""
        self.date_from = date_from or None
        self.date_to = date_to or None
        self._rebuild()

    def sort_by(self, key: str | None, *, reverse: bool | None = None) -> None:
        """Sort by a column; sorting by the current column again flips the order."""
        if key is not None and key not in _KEYS:
            raise ValueError(f"unknown column {key!r}")
        if reverse is None:
            reverse = not self.sort_reverse if key == self.sort_key else False
        self.sort_key = key
        self.sort_reverse = reverse
        self._rebuild()

    def grown(self) -> None:
        """Show the rows appended to the data since (a streamed read), with the same sort and filter."""
        if self.sort_key is None and not self.filtered:
            # The service's order, nothing left out: no index needed.
            self.view = np.arange(len(self.data), dtype=np.int32)
            self._view_total = None
        else:
            self._rebuild()

    def _rebuild(self) -> None:
        index = self.data.index()
        order = index.order(self.sort_key, self.sort_reverse)
        keep: Mask | None = None
        needle = self.filter_text.strip().casefold()
        if needle:
            keep = index.matching(needle)
        if self.date_from or self.date_to:
            dated = index.within(self.date_from, self.date_to)
            keep = dated if keep is None else keep & dated
        self.view = order if keep is None else order[keep[order]]
        self._view_total = None

    # -- export --------------------------------------------------------------

    def export_csv(self, store: Store, path: Path) -> int | None:
        """Write the rows shown, in order, to ``path`` (atomic, 0600); the row count, or None."""
        # Runs in a thread: a filter typed meanwhile replaces ``self.view``
        # (never changes it in place), so write and count the order seen now.
        return write_csv(self.data, self.view.tolist(), store, path)
