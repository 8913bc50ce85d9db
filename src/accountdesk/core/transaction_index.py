"""Arrays over a user's transactions for sorting, filtering and totals.

Pure Python sorts 100,000 ``Decimal`` amounts in 0.3 s and a million in
several seconds; a key press must repaint in 50 ms. So each sortable column
gets a NumPy key (a float per amount, a day number per date, the rank of
each text among the column's distinct texts) and ``argsort`` does the work
(stable, so ties keep the service's order, in both directions).

Text columns are held as *codes* into their distinct values: a statement
repeats the same merchants and categories thousands of times, so the
filter tests each distinct text once and spreads the answer to the rows
with one gather; a date range compares day numbers. Totals are exact:
integer cents when every amount has at most two decimals, else ``Decimal``.

Built once per download (:meth:`TransactionData.index`), in a worker thread
after the first page is painted, and grown batch by batch while a streamed
read goes on (:meth:`TransactionIndex.extend`: the arrays double their room
rather than being copied per batch); the build gives the GIL back between
chunks, so the UI keeps answering meanwhile.
"""

from __future__ import annotations

import datetime as dt
import threading
import time
from collections.abc import Callable, Sequence
from decimal import Decimal
from itertools import repeat
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["TextColumn", "TransactionIndex"]

Rows = npt.NDArray[np.int32]
Mask = npt.NDArray[np.bool_]

#: Rows converted per step before the GIL is given back.
CHUNK = 32_768
_NO_DAY = -1


def _chunked(
    convert: Callable[[Any], Any], values: Sequence[Any], dtype: npt.DTypeLike
) -> npt.NDArray[Any]:
    """``np.fromiter(map(convert, values))`` in steps, letting other threads run between them."""
    out = np.empty(len(values), dtype=dtype)
    for start in range(0, len(values), CHUNK):
        part = values[start : start + CHUNK]
        out[start : start + len(part)] = np.fromiter(map(convert, part), dtype, len(part))
        time.sleep(0)  # the UI thread gets the GIL here
    return out


class _Growing:
    """A NumPy array that rows are added to: room doubles, so adding is linear overall."""

    def __init__(self, dtype: npt.DTypeLike) -> None:
        self._room: npt.NDArray[Any] = np.empty(0, dtype=dtype)
        self.count = 0

    def add(self, values: npt.NDArray[Any]) -> None:
        needed = self.count + len(values)
        if needed > len(self._room):
            room = np.empty(max(needed, 2 * len(self._room), 1024), dtype=self._room.dtype)
            room[: self.count] = self._room[: self.count]
            self._room = room
        self._room[self.count : needed] = values
        self.count = needed

    @property
    def values(self) -> npt.NDArray[Any]:
        """The rows so far (a view: rows added later do not show in it)."""
        return self._room[: self.count]


class TextColumn:
    """A text column as codes into its distinct values, in order of first appearance."""

    def __init__(self, values: Sequence[str] = ()) -> None:
        self.uniques: list[str] = []
        self._position: dict[str, int] = {}
        self._codes = _Growing(np.int32)
        self._folded: list[str] = []
        self.extend(values)

    def extend(self, values: Sequence[str]) -> None:
        """Add rows (new texts get the next codes)."""
        position, uniques = self._position, self.uniques
        for text in dict.fromkeys(values):
            if text not in position:
                position[text] = len(uniques)
                uniques.append(text)
        self._codes.add(_chunked(position.__getitem__, values, np.int32))

    @property
    def codes(self) -> Rows:
        return self._codes.values

    @property
    def folded(self) -> list[str]:
        """The distinct texts casefolded (what sorting and the filter compare)."""
        if len(self._folded) < len(self.uniques):
            self._folded += [text.casefold() for text in self.uniques[len(self._folded) :]]
        return self._folded

    def rank(self) -> Rows:
        """Each row's rank among the column's texts in casefolded order."""
        folded = self.folded
        # Texts equal once casefolded ("CORNER SHOP", "corner shop") share a
        # rank: a tie, left in the service's order.
        rank_of_text = {text: rank for rank, text in enumerate(sorted(set(folded)))}
        rank_of_code = np.fromiter(map(rank_of_text.__getitem__, folded), np.int32, len(folded))
        result: Rows = rank_of_code[self.codes]
        return result

    def containing(self, needle: str) -> Mask:
        """Rows whose text contains ``needle`` (already casefolded)."""
        folded = self.folded
        hits = np.fromiter((needle in text for text in folded), np.bool_, len(folded))
        result: Mask = hits[self.codes]
        return result


