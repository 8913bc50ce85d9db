"""A transactions body read the one way the client reads it: through the stream.

The client has one read path for transactions, the stream
(:meth:`AccountDataClient.stream_transaction_columns`, a
:class:`~accountdesk.client.transactions.stream.ColumnStream` underneath).
Tests of its rules read a body held in memory the same way: fed whole to a
stream whose first batch holds every row (:func:`parse_body`), or collected
from a client's stream into plain lists (:func:`collect`); a desk's list is
read to its end as the transactions screen follows it (:func:`read_whole`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from accountdesk.client import AccountDataClient, TransactionColumns
from accountdesk.client.transactions.stream import ColumnStream

if TYPE_CHECKING:
    from accountdesk.core.desk import Desk
    from accountdesk.core.transactions.data import TransactionData


def parse_body(content: bytes) -> TransactionColumns:
    """``content`` read as the stream reads it, in one batch (compact columns with NumPy)."""
    stream = ColumnStream(first_batch_bytes=len(content) + 1)
    batches = [*stream.feed(content), *stream.finish()]
    assert len(batches) <= 1, "one batch holds every row"
    return batches[0] if batches else TransactionColumns(user_id=None, currency=None)


def joined(batches: list[TransactionColumns]) -> TransactionColumns:
    """A read's batches as one set of plain lists, in order (each carries user and currency so far)."""
    whole = TransactionColumns(user_id=None, currency=None)
    columns: dict[str, list[Any]] = {name: [] for name in _COLUMNS}
    for batch in batches:
        whole.user_id, whole.currency = batch.user_id, batch.currency
        for name in _COLUMNS:
            columns[name].extend(getattr(batch, name))
    for name in _COLUMNS:
        setattr(whole, name, columns[name])
    return whole


async def collect(client: AccountDataClient, user_id: str) -> TransactionColumns:
    """``user_id``'s whole list, collected from the client's stream."""
    return joined([batch async for batch in client.stream_transaction_columns(user_id)])


_COLUMNS = ("transaction_ids", "dates", "amounts", "descriptions", "categories", "pending")


async def read_whole(desk: Desk, user_id: str) -> TransactionData:
    """``user_id``'s list read afresh to its end, as the transactions screen follows a read."""
    data = [update async for update in desk.stream_transactions(user_id)][-1]
    assert data.complete
    return data
