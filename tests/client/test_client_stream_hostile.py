"""stream_transaction_columns against a hostile service: bounded memory, the loop kept free."""

from __future__ import annotations

import asyncio
import json
import threading
import time
import tracemalloc
from typing import Any

import pytest
from client_fakes import make_client
from test_client_columns import _body, _row
from test_client_stream import _chunked, _collect, _joined, _service

from accountdesk.client import (
    AccountDataClient,
    MalformedResponseError,
    ResponseTooLargeError,
    StreamInterruptedError,
    TransactionColumns,
)
from accountdesk.client.transactions.stream import ColumnStream
from loopback_server import serve_app

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
    stream.feed(b'{"transactions": [' + _ROW + b"]}")
    stream.finish()  # the decoder's imports (NumPy), not counted
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


_DEEP = "[" * 5000 + "]" * 5000


@pytest.mark.parametrize(
    ("field", "value", "problem"),
    [
        ("transaction_id", "5", "transactions.50.transaction_id: not a string"),
        ("transaction_id", '"t\\u001b[2J"', "transactions.50.transaction_id: identifier holds"),
        ("amount", "1e400", "transactions.50.amount: amount out of range"),
        ("amount", "NaN", "transactions.50: NaN is not a number JSON allows"),
        ("pending", '"maybe"', "transactions.50.pending: not true or false"),
        ("extra", _DEEP, "transactions.50: JSON nested too deeply"),
        (None, '"not a row"', "transactions.50: not an object"),
    ],
    ids=["type", "id", "1e400", "NaN", "lax", "deep", "row"],
)
@pytest.mark.parametrize("size", [4096, 1 << 20])
async def test_a_bad_row_keeps_every_row_before_it_whatever_is_wrong(
    field: str | None, value: str, problem: str, size: int
) -> None:
    rows = [json.dumps(_row(n)) for n in range(100)]
    if field is None:
        rows[50] = value
    else:
        rows[50] = json.dumps(_row(50, **{field: "PLACE"})).replace('"PLACE"', value)
    content = ('{"transactions": [' + ", ".join(rows) + "]}").encode()
    batches: list[TransactionColumns] = []
    async with make_client(_service(_chunked(content, size))) as client:
        with pytest.raises(MalformedResponseError) as caught:
            await _collect(client, batches)
    assert _joined(batches)["transaction_ids"] == [f"txn_{n:06d}" for n in range(50)]
    assert f"transactions.{problem}" in str(caught.value)
    assert "the 50 rows before it are kept" in str(caught.value)


async def test_a_row_msgspec_refuses_but_json_reads_is_read_as_the_whole_read_reads_it() -> None:
    # A lone surrogate escape: msgspec refuses it, json (and so the whole read) takes it.
    rows = [json.dumps(_row(n)) for n in range(3)]
    rows[1] = rows[1].replace('"Coffee"', '"Caf\\ud800"')
    content = ('{"transactions": [' + ", ".join(rows) + "]}").encode()
    batches: list[TransactionColumns] = []
    async with make_client(_service([content])) as client:
        await _collect(client, batches)
    assert _joined(batches)["transaction_ids"] == ["txn_000000", "txn_000001", "txn_000002"]
    assert _joined(batches)["descriptions"][1].startswith("Caf")


async def test_the_size_cap_keeps_the_rows_that_arrived_and_says_so() -> None:
    content = json.dumps(_body(*(_row(n) for n in range(500)))).encode()
    batches: list[TransactionColumns] = []
    async with make_client(_service(_chunked(content, 4096)), max_response_bytes=20_000) as client:
        with pytest.raises(ResponseTooLargeError) as caught:
            await _collect(client, batches)
    kept = _joined(batches)["transaction_ids"]
    # Every whole row within the cap, as a dropped answer hands out.
    assert kept == [f"txn_{n:06d}" for n in range(len(kept))]
    assert (
        20_000 - 2 * len(json.dumps(_row(0)))
        < len(json.dumps(_body(*(_row(n) for n in range(len(kept))))))
        <= 20_000
    )
    assert caught.value.rows == len(kept) and 16_000 <= caught.value.received <= 20_000
    assert f"after {len(kept):,} rows ({caught.value.received:,} bytes)" in str(caught.value)
    assert "the rows before are kept" in str(caught.value)


