"""A session's transaction reads: the ones running, and the whole lists they read.

The desk holds one :class:`TransactionReads`. A read is started on the key
press that opens the transactions screen (:mod:`.read`); each one that reads
its user's whole list while the session that started it is still the
desk's is kept in the session :mod:`.cache`, so reopening the user reads
nothing. Signing out, or another service, stops every read still running
and forgets what was kept.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from accountdesk.core.transactions.cache import TransactionCache, TransactionKey
from accountdesk.core.transactions.read import INLINE_ROWS, TransactionRead

if TYPE_CHECKING:
    from accountdesk.client import AccountDataClient
    from accountdesk.core.transactions.data import TransactionData

__all__ = ["INLINE_ROWS", "TransactionKey", "TransactionReads"]


class TransactionReads:
    """The reads a session started (``running``) and the whole lists they read (``cache``)."""

    def __init__(self) -> None:
        self.cache = TransactionCache()
        #: Reads under way, stopped by :meth:`forget`.
        self.running: set[TransactionRead] = set()

    def kept(self, key: TransactionKey) -> TransactionData | None:
        """A user's whole list read earlier this session, or None."""
        return self.cache.get(key)

    def start(
        self, client: AccountDataClient, key: TransactionKey, *, still_ours: Callable[[], bool]
    ) -> TransactionRead:
        """Start reading ``key``'s user's list afresh, in a task of this loop.

        The whole list, once read, is kept, unless ``still_ours()`` says the
        session that started it is gone (signed out, or in again).
        """

        def finished(data: TransactionData) -> None:
            if still_ours():
                self.cache.put(key, data)

        read = TransactionRead(client, key.user_id, finished)
        self.running.add(read)
        read.on_done(self.running.discard)
        return read

    def forget(self) -> None:
        """Stop every read still running and forget every list kept (sign-out, another service)."""
        self.cache.clear()
        for read in list(self.running):
            read.cancel()
