"""A batch of rows cut from a streamed transactions body, decoded with the whole read's rules.

:class:`~._column_stream.ColumnStream` cuts the ``transactions`` array where
the bytes before a ``}`` make a JSON array, and :func:`parse_row_batch`
decodes those rows by the same two paths as a whole body (:mod:`._columns`:
msgspec's typed decode, else ``json`` and the row-by-row checks), rows named
by their place in the whole list. A cut in the wrong place is
:class:`BatchSyntaxError` (the stream tries an earlier ``}``, then finds
the whole rows one by one: :func:`whole_rows`); a bad row is
:class:`BadRowError`, which carries the rows before it.
"""

from __future__ import annotations

import json
from decimal import Decimal

import msgspec

from accountdesk.client._gc import gc_paused
from accountdesk.client.transactions.checked import fill_checked, number_of_digits
from accountdesk.client.transactions.fill import (
    ColumnsError,
    TransactionColumns,
    _fill_from_rows,
    _refuse_constant,
)
from accountdesk.client.transactions.json_values import ValueProblem, value_end
from accountdesk.client.transactions.wire import RAW_ROWS, ROWS, decode_typed

__all__ = ["BadRowError", "BatchSyntaxError", "parse_row_batch", "whole_rows"]


class BatchSyntaxError(ValueError):
    """The bytes of a batch are not a JSON array: cut in the wrong place, or a broken body."""


class BadRowError(ColumnsError):
    """A bad row in a batch; ``before``: the batch's rows before it, checked (hand them out)."""

    def __init__(self, error: ColumnsError, before: TransactionColumns) -> None:
        super().__init__(error.where, error.problem, row=error.row)
        self.before = before


def parse_row_batch(content: bytes, offset: int, *, checked: bool = False) -> TransactionColumns:
    """The columns of ``content``, a JSON array of the rows ``offset`` onwards of the list.

    The same two paths and rules as a whole body (:mod:`._columns`), rows
    named by their place in the whole list. :class:`BatchSyntaxError` when
    ``content`` is not a JSON array (``checked``: it is, as ``json`` reads
    it, even where msgspec refuses it); :class:`BadRowError` for a bad row,
    with the rows before it.
    """
    columns = TransactionColumns(user_id=None, currency=None)
    with gc_paused():
        try:
            rows = decode_typed(content, ROWS, RAW_ROWS)
        except msgspec.DecodeError:
            if not checked:
                raise BatchSyntaxError("not JSON") from None
            rows = None  # (a lone surrogate escape: json reads it, as the whole read does)
        if rows is not None:
            try:
                if _fill_from_rows(columns, rows, offset):
                    return columns
            except ColumnsError:
                pass  # the row-by-row path names it and keeps the rows before it
            columns = TransactionColumns(user_id=None, currency=None)
        try:
            body = json.loads(
                content,
                parse_float=Decimal,
                parse_int=number_of_digits,
                parse_constant=_refuse_constant,
            )
        except ColumnsError as exc:
            raise ColumnsError(f"transactions.{offset}", exc.problem) from None
        except (ValueError, RecursionError):
            raise BatchSyntaxError("not JSON") from None
        if not isinstance(body, list):
            raise BatchSyntaxError("not a JSON array")
        try:
            fill_checked(columns, body, offset)
        except ColumnsError as exc:
            raise BadRowError(exc, columns) from None
    return columns


def whole_rows(
    rows: bytearray, offset: int, *, final: bool
) -> tuple[TransactionColumns, int, str | None]:
    """``(columns, end, problem)``: the whole rows at the start of ``rows``, read, and their bytes.

    ``rows`` holds rows and their commas (``{...}, {...}, {...``), the first
    of them row ``offset`` of the list; each is checked as JSON without
    being built (:func:`~._json_values.value_end`). ``problem`` says why the
    row after them is not JSON (None: it is not all there yet, or the list
    ends). :class:`BadRowError` for a bad row among them.
    """
    end, problem = _rows_end(rows, final=final)
    if not end:
        return TransactionColumns(user_id=None, currency=None), 0, problem
    try:
        return parse_row_batch(b"[" + rows[:end] + b"]", offset, checked=True), end, problem
    except BatchSyntaxError:
        pass  # JSON to msgspec, not to json: bytes that are not UTF-8 (json's rule)
    try:
        bytes(rows[:end]).decode("utf-8", "surrogatepass")
    except UnicodeDecodeError as exc:
        before = whole_rows(rows[: exc.start], offset, final=False)
        return before[0], before[1], "not JSON (bytes that are not UTF-8)"
    return TransactionColumns(user_id=None, currency=None), 0, "not JSON"


def _rows_end(rows: bytearray, *, final: bool) -> tuple[int, str | None]:
    position = end = 0
    while True:
        try:
            row_end = value_end(rows, position, final=final)
        except ValueProblem as exc:
            return end, exc.problem
        if row_end is None:
            return end, None
        end = row_end
        position = end + 1  # past the comma (anything else ends the rows here)
        after = bytes(rows[end : end + 1])
        if after != b",":
            return end, None if after in (b"]", b"") else "not JSON"
