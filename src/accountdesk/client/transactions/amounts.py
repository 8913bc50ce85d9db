"""Amounts as cents row by row, when a batch's amounts are not all plain cents.

:func:`~.compact_columns.plain_cents` reads a batch's amounts in a few NumPy
passes when every one is written ``-?D.DD``; one that is not (``7``,
``12.5``, ``0.125``) sent the whole batch through ``Decimal``, ~10 ms per
7,000 rows: a service that writes ``12.5`` for ``12.50`` (the contract does
not show how amounts are written) made every batch 2.3x slower to read.
Here each row is judged on its own: the plain ones still become cents in
NumPy, and only the others are read as ``Decimal`` (exact, as written).
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from itertools import compress

import numpy as np
import numpy.typing as npt

from accountdesk.client.transactions.arrays import _PLAIN_DIGITS, CentsAmounts, amounts_of_decimals

__all__ = ["amounts_per_row"]

_COMMA, _POINT, _MINUS, _ZERO, _NINE = (ord(c) for c in ",.-09")


def amounts_per_row(raw: list[str], exact: Callable[[str], Decimal | None]) -> CentsAmounts | None:
    """The amounts of ``raw``: plain ones as cents, the others as ``exact(text)``; None if one is None.

    ``exact`` reads an amount that is not plain cents as the row-by-row path
    would (None: it would not take it, and the checked path names the row).
    """
    found = _plain_rows(raw)
    if found is None:  # not one amount a row in the joined text: every row exactly
        plain = negative = np.zeros(len(raw), dtype=bool)
    else:
        plain, negative = found
    cents = np.zeros(len(raw), dtype=np.int64)
    if plain.any():
        text = ",".join(compress(raw, plain.tolist())).replace(".", "")
        cents[plain] = np.fromstring(text, dtype=np.int64, sep=",")
        # "-0.00": a negative zero that cents would lose; read exactly.
        plain &= ~(negative & (cents == 0))
    odd = np.flatnonzero(~plain).tolist()
    decimals: list[Decimal] = []
    for index in odd:
        value = exact(raw[index])
        if value is None:
            return None
        decimals.append(value)
    read = amounts_of_decimals(decimals)
    if odd:
        cents[odd] = read.cents
    return CentsAmounts(
        cents,
        {odd[at]: value for at, value in read.exact.items()},
        frozenset(odd[at] for at in read.fractions),
    )


def _plain_rows(
    raw: list[str],
) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]] | None:
    """Which amounts are written ``-?D.DD`` (1-13 digits before the point), and which start
    with ``-``; None when the joined text cannot say row by row."""
    text = ",".join(raw)
    if not text.isascii() or not text:
        return None
    data = np.frombuffer(text.encode("ascii"), dtype=np.uint8)
    ends = np.append(np.flatnonzero(data == _COMMA), len(data))
    if len(ends) != len(raw):  # a comma inside an amount
        return None
    starts = np.empty(len(raw), dtype=np.int64)
    starts[0] = 0
    starts[1:] = ends[:-1] + 1
    lengths = ends - starts

    def per_row(mask: npt.NDArray[np.bool_]) -> npt.NDArray[np.int64]:
        counted: npt.NDArray[np.int64] = np.concatenate(([0], np.cumsum(mask, dtype=np.int64)))
        between: npt.NDArray[np.int64] = counted[ends] - counted[starts]
        return between

    digits = per_row((data >= _ZERO) & (data <= _NINE))
    minus = per_row(data == _MINUS)
    long_enough = lengths >= 4
    first = data[np.where(long_enough, starts, 0)]
    negative = long_enough & (first == _MINUS)
    point_third_last = data[np.where(long_enough, ends - 3, 0)] == _POINT
    before = lengths - 3 - negative
    plain = (
        long_enough
        & point_third_last
        & (per_row(data == _POINT) == 1)
        & (minus == negative)
        & (digits == lengths - 1 - minus)
        & (before >= 1)
        & (before <= _PLAIN_DIGITS)
    )
    return plain, negative
