"""The session's cache of transaction downloads, per service, API key and user.

Reading ``user_bulk`` moves 14 MB and 100,000 rows; a support person goes
back and forth between a user's account and transactions many times, so the
desk keeps the last few users' :class:`~.transactions.TransactionData` (with
their sort orders and search text) until ``l`` reloads or the session signs
out. Bounded twice: by users, and by rows, so one million-row user does not
pin several others in memory; the newest entry always stays.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from accountdesk.core.transactions.data import TransactionData

__all__ = ["TransactionCache", "TransactionKey"]

#: How many users' transactions are kept.
MAX_USERS = 4
#: How many rows, over every user kept (the newest user is kept whatever its size).
MAX_ROWS = 1_500_000


class TransactionKey(NamedTuple):
    service_key: str
    #: Another key may not see the same data (a trainee's world, another agent's rights).
    api_key: str
    user_id: str


class TransactionCache:
    """Least recently used first out; see the module docstring."""

    def __init__(self, *, max_users: int = MAX_USERS, max_rows: int = MAX_ROWS) -> None:
        if max_users < 1:
            raise ValueError("the cache keeps at least one user")
        self.max_users = max_users
        self.max_rows = max_rows
        self._entries: OrderedDict[TransactionKey, TransactionData] = OrderedDict()

    def get(self, key: TransactionKey) -> TransactionData | None:
        data = self._entries.get(key)
        if data is not None:
            self._entries.move_to_end(key)
        return data

    def put(self, key: TransactionKey, data: TransactionData) -> None:
        self._entries[key] = data
        self._entries.move_to_end(key)
        while len(self._entries) > 1 and (
            len(self._entries) > self.max_users or self.rows > self.max_rows
        ):
            self._entries.popitem(last=False)

    def forget(self, key: TransactionKey) -> None:
        self._entries.pop(key, None)

    def clear(self) -> None:
        self._entries.clear()

    @property
    def rows(self) -> int:
        """Rows held, over every user."""
        return sum(len(data) for data in self._entries.values())

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, key: object) -> bool:
        return key in self._entries
