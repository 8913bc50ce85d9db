"""The filter over rows still streaming in: what the index would keep, batch by batch."""

from __future__ import annotations

import pytest
from test_transaction_growth import _SIZES, _columns

from accountdesk.core.transactions.data import TransactionData
from accountdesk.core.transactions.early_filter import EarlyFilter
from accountdesk.core.transactions.view import TransactionView


@pytest.mark.parametrize("text", ["shop", "  CAFÉ ", "東京", "nothing like it", ""])
def test_early_filter_keeps_what_the_index_keeps_as_batches_arrive(text: str) -> None:
    data, early = TransactionData.streaming(), EarlyFilter(text)
    twin = TransactionData.streaming()  # the same batches, filtered by its index
    start = 0
    for size in _SIZES:
        batch = _columns(start, size)
        data.append(batch)
        twin.append(batch)
        start += size
        rows = early.rows(data)
        assert early.seen == len(data) and not data.indexed  # no index needed
        # The same rows, in the same (the service's) order.
        indexed = TransactionView(twin)
        indexed.set_filter(text)
        assert rows.tolist() == indexed.view.tolist()
    assert early.rows(data) is rows  # nothing new: nothing tested again
