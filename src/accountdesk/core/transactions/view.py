"""One screen's look at a user's transactions: its filter, date range and sort, and the rows that pass.

No Textual here. A :class:`TransactionView` holds the filter, the date range,
the sort, and the array of row indexes (into :class:`~.data.TransactionData`)
that pass, in order. Sorting and filtering work on NumPy arrays
(:mod:`.index`), so a million rows answer a key in milliseconds; the table
widget draws only the rows on screen. The rows shown are what the CSV
export writes (:mod:`.export`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from accountdesk.core.store import Store
from accountdesk.core.transactions.columns import SORT_KEYS, TransactionRow
from accountdesk.core.transactions.data import TransactionData
from accountdesk.core.transactions.export import write_csv
from accountdesk.core.transactions.index import Mask, Rows

if TYPE_CHECKING:
    from accountdesk.client import Transaction

__all__ = ["TransactionView"]


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
        if key is not None and key not in SORT_KEYS:
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

    def export_csv(
        self, store: Store, path: Path, *, shown: Callable[[str], str] | None = None
    ) -> int | None:
        """Write the rows shown, in order, to ``path`` (atomic, 0600); the row count, or None.

        ``shown``: each text as it may leave the app (presenting: the fakes).
        """
        # Runs in a thread: a filter typed meanwhile replaces ``self.view``
        # (never changes it in place), so write and count the order seen now.
        return write_csv(self.data, self.view.tolist(), store, path, shown=shown)