def _day(text: str) -> int:
    return dt.date.fromisoformat(text).toordinal() if text else _NO_DAY


def _cents(
    amounts: Sequence[Decimal], floats: npt.NDArray[np.float64]
) -> npt.NDArray[np.int64] | None:
    """Every amount in integer cents, or None when one has a fraction of a cent.

    ``floats`` are the amounts as floats (the sort key, already made): each
    amount's cents are guessed from them in NumPy and the guess is checked
    exactly against the ``Decimal`` (``Decimal == int`` compares exactly),
    so a sub-cent amount is never rounded into cents. A chunk at a time (the
    GIL is given back between chunks); 1.6x faster than converting each
    ``Decimal`` to cents (100,000 rows: 61 -> 39 ms).
    """
    # (``not <``: a NaN, which no read lets in, also takes the exact way.)
    if len(floats) and not float(np.abs(floats).max()) < _EXACT_FLOAT_CENTS:
        return _cents_exactly(amounts)  # guesses from floats would be inexact
    out: npt.NDArray[np.int64] = np.rint(floats * 100).astype(np.int64)
    for start in range(0, len(amounts), CHUNK):
        part = amounts[start : start + CHUNK]
        scaled = list(map(Decimal.scaleb, part, repeat(2)))
        if scaled != out[start : start + len(part)].tolist():
            return None
        time.sleep(0)
    return out


#: Amounts this large as floats no longer give their cents exactly (2**53 / 100, with margin).
_EXACT_FLOAT_CENTS = 2.0**50 / 100


def _cents_exactly(amounts: Sequence[Decimal]) -> npt.NDArray[np.int64] | None:
    """:func:`_cents` by ``Decimal`` arithmetic alone (amounts past 2**50 cents)."""
    out = np.empty(len(amounts), dtype=np.int64)
    for start in range(0, len(amounts), CHUNK):
        part = amounts[start : start + CHUNK]
        scaled = list(map(Decimal.scaleb, part, repeat(2)))
        whole = list(map(int, scaled))
        if whole != scaled:  # int == Decimal compares exactly
            return None
        try:
            out[start : start + len(part)] = whole
        except OverflowError:  # past 64 bits: Decimal arithmetic
            return None
        time.sleep(0)
    return out


