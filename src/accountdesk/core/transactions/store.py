"""A user's transactions held compactly: a million rows in ~45 bytes each, not ~270.

:class:`TransactionStore` keeps every column in arrays that rows are added
to, batch by batch, as the client decoded them (its compact columns:
:mod:`accountdesk.client.transactions.arrays`): descriptions and categories as
int32 codes into their distinct texts (:class:`TextColumn`),
dates as int32 day numbers, amounts as int64 cents with a ``Decimal`` only
for the rows that are not plain cents, pending one byte a row, ids as the client's joined strings.
The index (:mod:`.transaction_index`) sorts and filters these same arrays:
nothing is copied for it.

Each column is also read as a sequence of its Python values
(:meth:`TransactionStore.column`): only the rows drawn, exported or
copied are made into strings and ``Decimal`` values.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Sequence
from decimal import Decimal
from typing import Any

import numpy as np
import numpy.typing as npt

from accountdesk.client.transactions.arrays import (
    NO_DAY,
    CentsAmounts,
    CodedTexts,
    Column,
    DayDates,
    JoinedIds,
    amounts_of_decimals,
    date_text,
    day_numbers,
)

__all__ = ["NO_DAY", "Growing", "TextColumn", "TransactionStore"]

Rows = npt.NDArray[np.int32]
Mask = npt.NDArray[np.bool_]


class Growing:
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

    def at(self, row: int) -> Any:
        """Row ``row``'s value as a Python object (a row already added: no bounds kept here)."""
        return self._room.item(row)


class TextColumn:
    """A text column as codes into its distinct values, in order of first appearance."""

    def __init__(self, values: Sequence[str] = ()) -> None:
        self.uniques: list[str] = []
        self._position: dict[str, int] = {}
        self._codes = Growing(np.int32)
        self._folded: list[str] = []
        if values:
            self.extend(values)

    def extend(self, values: Sequence[str]) -> None:
        """Add rows (new texts get the next codes); a client's coded column is mapped whole."""
        if isinstance(values, CodedTexts):
            # The batch's distinct texts are looked up (a C loop), new ones added.
            position = self._position
            found = list(map(position.get, values.uniques))
            if None in found:
                new = [
                    text for text, code in zip(values.uniques, found, strict=True) if code is None
                ]
                if len(set(new)) < len(new):  # two texts the same once sanitised
                    new = list(dict.fromkeys(new))
                position.update(
                    zip(new, range(len(self.uniques), len(self.uniques) + len(new)), strict=True)
                )
                self.uniques += new
                found = list(map(position.__getitem__, values.uniques))
            remap = np.array(found, dtype=np.int32)
            self._codes.add(remap[values.codes])
            return
        for text in dict.fromkeys(values):
            self._code(text)
        self._codes.add(np.fromiter(map(self._position.__getitem__, values), np.int32, len(values)))

    def _code(self, text: str) -> int:
        code = self._position.get(text)
        if code is None:
            code = self._position[text] = len(self.uniques)
            self.uniques.append(text)
        return code

    @property
    def codes(self) -> Rows:
        return self._codes.values

    def text(self, row: int) -> str:
        text: str = self.uniques[self._codes.at(row)]
        return text

    @property
    def folded(self) -> list[str]:
        """The distinct texts casefolded (what sorting and the filter compare)."""
        if len(self._folded) < len(self.uniques):
            self._folded += [text.casefold() for text in self.uniques[len(self._folded) :]]
        return self._folded

    def rank(self, count: int) -> Rows:
        """The first ``count`` rows' ranks among the column's texts in casefolded order."""
        folded = self.folded
        # Texts equal once casefolded ("CORNER SHOP", "corner shop") share a
        # rank: a tie, left in the service's order.
        rank_of_text = {text: rank for rank, text in enumerate(sorted(set(folded)))}
        rank_of_code = np.fromiter(map(rank_of_text.__getitem__, folded), np.int32, len(folded))
        result: Rows = rank_of_code[self.codes[:count]]
        return result

    def containing(self, needle: str, count: int) -> Mask:
        """Which of the first ``count`` rows' texts contain ``needle`` (already casefolded)."""
        folded = self.folded
        hits = np.fromiter((needle in text for text in folded), np.bool_, len(folded))
        result: Mask = hits[self.codes[:count]]
        return result


