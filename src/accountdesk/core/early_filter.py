"""The filter over a list still streaming in, before its index is built.

The index (:mod:`.transaction_index`) answers a filter over 100,000 rows in
milliseconds, but building it for the rows read so far takes longer than a
key press may (25,000 rows ~125 ms on the UI's loop, under the lock the
read's thread appends under). A filter typed while the rows stream in does
not wait for it: :class:`EarlyFilter` tests each distinct description and
category once, spreads the answer to the rows with ``map`` in C, and on
each new batch tests only the rows that came (a few ms per 25,000 rows).
The rows keep the service's order; a sort or a date range needs the index.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from .transaction_index import Rows
    from .transactions import TransactionData

__all__ = ["EarlyFilter"]


class EarlyFilter:
    """The rows of one data whose description or category contains ``text``, grown batch by batch."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._needle = text.strip().casefold()
        #: Each distinct text seen, and whether it contains the needle.
        self._tested: dict[str, bool] = {}
        self._matching: set[str] = set()
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
            descriptions = data.descriptions[start:end]
            categories = data.categories[start:end]
            self._test(descriptions)
            self._test(categories)
            count, matching = end - start, self._matching.__contains__
            keep = np.fromiter(map(matching, descriptions), np.bool_, count)
            keep |= np.fromiter(map(matching, categories), np.bool_, count)
            found = (np.flatnonzero(keep) + start).astype(np.int32)
        rows = np.concatenate([self._rows, found]) if len(self._rows) else found
        rows.flags.writeable = False
        self._rows, self.seen = rows, end
        return rows

    def _test(self, texts: list[str]) -> None:
        tested, needle = self._tested, self._needle
        for text in set(texts).difference(tested):
            hit = tested[text] = needle in text.casefold()
            if hit:
                self._matching.add(text)
