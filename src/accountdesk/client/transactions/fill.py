"""A batch's decoded rows into columns: 100,000 rows without 100,000 pydantic models.

A batch of the stream (:mod:`.batch`) is decoded by msgspec straight into
typed rows (:mod:`.wire`), which checks types and id lengths in C while it
parses: 4x faster than ``json.loads`` building dicts (56 vs 216 ms for
``user_bulk``'s 14 MB). :func:`_fill_from_rows` then checks each column
whole, with the same rules as the :class:`~accountdesk.client.Transaction`
model: ids refused when unusable, amounts bounded, text sanitised and
bounded, dates real ``YYYY-MM-DD`` dates. Per-string work is avoided where a
whole column can be checked at once: the sanitiser's regex runs over the
joined column and individual strings are looked at only when it matches.
Amounts written as JSON numbers are decoded again with each amount's text
as written (:mod:`.wire`), and any amount that is not plain cents is read
on its own (:mod:`.amounts`), not its whole batch.

What this path refuses (a wrong type, a lax form such as ``"pending":
"yes"``, an amount with an exponent) the batch hands to the row-by-row path
(:mod:`.checked`): slower, but it accepts what the model accepts and names
the first bad value.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Collection, Sequence
from decimal import Decimal, InvalidOperation
from typing import Any

from accountdesk.client._bounds import service_id_problem
from accountdesk.client._sanitise import MAX_TEXT_LENGTH, has_unsafe_characters, service_text
from accountdesk.client.transactions.checked import check_ids as _check_ids
from accountdesk.client.transactions.columns import ColumnsError, TransactionColumns, compact_module
from accountdesk.client.transactions.wire import (
    PLAIN_AMOUNT_LENGTH,
    PLAIN_AMOUNTS,
    WireTransaction,
    amount_texts,
    exact_amount,
)

__all__ = ["ColumnsError", "TransactionColumns"]

_DATES = re.compile(r"(?:[0-9]{4}-[0-9]{2}-[0-9]{2})*")


def _refuse_constant(name: str) -> Any:
    raise ColumnsError("body", f"{name} is not a number JSON allows")


def _fill_from_rows(
    columns: TransactionColumns, rows: list[WireTransaction[Any]], offset: int = 0
) -> bool:
    """:func:`_fill_columns` with msgspec's decoded rows (the whole read's, or a batch's)."""
    amounts: list[Any] | None = [row.amount for row in rows]
    if amounts and not isinstance(amounts[0], str):  # as written (numbers)
        amounts = amount_texts(amounts)
    if amounts is None:
        return False
    return _fill_columns(
        columns,
        ids=[row.transaction_id for row in rows],
        dates=[row.date for row in rows],
        raw_amounts=amounts,
        descriptions=[row.description for row in rows],
        categories=[row.category for row in rows],
        pending=[row.pending for row in rows],
        offset=offset,
    )


