"""Transaction columns held as arrays: a million rows in tens of bytes each.

A list of Python objects costs per row: an id string (~62 bytes), a date
string (59), a ``Decimal`` (104) and a list slot for each of six columns
(48): ~270 bytes a row, 2x the JSON it came from. The columns here keep

- amounts as int64 cents (:class:`CentsAmounts`), with a ``Decimal`` kept
  only for the rows that are not a plain two-decimal amount (``7``,
  ``0.125``, ``-0.00``, 14 digits or more before the point): exact either way;
- dates as int32 day numbers (:class:`DayDates`);
- descriptions and categories as int32 codes into their distinct values
  (:class:`CodedTexts`);
- ids as one string with a separator and int64 offsets (:class:`JoinedIds`);
- flags as one byte each (:class:`Flags`);

made while a batch is decoded, not in a pass after it. Each is a read-only
sequence that behaves as the list it replaces (indexing, slicing into a
list, ``len``, iteration, ``==`` with a list); the row's Python object is
made only when asked for (rows drawn, exported, copied).

NumPy is the app's dependency, not the client's: this module is imported
only when NumPy is installed (:func:`compact_module`); without it the
columns are plain lists.
"""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Callable, Iterable, Iterator, Sequence
from decimal import Decimal
from typing import Any, Generic, TypeVar, overload

import numpy as np
import numpy.typing as npt

__all__ = [
    "CentsAmounts",
    "CodedTexts",
    "Column",
    "DayDates",
    "Flags",
    "JoinedIds",
    "amounts_of_decimals",
    "coded_texts",
    "date_text",
    "day_numbers",
    "flags_of",
    "joined_ids",
    "plain_cents",
]

T = TypeVar("T")

_COMMA, _POINT, _MINUS = ord(","), ord("."), ord("-")
#: Digits before the point a plain amount may have: its cents stay far inside
#: int64 and exact as a float (the sort key), 10**15 < 2**53.
_PLAIN_DIGITS = 13
#: The day number of a row without a date: below every real one, and its
#: negation (a reversed sort) above every real one, in int32.
NO_DAY = -(2**31) + 1
_EPOCH = dt.date(1970, 1, 1).toordinal()
_FIRST_DAY = dt.date(1, 1, 1).toordinal() - _EPOCH
#: Separates the ids in :class:`JoinedIds` (a control: no usable id holds one).
_SEPARATOR = "\x00"


class Column(Sequence[T], Generic[T]):
    """A read-only column that behaves as a list of its values."""

    __slots__ = ()

    def _at(self, index: int) -> T:
        raise NotImplementedError

    @overload
    def __getitem__(self, index: int) -> T: ...
    @overload
    def __getitem__(self, index: slice) -> list[T]: ...
    def __getitem__(self, index: int | slice) -> T | list[T]:
        size = len(self)
        if isinstance(index, slice):
            return [self._at(i) for i in range(*index.indices(size))]
        index = index.__index__()
        if index < 0:
            index += size
        if not 0 <= index < size:
            raise IndexError("column index out of range")
        return self._at(index)

    def __iter__(self) -> Iterator[T]:
        return map(self._at, range(len(self)))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (str, bytes)) or not isinstance(other, Sequence):
            return NotImplemented
        return len(self) == len(other) and list(self) == list(other)

    __hash__ = None  # type: ignore[assignment]  # mutable-looking, like a list

    def __repr__(self) -> str:
        return f"{type(self).__name__}(rows={len(self)})"


class CodedTexts(Column[str]):
    """Texts as codes into ``uniques`` (each distinct text once)."""

    __slots__ = ("codes", "uniques")

    def __init__(self, uniques: list[str], codes: npt.NDArray[np.int32]) -> None:
        self.uniques = uniques
        self.codes = codes

    def __len__(self) -> int:
        return len(self.codes)

    def _at(self, index: int) -> str:
        return self.uniques[self.codes.item(index)]

    def __iter__(self) -> Iterator[str]:
        return map(self.uniques.__getitem__, self.codes.tolist())


