"""The row-by-row path of a transactions read: every value looked at, the first bad one named.

:mod:`._columns` hands a body here when msgspec's typed decode or the
checks on whole columns refuse it (a wrong type, a lax form such as
``"pending": "yes"``, an amount with an exponent): the rows as ``json``
decoded them, checked one by one with the model's rules. A bad row stops it
with a :class:`ColumnsError` naming the value (``transactions.12.amount``)
and its ``row``; the columns then hold every row before it, checked and
made inert, so a streamed read hands them out (whatever was wrong).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from decimal import Decimal
from typing import Any, cast

from accountdesk.client._bounds import MAX_AMOUNT_TEXT, amount_from_wire, service_id_problem
from accountdesk.client._sanitise import MAX_TEXT_LENGTH, has_unsafe_characters, service_text
from accountdesk.client.transactions.columns import ColumnsError, TransactionColumns

__all__ = ["check_ids", "fill_checked", "number_of_digits"]

_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
# The text forms pydantic's lax bool accepts, so a body the model takes is taken here.
_TRUE = frozenset({"1", "on", "t", "true", "y", "yes"})
_FALSE = frozenset({"0", "off", "f", "false", "n", "no"})


def number_of_digits(text: str) -> int | Decimal:
    """``json``'s ``parse_int``: an integer, or past any amount's length a ``Decimal``.

    ``int()`` refuses more than 4,300 digits with a ValueError, which read
    as "not JSON"; as a Decimal it is named by the field's own rule
    (``amount out of range``, ``not a string``). A Decimal of 100,000 digits
    is made in linear time; nothing formats it.
    """
    return int(text) if len(text) <= MAX_AMOUNT_TEXT else Decimal(text)


def fill_checked(columns: TransactionColumns, rows: list[Any], offset: int = 0) -> None:
    """Check ``rows`` (``json``'s values) one by one into ``columns`` (plain lists).

    On a bad row, raises its :class:`ColumnsError` with ``columns`` holding
    the rows before it (an earlier bad id, found when the ids are checked as
    a column, is the one raised).
    """
    error: ColumnsError | None = None
    try:
        _fill_rows(columns, rows, offset)
    except ColumnsError as exc:
        error = exc
    while True:
        if error is not None and error.row is not None:
            _keep(columns, error.row - offset)
        try:
            check_ids(cast(list[str], columns.transaction_ids), offset)
            break
        except ColumnsError as exc:  # an earlier row: the first problem is that one
            error = exc
    _make_inert(cast(list[str], columns.descriptions))
    _make_inert(cast(list[str], columns.categories))
    if error is not None:
        raise error


def _keep(columns: TransactionColumns, count: int) -> None:
    """Drop every row from ``count`` on (a bad row may have added some of its fields)."""
    for column in (
        columns.transaction_ids,
        columns.dates,
        columns.amounts,
        columns.descriptions,
        columns.categories,
        columns.pending,
    ):
        del cast(list[Any], column)[count:]


def _bad(index: int, field: str, problem: str) -> ColumnsError:
    where = f"transactions.{index}" + (f".{field}" if field else "")
    return ColumnsError(where, problem, row=index)


def _fill_rows(columns: TransactionColumns, rows: list[Any], offset: int = 0) -> None:
    ids: list[str] = []
    dates: list[str] = []
    amounts: list[Decimal] = []
    descriptions: list[str] = []
    categories: list[str] = []
    pending: list[bool] = []
    # The lists are the columns from the start: rows before a bad one are kept.
    columns.transaction_ids, columns.dates, columns.amounts = ids, dates, amounts
    columns.descriptions, columns.categories, columns.pending = descriptions, categories, pending
    known_dates: set[str] = set()
    # Appending bound methods: the loop runs 100,000 times.
    add_id, add_date, add_amount = ids.append, dates.append, amounts.append
    add_description, add_category, add_pending = (
        descriptions.append,
        categories.append,
        pending.append,
    )
    for index, row in enumerate(rows, start=offset):
        if type(row) is not dict:
            raise _bad(index, "", "not an object")
        get = row.get
        tid = get("transaction_id")
        if type(tid) is not str or not 0 < len(tid) <= 256 or tid in {".", ".."} or tid.isspace():
            raise _bad(
                index,
                "transaction_id",
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
            raise _bad(index, "date", "not a YYYY-MM-DD date")
        raw_amount = get("amount")
        try:
            add_amount(amount_from_wire(raw_amount))
        except ValueError as exc:
            problem = "missing" if raw_amount is None and "amount" not in row else str(exc)
            raise _bad(index, "amount", problem) from None
        description = get("description", "")
        if type(description) is not str:
            raise _bad(index, "description", "not a string")
        add_description(description)
        category = get("category")
        if category is None:
            add_category("")
        elif type(category) is str:
            add_category(category)
        else:
            raise _bad(index, "category", "not a string")
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
    raise _bad(index, "pending", "not true or false")


def check_ids(ids: list[str], offset: int = 0, joined: str | None = None) -> None:
    """ColumnsError naming the first id that cannot be used as one (``joined``: the ids joined)."""
    if joined is None:
        joined = "".join(ids)
    # Non-ASCII ids may be too long once percent-encoded; controls are refused.
    if not joined.isascii() or has_unsafe_characters(joined):
        for index, tid in enumerate(ids, start=offset):
            problem = service_id_problem(tid)
            if problem is not None:
                raise _bad(index, "transaction_id", problem)


def _make_inert(column: list[str], text: Callable[[str], str] = service_text) -> None:
    """Sanitise and bound a column in place, touching only the strings that need it."""
    too_long = max(map(len, column), default=0) > MAX_TEXT_LENGTH
    if not too_long and not has_unsafe_characters("".join(column)):
        return
    for index, value in enumerate(column):
        column[index] = text(value)
