"""One set of rules for a transactions body, on every read path: the stream and the whole reads."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

import httpx
import pytest
from client_fakes import FakeService, envelope, make_client
from test_client_columns import _body, _row

from accountdesk.client import (
    AccountDataClient,
    FiConnectionError,
    MalformedResponseError,
)

pytestmark = pytest.mark.anyio

Read = Callable[[AccountDataClient], Awaitable[int]]


async def _stream(client: AccountDataClient) -> int:
    return sum([len(batch) async for batch in client.stream_transaction_columns("user_good")])


async def _records(client: AccountDataClient) -> int:
    return len(await client.get_transactions("user_good"))


READS = pytest.mark.parametrize("read", [_stream, _records], ids=["stream", "records"])


def _answering(content: bytes, status: int = 200) -> FakeService:
    return FakeService(lambda request: httpx.Response(status, content=content))


async def _outcome(read: Read, content: bytes) -> Any:
    async with make_client(_answering(content)) as client:
        return await read(client)


@READS
async def test_an_error_envelope_with_http_200_is_the_services_error(read: Read) -> None:
    # A bank that is down must not read as "No transactions".
    message = "We are having issues connecting to your bank."
    content = json.dumps(envelope("AC-104", message)).encode()
    with pytest.raises(FiConnectionError) as caught:
        await _outcome(read, content)
    assert caught.value.status == 200 and caught.value.message == message
    assert caught.value.path == "/accounts/user_good/transactions"


@READS
@pytest.mark.parametrize(
    "content",
    [b"{}", b'{"user_id": "user_good", "currency": "USD"}', b'{"error": "down"}'],
    ids=["empty", "no-list", "not-an-envelope"],
)
async def test_an_answer_without_its_list_is_malformed_not_empty(
    read: Read, content: bytes
) -> None:
    with pytest.raises(MalformedResponseError) as caught:
        await _outcome(read, content)
    assert "transactions.transactions: missing" in str(caught.value)


@READS
async def test_an_empty_list_is_still_no_transactions(read: Read) -> None:
    assert await _outcome(read, json.dumps(_body()).encode()) == 0
    assert await _outcome(read, json.dumps(_body(_row(1), _row(2))).encode()) == 2


@READS
async def test_a_list_sent_twice_is_refused_on_every_path(read: Read) -> None:
    content = b'{"transactions": [], "transactions": [' + json.dumps(_row(1)).encode() + b"]}"
    with pytest.raises(MalformedResponseError) as caught:
        await _outcome(read, content)
    assert "transactions.transactions: sent twice" in str(caught.value)


_HUGE = "1" * 100_000
_DEEP = "[" * 5000 + "]" * 5000


# (get_transactions is pydantic's parse, which names these itself: "number out
# of range", "recursion limit exceeded".)
@pytest.mark.parametrize("read", [_stream], ids=["stream"])
@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (
            '{"transactions": [ROW0, {"transaction_id": "t1", "amount": HUGE}]}',
            "transactions.transactions.1.amount: amount out of range",
        ),
        ('{"user_id": HUGE, "transactions": []}', "transactions.user_id: not a string"),
        ('{"user_id": DEEP, "transactions": []}', "JSON nested too deeply"),
        ('{"junk": DEEP, "transactions": []}', "JSON nested too deeply"),
        (
            '{"transactions": [ROW0, {"transaction_id": "t1", "amount": "1", "x": DEEP}]}',
            "nested too deeply",
        ),
    ],
    ids=["huge-amount", "huge-id", "deep-id", "deep-junk", "deep-row"],
)
async def test_what_is_wrong_is_named_not_called_not_json(
    read: Read, content: str, problem: str
) -> None:
    body = content.replace("HUGE", _HUGE).replace("DEEP", _DEEP)
    body = body.replace("ROW0", json.dumps(_row(0)))
    with pytest.raises(MalformedResponseError) as caught:
        await _outcome(read, body.encode())
    assert problem in str(caught.value)
    assert "not JSON" not in caught.value.problem