class CentsAmounts(Column[Decimal]):
    """Amounts as int64 cents; ``exact`` keeps the ``Decimal`` of each row not written as plain cents.

    A row in ``exact`` still has its cents when it is a whole number of
    them (``7`` is 700); ``fractions`` lists the rows that are not (``0.125``,
    or past 2**53 cents), whose cents are 0: only their ``Decimal`` counts.
    """

    __slots__ = ("cents", "exact", "fractions")

    def __init__(
        self,
        cents: npt.NDArray[np.int64],
        exact: dict[int, Decimal],
        fractions: frozenset[int] = frozenset(),
    ) -> None:
        self.cents = cents
        self.exact = exact
        self.fractions = fractions

    def __len__(self) -> int:
        return len(self.cents)

    def _at(self, index: int) -> Decimal:
        exact = self.exact.get(index) if self.exact else None
        if exact is not None:
            return exact
        return Decimal(self.cents.item(index)).scaleb(-2)


class JoinedIds(Column[str]):
    """Ids in one string, each followed by a separator; ``starts`` has one entry more than rows."""

    __slots__ = ("starts", "text")

    def __init__(self, text: str, starts: npt.NDArray[np.integer[Any]]) -> None:
        self.text = text
        self.starts = starts

    def __len__(self) -> int:
        return len(self.starts) - 1

    def _at(self, index: int) -> str:
        starts = self.starts
        return self.text[starts.item(index) : starts.item(index + 1) - 1]


class DayDates(Column[str]):
    """ISO dates as int32 day numbers from 1970-01-01 (:data:`NO_DAY`: the service sent none)."""

    __slots__ = ("days",)

    def __init__(self, days: npt.NDArray[np.int32]) -> None:
        self.days = days

    def __len__(self) -> int:
        return len(self.days)

    def _at(self, index: int) -> str:
        return date_text(self.days.item(index))

    def __iter__(self) -> Iterator[str]:
        return map(date_text, self.days.tolist())


class Flags(Column[bool]):
    """True/False flags, one byte each."""

    __slots__ = ("values",)

    def __init__(self, values: npt.NDArray[np.bool_]) -> None:
        self.values = values

    def __len__(self) -> int:
        return len(self.values)

    def _at(self, index: int) -> bool:
        return bool(self.values.item(index))

    def __iter__(self) -> Iterator[bool]:
        return iter(self.values.tolist())


def plain_cents(raw: list[str]) -> npt.NDArray[np.int64] | None:
    """The cents of amounts all written ``-?D.DD`` (1-13 digits before the point), else None.

    Checked over the joined text in a few NumPy passes (one point per
    amount, two characters after it, a minus only first, digits elsewhere)
    rather than per string; ``-0.00`` (a negative zero cents would lose) is
    refused too. None sends the batch to the exact path.
    """
    count = len(raw)
    if not count:
        return np.empty(0, dtype=np.int64)
    text = ",".join(raw)
    if not text.isascii():
        return None
    data = np.frombuffer(text.encode("ascii"), dtype=np.uint8)
    ends = np.append(np.flatnonzero(data == _COMMA), len(data))
    points = np.flatnonzero(data == _POINT)
    if len(ends) != count or len(points) != count or not bool(((ends - points) == 3).all()):
        return None
    starts = np.empty(count, dtype=np.int64)
    starts[0] = 0
    starts[1:] = ends[:-1] + 1
    negative = data[starts] == _MINUS
    minus_count = int(np.count_nonzero(data == _MINUS))
    if minus_count != int(np.count_nonzero(negative)):
        return None  # a minus not in first place
    digits = np.count_nonzero((data >= ord("0")) & (data <= ord("9")))
    if int(digits) != len(data) - 2 * count + 1 - minus_count:
        return None  # a character that is not a digit, point, comma or first minus
    before = points - starts - negative
    if int(before.min()) < 1 or int(before.max()) > _PLAIN_DIGITS:
        return None
    cents = np.fromstring(text.replace(".", ""), dtype=np.int64, sep=",")
    if len(cents) != count or bool((negative & (cents == 0)).any()):
        return None
    return cents


def amounts_of_decimals(amounts: Sequence[Decimal]) -> CentsAmounts:
    """Checked ``Decimal`` amounts as :class:`CentsAmounts` (the exact path: row by row)."""
    cents = np.zeros(len(amounts), dtype=np.int64)
    exact: dict[int, Decimal] = {}
    fractions: set[int] = set()
    for index, amount in enumerate(amounts):
        sign, digits, exponent = amount.as_tuple()
        plain = exponent == -2 and len(digits) <= _PLAIN_DIGITS + 2 and (any(digits) or not sign)
        scaled = amount.scaleb(2)
        whole = int(scaled) if scaled == scaled.to_integral_value() else None
        if whole is not None and abs(whole) < _EXACT_CENTS:
            cents[index] = whole
        else:
            fractions.add(index)
        if not plain:
            exact[index] = amount
    return CentsAmounts(cents, exact, frozenset(fractions))


