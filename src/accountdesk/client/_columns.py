"""Transactions as columns: 100,000 rows without 100,000 pydantic models.

``GET /accounts/{user_id}/transactions`` of ``user_bulk`` is ~14 MB of JSON.
:func:`parse_transaction_columns` goes from ``json.loads`` straight to one
list per field, with the same rules as the :class:`~accountdesk.client.Transaction`
model: ids refused when unusable, amounts bounded, text sanitised and
bounded, dates real ``YYYY-MM-DD`` dates. Per-string work is avoided where a
whole column can be checked at once: the sanitiser's regex runs over the
joined column and individual strings are looked at only when it matches.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any

from ._bounds import amount_from_wire, service_id_problem
from ._gc import gc_paused
from ._redact import SecretRegistry
from ._responses import AnswerLike, malformed
from ._sanitise import MAX_TEXT_LENGTH, has_unsafe_characters, service_text

__all__ = [
    "ColumnsError",
    "TransactionColumns",
    "columns_of",
    "parse_transaction_columns",
]

_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
# Amounts written with these characters only, at most 24 of them, are within
# the bounds (<= 24 digits, no exponent, at most 23 decimals) once Decimal
# accepts them: no need to look at each one's tuple.
_PLAIN_AMOUNT_CHARACTERS = frozenset("-0123456789.")
_PLAIN_AMOUNT_LENGTH = 24
# The text forms pydantic's lax bool accepts, so a body the model takes is taken here.
_TRUE = frozenset({"1", "on", "t", "true", "y", "yes"})
_FALSE = frozenset({"0", "off", "f", "false", "n", "no"})


@dataclass(slots=True)
class TransactionColumns:
    """Every transaction of a user, one list per field, all the same length, newest first.

    ``dates`` are ISO ``YYYY-MM-DD`` or "" when the service sent none;
    ``categories`` are "" when absent. Text is sanitised and bounded like
    every record's; ``amounts`` are bounded ``Decimal`` values.
    """

    user_id: str | None
    currency: str | None
    transaction_ids: list[str] = field(default_factory=list)
    dates: list[str] = field(default_factory=list)
    amounts: list[Decimal] = field(default_factory=list)
    descriptions: list[str] = field(default_factory=list)
    categories: list[str] = field(default_factory=list)
    pending: list[bool] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.transaction_ids)

    def __repr__(self) -> str:
        return f"TransactionColumns(user_id={self.user_id!r}, rows={len(self)})"


class ColumnsError(ValueError):
    """The body is not a transaction list; ``where`` names the field (``transactions.12.amount``)."""

    def __init__(self, where: str, problem: str) -> None:
        super().__init__(f"{where}: {problem}")
        self.where = where
        self.problem = problem


def _refuse_constant(name: str) -> Any:
    raise ColumnsError("body", f"{name} is not a number JSON allows")


def parse_transaction_columns(content: bytes) -> TransactionColumns:
    """The columns of a transactions body; :class:`ColumnsError` at the first bad value."""
    try:
        body = json.loads(content, parse_float=Decimal, parse_constant=_refuse_constant)
    except RecursionError:
        raise ColumnsError("body", "JSON nested too deeply") from None
    except ValueError as exc:
        if isinstance(exc, ColumnsError):
            raise
        raise ColumnsError("body", "not JSON") from None
    if not isinstance(body, dict):
        raise ColumnsError("body", "not a JSON object")
    rows = body.get("transactions", [])
    if not isinstance(rows, list):
        raise ColumnsError("transactions", "not a list")
    columns = TransactionColumns(
        user_id=_optional_id(body.get("user_id"), "user_id"),
        currency=_optional_text(body.get("currency"), "currency"),
    )
    _fill(columns, rows)
    return columns


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


def _fill(columns: TransactionColumns, rows: list[Any]) -> None:
    if not _fill_fast(columns, rows):
        _fill_checked(columns, rows)


def _fill_fast(columns: TransactionColumns, rows: list[Any]) -> bool:
    """Whole columns at C speed when every value has its usual type; False otherwise.

    False leaves ``columns`` untouched, and the row-by-row path then finds
    (and names) the first bad value, or accepts the less usual forms.
    """
    if set(map(type, rows)) - {dict}:
        return False
    ids = [row.get("transaction_id") for row in rows]
    dates = [row.get("date") for row in rows]
    raw_amounts = [row.get("amount") for row in rows]
    descriptions = [row.get("description", "") for row in rows]
    categories = [row.get("category") for row in rows]
    pending = [row.get("pending", False) for row in rows]
    if (
        set(map(type, ids)) - {str}
        or set(map(type, raw_amounts)) - {str}
        or set(map(type, descriptions)) - {str}
        or set(map(type, categories)) - {str, type(None)}
        or set(map(type, pending)) - {bool}
    ):
        return False
    if raw_amounts and (
        max(map(len, raw_amounts)) > _PLAIN_AMOUNT_LENGTH
        or set("".join(raw_amounts)) - _PLAIN_AMOUNT_CHARACTERS
    ):
        return False
    try:
        amounts = list(map(Decimal, raw_amounts))
    except InvalidOperation:  # "1.2.3", "--1", "": the checked path names the row
        return False
    unique_dates = set(dates)
    unique_dates.discard(None)
    if any(type(date) is not str or not _real_date(date) for date in unique_dates):
        return False
    if ids and (min(map(len, ids)) == 0 or max(map(len, ids)) > 256):
        return False
    if any(map(str.isspace, ids)) or {".", ".."} & set(ids):
        return False
    _check_ids(ids)
    columns.transaction_ids = ids
    columns.dates = ["" if date is None else date for date in dates]
    columns.amounts = amounts
    columns.descriptions = descriptions
    columns.categories = ["" if category is None else category for category in categories]
    columns.pending = pending
    _make_inert(columns.descriptions)
    _make_inert(columns.categories)
    return True


def _fill_checked(columns: TransactionColumns, rows: list[Any]) -> None:
    try:
        _fill_rows(columns, rows)
    except ColumnsError:
        # The ids of the rows before are checked as a column (below), so an
        # earlier bad id is still the first problem reported.
        _check_ids(columns.transaction_ids)
        raise
    _check_ids(columns.transaction_ids)
    _make_inert(columns.descriptions)
    _make_inert(columns.categories)


def _fill_rows(columns: TransactionColumns, rows: list[Any]) -> None:
    ids, dates, amounts = columns.transaction_ids, columns.dates, columns.amounts
    descriptions, categories, pending = columns.descriptions, columns.categories, columns.pending
    known_dates: set[str] = set()
    # Appending bound methods: the loop runs 100,000 times.
    add_id, add_date, add_amount = ids.append, dates.append, amounts.append
    add_description, add_category, add_pending = (
        descriptions.append,
        categories.append,
        pending.append,
    )
    for index, row in enumerate(rows):
        if type(row) is not dict:
            raise ColumnsError(f"transactions.{index}", "not an object")
        get = row.get
        tid = get("transaction_id")
        if type(tid) is not str or not 0 < len(tid) <= 256 or tid in {".", ".."} or tid.isspace():
            raise ColumnsError(
                f"transactions.{index}.transaction_id",
                "not a string" if type(tid) is not str else service_id_problem(tid) or "invalid",
            )
        add_id(tid)
        date = get("date")
        if date is None:
            add_date("")
        elif type(date) is str and (date in known_dates or _real_date(date)):
            known_dates.add(date)
            add_date(date)
        else:
            raise ColumnsError(f"transactions.{index}.date", "not a YYYY-MM-DD date")
        raw_amount = get("amount")
        try:
            add_amount(amount_from_wire(raw_amount))
        except ValueError as exc:
            problem = "missing" if raw_amount is None and "amount" not in row else str(exc)
            raise ColumnsError(f"transactions.{index}.amount", problem) from None
        description = get("description", "")
        if type(description) is not str:
            raise ColumnsError(f"transactions.{index}.description", "not a string")
        add_description(description)
        category = get("category")
        if category is None:
            add_category("")
        elif type(category) is str:
            add_category(category)
        else:
            raise ColumnsError(f"transactions.{index}.category", "not a string")
        flag = get("pending", False)
        if type(flag) is not bool:
            flag = _lax_bool(flag, index)
        add_pending(flag)


def _real_date(text: str) -> bool:
    # fromisoformat alone would also take "20260301" and "2026-W09-1".
    if len(text) != 10 or text[4] != "-" or text[7] != "-" or not _DATE.fullmatch(text):
        return False
    try:
        dt.date.fromisoformat(text)
    except ValueError:
        return False
    return True


def _lax_bool(value: object, index: int) -> bool:
    if type(value) is int and value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.lower() in _TRUE | _FALSE:
        return value.lower() in _TRUE
    raise ColumnsError(f"transactions.{index}.pending", "not true or false")


def _check_ids(ids: list[str]) -> None:
    joined = "".join(ids)
    # Non-ASCII ids may be too long once percent-encoded; controls are refused.
    if not joined.isascii() or has_unsafe_characters(joined):
        for index, tid in enumerate(ids):
            problem = service_id_problem(tid)
            if problem is not None:
                raise ColumnsError(f"transactions.{index}.transaction_id", problem)


def _make_inert(column: list[str], text: Callable[[str], str] = service_text) -> None:
    """Sanitise and bound a column in place, touching only the strings that need it."""
    too_long = max(map(len, column), default=0) > MAX_TEXT_LENGTH
    if not too_long and not has_unsafe_characters("".join(column)):
        return
    for index, value in enumerate(column):
        column[index] = text(value)


def columns_of(answer: AnswerLike, path: str, registry: SecretRegistry) -> TransactionColumns:
    """The columns of a read answer, or MalformedResponseError naming the bad row."""
    with gc_paused():
        try:
            return parse_transaction_columns(answer.content)
        except ColumnsError as exc:
            where = f"transactions.{exc.where}" if exc.where != "body" else "transactions"
            problem = f"not a Transactions record ({where}: {exc.problem})"
            raise malformed(answer, problem, "GET", path, registry) from None