class TransactionStore:
    """Every column of a read's rows, compact; :meth:`append` adds a batch's rows after them."""

    def __init__(self) -> None:
        #: Rows every column holds (set last by :meth:`append`: a reader never sees a part row).
        self.count = 0
        self._days = Growing(np.int32)
        self.descriptions = TextColumn()
        self.categories = TextColumn()
        self._cents = Growing(np.int64)
        #: The rows whose amount is not written as plain cents (``7``, ``0.125``, ``-0.00``).
        self.exact: dict[int, Decimal] = {}
        #: Those of them that are no whole number of cents (their cents are 0).
        self.fractions: set[int] = set()
        #: The largest cents held, in absolute value (whether an int64 sum may overflow).
        self.largest_cents = 0
        self._pending = Growing(np.bool_)
        # Ids are kept in the batches the client made (joined strings), found by start row.
        self._id_batches: list[Sequence[str]] = []
        self._id_starts: list[int] = []

    def append(
        self,
        *,
        transaction_ids: Sequence[str],
        dates: Sequence[str],
        descriptions: Sequence[str],
        categories: Sequence[str],
        amounts: Sequence[Decimal],
        pending: Sequence[bool],
    ) -> None:
        """Add rows (the client's compact columns are taken as they are, lists converted)."""
        size = len(transaction_ids)
        if any(
            len(column) != size for column in (dates, descriptions, categories, amounts, pending)
        ):
            raise ValueError("transaction columns differ in length")
        start = self.count
        if size:
            ids = (
                transaction_ids if isinstance(transaction_ids, JoinedIds) else list(transaction_ids)
            )
            self._id_batches.append(ids)
            self._id_starts.append(start)
        if not isinstance(dates, DayDates):
            converted = day_numbers([day or None for day in dates])
            if converted is None:
                raise ValueError("a date that is not YYYY-MM-DD")
            dates = converted
        self._days.add(dates.days)
        self.descriptions.extend(descriptions)
        self.categories.extend(categories)
        cents = amounts if isinstance(amounts, CentsAmounts) else amounts_of_decimals(amounts)
        self._cents.add(cents.cents)
        if size:
            self.largest_cents = max(self.largest_cents, int(np.abs(cents.cents).max()))
        for row, amount in cents.exact.items():
            self.exact[start + row] = amount
        self.fractions.update(start + row for row in cents.fractions)
        flags = getattr(pending, "values", None)
        if not isinstance(flags, np.ndarray):
            flags = np.fromiter(pending, np.bool_, size)
        self._pending.add(flags)
        self.count = start + size

    def exact_rows(self) -> list[tuple[int, Decimal]]:
        """The rows of :attr:`exact` and their amounts, as they are now.

        (Copied in one C call: a read may add rows on the loop while a
        worker thread reads these.)
        """
        return list(self.exact.items())

    def fraction_rows(self) -> list[int]:
        """The rows of :attr:`fractions`, as they are now (copied as :meth:`exact_rows`)."""
        return list(self.fractions)

    @property
    def cents(self) -> npt.NDArray[np.int64]:
        """Every row's amount in cents (0 for the rows in :attr:`fractions`)."""
        return self._cents.values

    @property
    def days(self) -> Rows:
        """Every row's date as a day number from 1970-01-01 (``NO_DAY``: none)."""
        return self._days.values

    def date(self, row: int) -> str:
        return date_text(self._days.at(row))

    @property
    def pending(self) -> Mask:
        return self._pending.values

    def transaction_id(self, row: int) -> str:
        batch = bisect.bisect_right(self._id_starts, row) - 1
        ids = self._id_batches[batch]
        at = row - self._id_starts[batch]
        return ids._at(at) if isinstance(ids, JoinedIds) else ids[at]

    def is_pending(self, row: int) -> bool:
        return bool(self._pending.at(row))

    def amount(self, row: int) -> Decimal:
        exact = self.exact.get(row) if self.exact else None
        if exact is not None:
            return exact
        return Decimal(self._cents.at(row)).scaleb(-2)

    def column(self, name: str) -> Sequence[Any]:
        """One column as a read-only sequence of its values (its rows when asked)."""
        return _StoreColumn(self, name)


class _StoreColumn(Column[Any]):
    """A column of a :class:`TransactionStore`, read as a list of Python values."""

    __slots__ = ("_at_row", "_store")

    def __init__(self, store: TransactionStore, name: str) -> None:
        self._store = store
        self._at_row: Callable[[int], Any] = {
            "transaction_id": store.transaction_id,
            "date": store.date,
            "description": store.descriptions.text,
            "category": store.categories.text,
            "amount": store.amount,
            "pending": store.is_pending,
        }[name]

    def __len__(self) -> int:
        return self._store.count

    def _at(self, index: int) -> Any:
        return self._at_row(index)