#: Cents past this are not exact as a float (the sort key): kept as Decimal only.
_EXACT_CENTS = 2**53


def coded_texts(
    column: Sequence[str | None], clean: Callable[[str], str], distinct: Iterable[str]
) -> CodedTexts:
    """``column`` as codes into ``distinct`` (its texts but None), each made ``clean`` once; None as ""."""
    uniques = list(distinct)
    code: dict[str | None, int] = dict(zip(uniques, range(len(uniques)), strict=True))
    code[None] = len(uniques)
    uniques = [*map(clean, uniques), ""]
    codes = np.array(list(map(code.__getitem__, column)), dtype=np.int32)
    return CodedTexts(uniques, codes)


def joined_ids(ids: list[str], ascii_ids: bool) -> JoinedIds:
    """Checked ids (none holds a control character) as :class:`JoinedIds`."""
    text = _SEPARATOR.join(ids) + _SEPARATOR
    ends: npt.NDArray[Any] | None = None
    if ascii_ids:
        ends = np.flatnonzero(np.frombuffer(text.encode("ascii"), dtype=np.uint8) == 0)
    if ends is None or len(ends) != len(ids):  # non-ASCII (or, never, a separator in an id)
        lengths = np.fromiter(map(len, ids), dtype=np.int64, count=len(ids))
        ends = np.cumsum(lengths + 1) - 1
    # int32 offsets while they fit (a batch's ids are far below 2 GB of text).
    starts: npt.NDArray[Any] = np.zeros(len(ids) + 1, np.int32 if len(text) < 2**31 else np.int64)
    starts[1:] = ends + 1
    return JoinedIds(text, starts)


def day_numbers(dates: Sequence[str | None]) -> DayDates | None:
    """Dates ``YYYY-MM-DD`` (or None) as :class:`DayDates`; None if one is not a real date.

    The shape is checked on the texts joined with a separator, as one
    array of 11 bytes a row (ten digits and dashes, then the separator: so
    every text is exactly 10 long), the calendar by NumPy's parse of the
    same bytes (``2026-02-30`` is refused, as is year 0, which Python's
    dates do not have).
    """
    present = dates if None not in dates else [day for day in dates if day is not None]
    days = np.full(len(dates), NO_DAY, dtype=np.int32)
    if not present:
        return DayDates(days)
    joined = "\x00".join(present) + "\x00"  # type: ignore[arg-type]  # None left out
    if len(joined) != 11 * len(present) or not joined.isascii():
        return None
    chars = np.frombuffer(joined.encode("ascii"), dtype=np.uint8).reshape(-1, 11)
    digits = chars[:, _DIGITS]
    if not (
        (chars[:, 10] == 0).all()
        and (chars[:, _DASHES] == _DASH).all()
        and ((digits >= _ZERO) & (digits <= _NINE)).all()
    ):
        return None
    try:
        parsed = np.ascontiguousarray(chars[:, :10]).view("S10").ravel().astype("datetime64[D]")
    except ValueError:  # 2026-02-30
        return None
    numbers = parsed.astype(np.int64)
    if int(numbers.min()) < _FIRST_DAY:
        return None
    if len(present) == len(dates):
        days[:] = numbers
    else:
        days[np.fromiter((day is not None for day in dates), np.bool_, len(dates))] = numbers
    return DayDates(days)


_DASHES = [4, 7]
_DIGITS = [0, 1, 2, 3, 5, 6, 8, 9]
_DASH, _ZERO, _NINE = ord("-"), ord("0"), ord("9")


@functools.lru_cache(maxsize=4096)  # the rows on screen, their neighbours: a few hundred days
def date_text(day: int) -> str:
    """A day number as ``YYYY-MM-DD`` ("" for :data:`NO_DAY`)."""
    return "" if day == NO_DAY else dt.date.fromordinal(day + _EPOCH).isoformat()


def flags_of(values: Sequence[bool]) -> Flags:
    return Flags(np.fromiter(values, dtype=np.bool_, count=len(values)))


def as_list(column: Sequence[Any]) -> list[Any]:
    """A column as a plain list (lists are given back as they are)."""
    return column if isinstance(column, list) else list(column)
