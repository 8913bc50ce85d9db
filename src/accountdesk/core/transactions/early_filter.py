"""The filter over a list still streaming in, before its index is built.

The index (:mod:`.transaction_index`) answers a filter over 100,000 rows in
milliseconds, but building it for the rows read so far takes longer than a
key press may (25,000 rows ~125 ms on the UI's loop, under the lock the
read's thread appends under). A filter typed while the rows stream in does
not wait for it: :class:`EarlyFilter` tests each distinct description and
category once (by its code, :mod:`.transaction_columns`), spreads the
answer to the rows with one gather, and on each new batch tests only the
new texts and gathers for the rows that came.
The rows keep the service's order; a sort or a date range needs the index.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from accountdesk.core.transactions.data import TransactionData
    from accountdesk.core.transactions.store import Mask, Rows, TextColumn

__all__ = ["EarlyFilter"]


class EarlyFilter:
    """The rows of one data whose description or category contains ``text``, grown batch by batch."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._needle = text.strip().casefold()
        #: Per text column: whether each distinct text (by code) contains the needle.
        self._hits: dict[str, Mask] = {}
        self._rows: Rows = np.empty(0, dtype=np.int32)
        #: Rows of the data tested so far (the first ``seen``).
        self.seen = 0

    def rows(self, data: TransactionData) -> Rows:
        """Indexes of the matching rows of ``data`` so far, in the service's order (read-only)."""
        end = len(data)  # every column holds at least these rows (see TransactionData.append)
        start = self.seen
        if end <= start:
            return self._rows
        if not self._needle:
            found: Rows = np.arange(start, end, dtype=np.int32)
        else:
            store = data.store
            keep = self._test("description", store.descriptions)[
                store.descriptions.codes[start:end]
            ]
            keep |= self._test("category", store.categories)[store.categories.codes[start:end]]
            found = (np.flatnonzero(keep) + start).astype(np.int32)
        rows = np.concatenate([self._rows, found]) if len(self._rows) else found
        rows.flags.writeable = False
        self._rows, self.seen = rows, end
        return rows

    def _test(self, key: str, column: TextColumn) -> Mask:
        """Each distinct text of ``column`` tested once: new texts since the last batch only."""
        hits = self._hits.get(key, np.empty(0, dtype=np.bool_))
        uniques, needle = column.uniques, self._needle
        if len(hits) < len(uniques):
            new = uniques[len(hits) :]
            tested = np.fromiter((needle in text.casefold() for text in new), np.bool_, len(new))
            hits = self._hits[key] = np.concatenate([hits, tested])
        return hits
