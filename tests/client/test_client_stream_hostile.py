"""stream_transaction_columns against a hostile service: bounded memory, the loop kept free."""

from __future__ import annotations

import json
import threading
import tracemalloc

import pytest
from client_fakes import make_client
from test_client_columns import _body, _row
from test_client_stream import _chunked, _collect, _joined, _service

from accountdesk.client import TransactionColumns
from accountdesk.client._column_stream import ColumnStream

pytestmark = pytest.mark.anyio

_ROW = json.dumps(_row(1)).encode()


def _junk_first(lists: int) -> bytes:
    """A body whose unknown first key holds ``lists`` empty lists, then one row."""
    junk = b",".join([b"[]"] * lists)
    return b'{"junk": [' + junk + b'], "transactions": [' + _ROW + b"]}"


def test_an_unknown_top_level_value_is_stepped_over_not_built() -> None:
    body = _junk_first(300_000)  # 0.9 MB; built, ~20 MB of lists
    chunks = _chunked(body, 65536)
    stream = ColumnStream()
    tracemalloc.start()
    try:
        rows = sum(len(batch) for chunk in chunks for batch in stream.feed(chunk))
        rows += sum(map(len, stream.finish()))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert rows == 1
    assert peak < 3 * len(body), f"peak {peak:,} bytes for a body of {len(body):,}"


@pytest.mark.parametrize(
    "content",
    [
        json.dumps(_body(*(_row(n) for n in range(3000)))).encode(),
        _junk_first(100_000),
    ],
    ids=["rows", "junk"],
)
async def test_nothing_is_parsed_on_the_event_loop(
    content: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    loop_thread = threading.get_ident()
    parsed_on: list[int] = []
    advance = ColumnStream._advance

    def recorded(self: ColumnStream, *args: object, **kwargs: object) -> None:
        parsed_on.append(threading.get_ident())
        advance(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(ColumnStream, "_advance", recorded)
    batches: list[TransactionColumns] = []
    async with make_client(_service(_chunked(content, 4096))) as client:
        await _collect(client, batches)
    assert _joined(batches)["transaction_ids"]
    assert parsed_on and loop_thread not in parsed_on
