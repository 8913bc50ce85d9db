"""The desk's part for transactions: a user's list, read once a session unless reloaded."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING

from .transaction_cache import TransactionCache, TransactionKey

if TYPE_CHECKING:
    from accountdesk.client import AccountDataClient

    from .transactions import TransactionData

__all__ = ["TransactionReads"]

#: A batch this small is appended on the loop (a thread hop costs more than the work).
INLINE_ROWS = 2_000


class TransactionReads:
    """Transactions for :class:`~accountdesk.core.desk.Desk` (a base of it)."""

    transactions: TransactionCache
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

    async def load_transactions(self, user_id: str, *, reload: bool = False) -> TransactionData:
        """A user's transactions: from the session cache, or read (``reload``: always read).

        Raises the client's errors. The client parses a large answer in a
        thread, straight into the lists the table keeps (no copy).
        """
        if not reload and (cached := self.cached_transactions(user_id)) is not None:
            return cached
        # NumPy comes with it: imported at the first read, not before the first frame.
        from .transactions import TransactionData

        key = TransactionKey(*self.state_key, user_id)
        client = self.client
        # Columns straight from the JSON (no model per row), parsed off the loop.
        data = TransactionData.from_columns(await client.get_transaction_columns(user_id))
        # Signed out (or in again) meanwhile: this read belongs to no session.
        if self._client is client:
            self.transactions.put(key, data)
        return data

    async def stream_transactions(self, user_id: str) -> AsyncIterator[TransactionData]:
        """A user's transactions read afresh, batch by batch as they arrive.

        Yields the same :class:`~.transactions.TransactionData` after each
        batch is appended (in a worker thread: its index, once built, grows
        with it); ``complete`` turns True, and the data is cached, once the
        read ends. Raises the client's errors; what was yielded before stays
        good (and is not cached: it is not the whole list).
        """
        from .transactions import TransactionData

        key = TransactionKey(*self.state_key, user_id)
        client = self.client
        data = TransactionData.streaming()
        batches = 0
        async for batch in client.stream_transaction_columns(user_id):
            if len(batch) < INLINE_ROWS:  # the first few rows: no thread hop before they show
                data.append(batch)
            else:
                await asyncio.to_thread(data.append, batch)
            batches += 1
            yield data
        data.complete = True
        if not batches:  # an empty list may come without a batch
            yield data
        # Signed out (or in again) meanwhile: this read belongs to no session.
        if self._client is client:
            self.transactions.put(key, data)