class TransactionIndex:
    """Sort keys, filter codes and cents of one :class:`~.transactions.TransactionData`.

    :meth:`extend` adds rows (a streamed read's batches); every array then
    covers them and the cached orders are dropped.
    """

    def __init__(
        self,
        *,
        dates: Sequence[str],
        descriptions: Sequence[str],
        categories: Sequence[str],
        amounts: Sequence[Decimal],
        pending: Sequence[bool],
    ) -> None:
        self.count = 0
        self.dates = TextColumn()
        self.descriptions = TextColumn()
        self.categories = TextColumn()
        self._days = _Growing(np.int32)
        self._amounts = _Growing(np.float64)
        self._pending = _Growing(np.int8)
        self._cents: _Growing | None = _Growing(np.int64)
        self._day_of_code: Rows = np.empty(0, dtype=np.int32)
        self._largest_cents = 0
        self._orders: dict[tuple[str | None, bool], Rows] = {}
        self._lock = threading.Lock()
        self.extend(
            dates=dates,
            descriptions=descriptions,
            categories=categories,
            amounts=amounts,
            pending=pending,
        )

    def extend(
        self,
        *,
        dates: Sequence[str],
        descriptions: Sequence[str],
        categories: Sequence[str],
        amounts: Sequence[Decimal],
        pending: Sequence[bool],
    ) -> None:
        """Add rows after the ones indexed (call it from a worker for big batches)."""
        with self._lock:
            known_dates = len(self.dates.uniques)
            self.dates.extend(dates)
            self.descriptions.extend(descriptions)
            self.categories.extend(categories)
            new_days = np.fromiter(
                map(_day, self.dates.uniques[known_dates:]),
                np.int32,
                len(self.dates.uniques) - known_dates,
            )
            self._day_of_code = np.concatenate([self._day_of_code, new_days])
            self._days.add(self._day_of_code[self.dates.codes[self.count :]])
            floats = _chunked(float, amounts, np.float64)
            self._amounts.add(floats)
            self._pending.add(np.fromiter(pending, np.int8, len(pending)))
            if self._cents is not None:
                cents = _cents(amounts, floats)
                if cents is None:
                    self._cents = None
                else:
                    self._largest_cents = max(
                        self._largest_cents, int(np.abs(cents).max(initial=0))
                    )
                    self._cents.add(cents)
            self.count += len(dates)
            # Exact, and no sum of them can overflow: else totals add Decimals.
            if self._cents is not None and self._largest_cents * max(self.count, 1) >= 2**62:
                self._cents = None
            self._orders.clear()

    @property
    def days(self) -> Rows:
        return self._days.values

    @property
    def amounts(self) -> npt.NDArray[np.float64]:
        return self._amounts.values

    @property
    def pending(self) -> npt.NDArray[np.int8]:
        return self._pending.values

    @property
    def cents(self) -> npt.NDArray[np.int64] | None:
        return None if self._cents is None else self._cents.values

    def _key(self, column: str) -> npt.NDArray[Any]:
        if column == "date":
            return self.days
        if column == "amount":
            return self.amounts
        if column == "pending":
            return self.pending
        if column == "description":
            return self.descriptions.rank()
        if column == "category":
            return self.categories.rank()
        raise ValueError(f"unknown column {column!r}")

    def order(self, column: str | None, reverse: bool) -> Rows:
        """Row indexes sorted by ``column`` (None: the service's order); cached, read-only."""
        with self._lock:
            cached = self._orders.get((column, reverse))
            if cached is None:
                if column is None:
                    cached = np.arange(self.count, dtype=np.int32)
                    if reverse:
                        cached = cached[::-1].copy()
                else:
                    key = self._key(column)
                    # Negating keeps a stable sort stable: ties stay in the service's order.
                    sorted_rows = np.argsort(-key if reverse else key, kind="stable")
                    cached = sorted_rows.astype(np.int32)
                cached.flags.writeable = False
                self._orders[(column, reverse)] = cached
            return cached

    def forget_orders(self) -> None:
        """Drop the cached orders (benchmarks measure a first sort this way)."""
        with self._lock:
            self._orders.clear()

    def matching(self, needle: str) -> Mask:
        """Rows whose description or category contains ``needle`` (casefolded)."""
        with self._lock:
            result: Mask = self.descriptions.containing(needle) | self.categories.containing(needle)
        return result

    def within(self, date_from: str | None, date_to: str | None) -> Mask:
        """Rows dated within ``[date_from, date_to]`` (ISO; a row without a date never is)."""
        mask: Mask = self.days != _NO_DAY
        if date_from:
            mask &= self.days >= _day(date_from)
        if date_to:
            mask &= self.days <= _day(date_to)
        return mask

    def total(self, rows: Rows, amounts: Sequence[Decimal]) -> Decimal:
        """The exact sum of the amounts of ``rows``."""
        if self.cents is not None:
            return Decimal(int(self.cents[rows].sum())).scaleb(-2)
        return sum((amounts[i] for i in rows.tolist()), Decimal(0))
