"""The desk's part for transactions: a user's list, read once a session unless reloaded."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING

from accountdesk.core.transactions.cache import TransactionCache, TransactionKey
from accountdesk.core.transactions.read import INLINE_ROWS, TransactionRead

if TYPE_CHECKING:
    from accountdesk.client import AccountDataClient
    from accountdesk.core.connection import ServiceConnection
    from accountdesk.core.transactions.data import TransactionData

__all__ = ["INLINE_ROWS", "TransactionReads"]


class TransactionReads:
    """Transactions for :class:`~accountdesk.core.desk.Desk` (a base of it)."""

    transactions: TransactionCache
    connection: ServiceConnection
    #: Reads under way (:meth:`start_transaction_read`), to stop on sign-out.
    _reads: set[TransactionRead]
    _client: AccountDataClient | None

    @property
    def client(self) -> AccountDataClient:  # the desk's signed-in client
        raise NotImplementedError

    @property
    def state_key(self) -> tuple[str, str]:  # the desk's service and key
        raise NotImplementedError

    def cached_transactions(self, user_id: str) -> TransactionData | None:
        """A user's transactions read earlier this session, or None."""
        return self.transactions.get(TransactionKey(*self.state_key, user_id))

    def start_transaction_read(self, user_id: str) -> TransactionRead:
        """Start reading ``user_id``'s transactions afresh, now, in a task of this loop.

        Called on the key press that opens the transactions screen, so the
        request is out while the screen is mounted; the screen follows the
        read (:meth:`TransactionRead.updates`) and cancels it if it goes
        away first. The whole list, once read, goes to the session cache
        (unless the desk signed out or in again meanwhile). A read still
        running is cancelled on sign-out.
        """
        client = self.client
        key = TransactionKey(*self.state_key, user_id)

        def finished(data: TransactionData) -> None:
            # Signed out (or in again) meanwhile: this read belongs to no session.
            if self._client is client:
                self.transactions.put(key, data)

        read = TransactionRead(client, user_id, finished)
        self._reads.add(read)
        read.on_done(self._reads.discard)
        return read

    async def prepare_transactions(self, user_id: str | None = None) -> None:
        """Have the embedded sandbox build ``user_id``'s answer now, if not read yet.

        Called when a user's account is shown: in embedded mode the first
        ``x`` then finds the answer built (nothing for a live service).
        Without ``user_id`` (the lookup screen shown): every large generated
        answer, so that user_bulk's build is over before its account opens.
        """
        if user_id is None or self.cached_transactions(user_id) is None:
            await self.connection.prepare_transactions(user_id)

    def cancel_transaction_reads(self) -> None:
        """Stop every read still running (sign-out, another service)."""
        for read in list(self._reads):
            read.cancel()

    async def stream_transactions(self, user_id: str) -> AsyncIterator[TransactionData]:
        """A user's transactions read afresh, batch by batch as they arrive.

        Yields the same :class:`~.transactions.TransactionData` after each
        batch is appended (in a worker thread: its index, once built, grows
        with it); ``complete`` turns True, and the data is cached, once the
        read ends. Raises the client's errors; what was yielded before stays
        good (and is not cached: it is not the whole list). Stopping early
        stops the read.
        """
        read = self.start_transaction_read(user_id)
        try:
            async with contextlib.aclosing(read.updates()) as updates:
                async for data in updates:
                    yield data
        finally:
            read.cancel()