def _optional_id(value: object, where: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise ColumnsError(where, "not a string")
    problem = service_id_problem(value)
    if problem is not None:
        raise ColumnsError(where, problem)
    return value


def _optional_text(value: object, where: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise ColumnsError(where, "not a string")
    return service_text(value)


def _fill_columns(
    columns: TransactionColumns,
    *,
    ids: list[str],
    dates: list[str | None],
    raw_amounts: list[str],
    descriptions: list[str],
    categories: list[str | None],
    pending: list[bool],
    offset: int = 0,
) -> bool:
    """Check whole columns (as decoded by msgspec) and take them over; False if any fails.

    False leaves ``columns`` untouched, for the row-by-row path to name the
    first bad value (or accept a less usual form).
    """
    compact = compact_module()
    # The usual amounts become int64 cents straight from their text, no
    # Decimal made (see compact_columns); any other form is read exactly below.
    cents = compact.plain_cents(raw_amounts) if compact is not None else None
    amounts: Sequence[Decimal] = () if cents is None else compact.CentsAmounts(cents, {})
    if cents is None and compact is not None:
        from accountdesk.client.transactions.amounts import amounts_per_row

        # Row by row: only the amounts that are not plain cents become Decimals.
        by_row = amounts_per_row(raw_amounts, exact_amount)
        if by_row is None:
            return False
        amounts = by_row
    elif cents is None:
        if raw_amounts and (
            max(map(len, raw_amounts)) > PLAIN_AMOUNT_LENGTH
            or not PLAIN_AMOUNTS.fullmatch("".join(raw_amounts))
        ):
            return False
        try:
            amounts = list(map(Decimal, raw_amounts))
        except InvalidOperation:  # "1.2.3", "--1", "": the checked path names the row
            return False
    if compact is not None:
        days = compact.day_numbers(dates)
        if days is None:
            return False
    else:
        distinct_dates = set(dates)
        distinct_dates.discard(None)
        if not _real_dates(distinct_dates):  # type: ignore[arg-type]  # None was discarded
            return False
    # Lengths (1 to 256) were checked by the decoder. The joined ids answer
    # for the whole column at once (two list scans cost 2x more): printable
    # ASCII without a space holds no whitespace, and no "." means no "." or
    # ".." id; only otherwise are the ids looked at one by one.
    joined = "".join(ids)
    if (" " in joined or not joined.isascii() or not joined.isprintable()) and any(
        map(str.isspace, ids)
    ):
        return False
    if "." in joined and ("." in ids or ".." in ids):
        return False
    _check_ids(ids, offset, joined)
    columns.amounts = amounts
    if compact is not None:
        # Checked, so no id holds the separator (a control character).
        columns.transaction_ids = compact.joined_ids(ids, joined.isascii())
        columns.dates = days
        columns.descriptions = _shared_texts(descriptions, compact)
        columns.categories = _shared_texts(categories, compact)
        columns.pending = compact.flags_of(pending)
        return True
    columns.transaction_ids = ids
    columns.dates = _none_as_empty(dates)
    # Merchants and categories repeat thousands of times: each distinct text
    # is checked and sanitised once and every row holds the one shared
    # string (1,000,000 rows keep a few dozen strings, not two million).
    # Amounts and dates are not shared: mapping rows onto their distinct
    # values cost 20-45 ms per 100,000 rows, more than the open can spare.
    columns.descriptions = _shared_texts(descriptions)
    columns.categories = _shared_texts(categories)
    columns.pending = pending
    return True


def _real_dates(dates: Collection[str]) -> bool:
    """Whether every text is a real ``YYYY-MM-DD`` date: the shape checked on all at once.

    Equal lengths of 10 make the joined text's groups line up with the dates.
    """
    if not dates:
        return True
    lengths = set(map(len, dates))
    if lengths != {10} or not _DATES.fullmatch("".join(dates)):
        return False
    try:
        all(map(dt.date.fromisoformat, dates))
    except ValueError:  # "2026-02-30"
        return False
    return True


def _none_as_empty(column: list[str | None]) -> list[str]:
    if None not in column:
        return column  # type: ignore[return-value]  # no None in it
    return ["" if value is None else value for value in column]


def _shared_texts(column: Sequence[str | None], compact: Any = None) -> Sequence[str]:
    """``column`` sanitised and bounded, None as "", each distinct text one shared string.

    With ``compact`` (:mod:`.compact_columns`), as codes into the distinct texts.
    """
    distinct = {text for text in set(column) if text is not None}
    clean = max(map(len, distinct), default=0) <= MAX_TEXT_LENGTH and not (
        has_unsafe_characters("".join(distinct))
    )
    if compact is not None:
        return compact.coded_texts(column, str if clean else service_text, distinct)  # type: ignore[no-any-return]
    shared: dict[str | None, str] = {
        text: text if clean else service_text(text) for text in distinct
    }
    shared[None] = ""
    return list(map(shared.__getitem__, column))