async def test_bytes_that_are_not_utf8_in_a_row_read_row_by_row_are_named_not_a_crash() -> None:
    # msgspec steps over them in a field it does not know; json (the lax
    # "yes" sends the batch to it) refuses them: the row is named.
    rows = [json.dumps(_row(n)).encode() for n in range(6)]
    rows[3] = rows[3].replace(b'"pending": false', b'"pending": "yes", "x": "\xff"')
    content = b'{"transactions": [' + b", ".join(rows) + b"]}"
    batches: list[TransactionColumns] = []
    async with make_client(_service([content])) as client:
        with pytest.raises(MalformedResponseError) as caught:
            await _collect(client, batches)
    assert _joined(batches)["transaction_ids"] == ["txn_000000", "txn_000001", "txn_000002"]
    assert "transactions.transactions.3: not JSON (bytes that are not UTF-8)" in str(caught.value)


def _stalling_app(first: bytes) -> Any:
    """Sends the headers and ``first``, then nothing until the client hangs up."""

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return
        if scope["path"] == "/token":
            body = json.dumps({"access_token": "tok-1", "token_type": "bearer"}).encode()
            await send({"type": "http.response.start", "status": 200, "headers": []})
            await send({"type": "http.response.body", "body": body})
            return
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": first, "more_body": True})

        async def until_the_client_goes() -> None:
            while (await receive())["type"] != "http.disconnect":
                pass

        await asyncio.wait_for(until_the_client_goes(), 10)

    return app


async def test_a_stalled_body_ends_at_the_calls_deadline_not_at_httpxs_read_timeout() -> None:
    content = json.dumps(_body(*(_row(n) for n in range(1000)))).encode()
    batches: list[TransactionColumns] = []
    with serve_app(_stalling_app(content[: len(content) // 2])) as url:
        # httpx's own timeout (per read) is shorter than the call's deadline.
        async with AccountDataClient(url, "key", "secret", timeout=0.3, call_timeout=1.5) as client:
            started = time.monotonic()
            with pytest.raises(StreamInterruptedError) as caught:
                await _collect(client, batches)
            waited = time.monotonic() - started
    assert caught.value.reason == "timeout", str(caught.value)
    assert "not complete within 1.5 s" in str(caught.value)
    assert 1.4 < waited < 5
    assert caught.value.rows == len(_joined(batches)["transaction_ids"]) > 400


def _tiny_rows(count: int) -> bytes:
    rows = (b'{"transaction_id":"t%d","amount":"1"}' % n for n in range(count))
    return b'{"transactions": [' + b",".join(rows) + b"]}"


async def test_the_row_bound_stops_a_stream_at_exactly_its_rows() -> None:
    batches: list[TransactionColumns] = []
    service = _service(_chunked(_tiny_rows(3000), 4096))
    async with make_client(service, max_response_rows=1000) as client:
        with pytest.raises(ResponseTooLargeError) as caught:
            await _collect(client, batches)
    assert _joined(batches)["transaction_ids"] == [f"t{n}" for n in range(1000)]
    assert caught.value.rows == 1000  # type: ignore[attr-defined]
    assert "more rows than the client's max_response_rows (1,000)" in str(caught.value)
    assert "after 1,000 rows" in str(caught.value) and "the rows before are kept" in str(
        caught.value
    )


async def test_the_row_bound_follows_the_size_cap_by_default() -> None:
    # One row per 128 bytes of the cap: tiny rows hold 5x their bytes, or more.
    body = _tiny_rows(2000)  # ~80 KB: within the 128,000-byte cap, not its 1,000 rows
    batches: list[TransactionColumns] = []
    async with make_client(_service(_chunked(body, 4096)), max_response_bytes=128_000) as client:
        with pytest.raises(ResponseTooLargeError) as caught:
            await _collect(client, batches)
    assert len(_joined(batches)["transaction_ids"]) == 1000
    assert "max_response_rows (1,000)" in str(caught.value)
