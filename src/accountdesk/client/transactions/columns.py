"""The columns of a transactions read: their type, their error, the compact form's module.

Kept apart from the parse (:mod:`._columns`) so both it and the streaming
read (:mod:`._column_stream`) stand on it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

__all__ = ["ColumnsError", "TransactionColumns", "compact_module"]


@dataclass(slots=True)
class TransactionColumns:
    """Every transaction of a user, one sequence per field, all the same length, newest first.

    ``dates`` are ISO ``YYYY-MM-DD`` or "" when the service sent none;
    ``categories`` are "" when absent. Text is sanitised and bounded like
    every record's; ``amounts`` are bounded ``Decimal`` values. Each column
    is a list, or (when NumPy is installed) a compact read-only sequence
    that behaves as one: indexing, slices as lists, ``len``, iteration and
    ``==`` with a list (see :mod:`.compact_columns`).
    """

    user_id: str | None
    currency: str | None
    transaction_ids: Sequence[str] = field(default_factory=list)
    dates: Sequence[str] = field(default_factory=list)
    amounts: Sequence[Decimal] = field(default_factory=list)
    descriptions: Sequence[str] = field(default_factory=list)
    categories: Sequence[str] = field(default_factory=list)
    pending: Sequence[bool] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.transaction_ids)

    def __repr__(self) -> str:
        return f"TransactionColumns(user_id={self.user_id!r}, rows={len(self)})"


class ColumnsError(ValueError):
    """The body is not a transaction list; ``where`` names the field (``transactions.12.amount``).

    ``row``: the index of the bad row in the whole list, when a row is bad.
    """

    def __init__(self, where: str, problem: str, *, row: int | None = None) -> None:
        super().__init__(f"{where}: {problem}")
        self.where = where
        self.problem = problem
        self.row = row


_COMPACT: list[Any] = []


def compact_module() -> Any:
    """:mod:`.arrays` when NumPy is installed (imported on first use), else None."""
    if not _COMPACT:
        try:
            from accountdesk.client.transactions import arrays
        except ImportError:  # the client alone: plain lists
            _COMPACT.append(None)
        else:
            _COMPACT.append(arrays)
    return _COMPACT[0]
