"""stream_transaction_columns: the whole read's rows and rules, batch by batch as they arrive."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from client_fakes import FakeService, make_client
from test_client_columns import _body, _row

from accountdesk.client import (
    AccountDataClient,
    ApiError,
    MalformedResponseError,
    ResponseTooLargeError,
    StreamInterruptedError,
    TransactionColumns,
)
from accountdesk.client.transactions import stream as stream_module
from loopback_server import serve_app
from transaction_bodies import collect

pytestmark = pytest.mark.anyio

_FIELDS = ("transaction_ids", "dates", "amounts", "descriptions", "categories", "pending")


class _Body(httpx.AsyncByteStream):
    """A body sent in ``chunks``; ``then`` raised after them (a dropped connection)."""

    def __init__(self, chunks: list[bytes], then: Exception | None = None) -> None:
        self.chunks = chunks
        self.then = then

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for chunk in self.chunks:
            yield chunk
        if self.then is not None:
            raise self.then


def _chunked(content: bytes, size: int) -> list[bytes]:
    return [content[i : i + size] for i in range(0, len(content), size)]


def _service(chunks: list[bytes], then: Exception | None = None) -> FakeService:
    return FakeService(lambda request: httpx.Response(200, stream=_Body(chunks, then)))


async def _collect(client: AccountDataClient, into: list[TransactionColumns]) -> None:
    async for batch in client.stream_transaction_columns("user_good"):
        into.append(batch)


def _joined(batches: list[TransactionColumns]) -> dict[str, list[Any]]:
    return {name: [v for batch in batches for v in getattr(batch, name)] for name in _FIELDS}


async def _whole(content: bytes) -> TransactionColumns:
    service = FakeService(lambda request: httpx.Response(200, content=content))
    async with make_client(service) as client:
        return await collect(client, "user_good")


_BODIES = [
    _body(*(_row(n) for n in range(50))),
    _body(
        _row(1, pending=True, description='brace } and \\" quote {'),
        _row(2, date=None, category=None, amount=7),  # the row-by-row path
        _row(3, extra={"nested": [{"a": "}"}]}, description="Café \x1b[2J"),
    ),
    {"transactions": [_row(1)], "currency": "EUR", "user_id": "user_good"},  # header last
    _body(),
]


@pytest.mark.parametrize("body", _BODIES)
@pytest.mark.parametrize("size", [1, 7, 64, 1 << 20])
async def test_batches_hold_what_the_whole_read_holds(body: dict[str, Any], size: int) -> None:
    content = json.dumps(body, indent=1 if size == 7 else None).encode()
    whole = await _whole(content)
    batches: list[TransactionColumns] = []
    async with make_client(_service(_chunked(content, size))) as client:
        await _collect(client, batches)
    assert _joined(batches) == {name: getattr(whole, name) for name in _FIELDS}
    assert (batches[-1].user_id, batches[-1].currency) == (whole.user_id, whole.currency)


async def test_the_first_batch_comes_before_the_rest_of_the_body(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(stream_module, "FIRST_BATCH_BYTES", 1024)
    content = json.dumps(_body(*(_row(n) for n in range(2000)))).encode()
    more = asyncio.Event()

    class Held(httpx.AsyncByteStream):
        async def __aiter__(self) -> AsyncIterator[bytes]:
            yield content[:4096]
            await more.wait()  # the rest only once the first rows were handed out
            yield content[4096:]

    service = FakeService(lambda request: httpx.Response(200, stream=Held()))
    batches: list[TransactionColumns] = []
    async with make_client(service) as client:
        async for batch in client.stream_transaction_columns("user_good"):
            if not batches:
                assert 0 < len(batch) < 2000 and batch.transaction_ids[0] == "txn_000000"
                more.set()
            batches.append(batch)
    assert sum(map(len, batches)) == 2000


@pytest.mark.parametrize(
    ("row", "where"),
    [
        (_row(1, amount="1e3000000"), "transactions.transactions.1500.amount: amount out of range"),
        (_row(1, transaction_id=5), "transactions.transactions.1500.transaction_id: not a string"),
        (_row(1, transaction_id="t\x1b[2J"), "transactions.transactions.1500.transaction_id"),
        (_row(1, pending="maybe"), "transactions.transactions.1500.pending"),
        ("not a row", "transactions.transactions.1500: not an object"),
    ],
)
async def test_a_bad_row_is_named_by_its_place_and_the_batches_before_are_kept(
    row: Any, where: str
) -> None:
    rows = [_row(n) for n in range(1500)]
    content = json.dumps(_body(*rows, row, _row(1501))).encode()
    batches: list[TransactionColumns] = []
    async with make_client(_service(_chunked(content, 16384))) as client:
        with pytest.raises(MalformedResponseError) as caught:
            await _collect(client, batches)
    assert where in str(caught.value)
    kept = _joined(batches)["transaction_ids"]
    assert kept and kept == [f"txn_{n:06d}" for n in range(len(kept))] and len(kept) <= 1500


async def test_a_body_that_stops_being_json_is_named_where_it_breaks() -> None:
    content = json.dumps(_body(*(_row(n) for n in range(3000)))).encode()
    broken = content.replace(b'"txn_002000"', b'"txn_002000', 1)  # an unclosed string
    batches: list[TransactionColumns] = []
    async with make_client(_service(_chunked(broken, 65536))) as client:
        with pytest.raises(MalformedResponseError) as caught:
            await _collect(client, batches)
    assert "transactions.transactions.2000: not JSON" in str(caught.value)
    assert "2,000 rows before it are kept" in str(caught.value)
    assert _joined(batches)["transaction_ids"] == [f"txn_{n:06d}" for n in range(2000)]


@pytest.mark.parametrize(
    ("content", "where"),
    [
        (b"[]", "not a JSON object"),
        (b"<html>", "not JSON"),
        (b'{"transactions": {}}', "transactions.transactions: not a list"),
        (b'{"transactions": [{"transaction_id": "t", "amount": NaN}]}', "not a number JSON"),
        (b'{"user_id": "..", "transactions": []}', "transactions.user_id"),
        (b'{"transactions": [], "transactions": []}', "sent twice"),
        (b'{"transactions": []} trailing', "not JSON"),
        (b'{"transactions": [', "ends early"),
    ],
)
async def test_bodies_that_are_not_transaction_lists(content: bytes, where: str) -> None:
    async with make_client(_service([content])) as client:
        with pytest.raises(MalformedResponseError) as caught:
            await _collect(client, [])
    assert where in str(caught.value)


async def test_a_dropped_connection_keeps_what_arrived_and_says_where_it_stopped() -> None:
    content = json.dumps(_body(*(_row(n) for n in range(1000)))).encode()
    half = content[: len(content) // 2]
    batches: list[TransactionColumns] = []
    service = _service(_chunked(half, 8192), httpx.RemoteProtocolError("peer closed"))
    async with make_client(service) as client:
        with pytest.raises(StreamInterruptedError) as caught:
            await _collect(client, batches)
    kept = _joined(batches)["transaction_ids"]
    # Every whole row that arrived, none cut in half.
    assert 400 < len(kept) < 500 and kept == [f"txn_{n:06d}" for n in range(len(kept))]
    assert caught.value.rows == len(kept) and caught.value.received == len(half)
    assert f"after {len(kept):,} rows" in str(caught.value) and "RemoteProtocolError" in str(
        caught.value
    )


async def test_a_stalled_answer_ends_at_the_calls_deadline() -> None:
    now = [0.0]
    stall = asyncio.Event()

    class Stalled(httpx.AsyncByteStream):
        async def __aiter__(self) -> AsyncIterator[bytes]:
            now[0] = 100.0  # the call's deadline passes while the first rows are read
            yield json.dumps(_body(*(_row(n) for n in range(100))))[:3000].encode()
            await stall.wait()
            yield b""

    service = FakeService(lambda request: httpx.Response(200, stream=Stalled()))
    batches: list[TransactionColumns] = []
    async with make_client(service, monotonic=lambda: now[0], call_timeout=5) as client:
        with pytest.raises(StreamInterruptedError) as caught:
            await _collect(client, batches)
    assert caught.value.reason == "timeout" and "within 5 s" in str(caught.value)
    assert caught.value.rows == sum(map(len, batches)) > 0


async def test_the_size_cap_holds() -> None:
    content = json.dumps(_body(*(_row(n) for n in range(500)))).encode()
    async with make_client(_service(_chunked(content, 4096)), max_response_bytes=20_000) as client:
        with pytest.raises(ResponseTooLargeError):
            await _collect(client, [])

    def declared(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, headers={"Content-Length": "99999999"}, stream=_Body([b"{"]))

    async with make_client(FakeService(declared), max_response_bytes=20_000) as client:
        with pytest.raises(ResponseTooLargeError):
            await _collect(client, [])


async def test_an_error_answer_raises_its_error_before_any_batch() -> None:
    error = {"error": {"code": "AC-100", "message": "No such user"}}
    service = FakeService(lambda request: httpx.Response(404, json=error))
    async with make_client(service) as client:
        with pytest.raises(ApiError, match="No such user"):
            await _collect(client, [])


# -- a real loopback socket ------------------------------------------------------


def _streaming_app(chunks: list[bytes], *, drop: bool) -> Any:
    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return
        if scope["path"] == "/token":
            body = json.dumps({"access_token": "tok-1", "token_type": "bearer"}).encode()
            await send({"type": "http.response.start", "status": 200, "headers": []})
            await send({"type": "http.response.body", "body": body})
            return
        headers = [(b"content-type", b"application/json")]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        for chunk in chunks:
            await send({"type": "http.response.body", "body": chunk, "more_body": True})
        if drop:
            raise RuntimeError("the server went away")  # uvicorn drops the connection
        await send({"type": "http.response.body", "body": b""})

    return app


@pytest.mark.parametrize("drop", [False, True])
async def test_over_a_real_socket(drop: bool) -> None:
    content = json.dumps(_body(*(_row(n) for n in range(3000)))).encode()
    chunks = _chunked(content if not drop else content[: len(content) * 2 // 3], 32768)
    batches: list[TransactionColumns] = []
    with serve_app(_streaming_app(chunks, drop=drop)) as url:
        async with AccountDataClient(url, "key", "secret") as client:
            if drop:
                with pytest.raises(StreamInterruptedError) as caught:
                    await _collect(client, batches)
                assert caught.value.rows == sum(map(len, batches))
            else:
                await _collect(client, batches)
    kept = _joined(batches)["transaction_ids"]
    assert kept == [f"txn_{n:06d}" for n in range(3000 if not drop else len(kept))]
    assert len(batches) > 1 and (not drop or 1500 < len(kept) < 2000)
