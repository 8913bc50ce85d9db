"""The embedded transport: the sandbox on its own loop and thread, like ASGITransport."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import AsyncIterator, Iterator, MutableMapping
from typing import Any

import httpx
import pytest
from sandbox_helpers import BASE_URL, START, bearer

from accountdesk.sandbox import FrozenClock, create_app, embedded_transport, records
from accountdesk.sandbox.wire.embedded import EmbeddedTransport

pytestmark = pytest.mark.anyio

#: How often the caller's loop must get a turn while the sandbox is busy.
TICKS = 500
BULK = 5_000


async def test_the_callers_loop_keeps_running_while_a_bulk_read_is_served(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The bulk build waits (in the sandbox's thread) until the caller's loop
    # has ticked TICKS times. On ASGITransport the build runs on the caller's
    # loop, the ticker never gets a turn and the wait gives up: released False.
    release = threading.Event()
    released: list[bool] = []
    build = records.transactions_pieces

    def build_when_released(*args: Any) -> Iterator[bytes]:
        released.append(release.wait(timeout=30))
        yield from build(*args)

    monkeypatch.setattr(records, "transactions_pieces", build_when_released)
    ticks = 0

    async def ticker() -> None:
        nonlocal ticks
        while True:
            ticks += 1
            if ticks == TICKS:
                release.set()
            await asyncio.sleep(0)

    # A smaller user_bulk: the wait above, not the size, holds the sandbox busy.
    transport = embedded_transport(clock=FrozenClock(START), ids=1, bulk_transactions=BULK)
    async with httpx.AsyncClient(transport=transport, base_url=BASE_URL) as http:
        headers = await bearer(http)
        ticking = asyncio.create_task(ticker())
        answer = await http.get("/accounts/user_bulk/transactions", headers=headers)
        ticking.cancel()
    assert released == [True]
    assert ticks >= TICKS
    assert len(answer.json()["transactions"]) == BULK


async def _flow(transport: httpx.AsyncBaseTransport) -> list[tuple[int, list[Any], bytes]]:
    answers = []
    async with httpx.AsyncClient(transport=transport, base_url=BASE_URL) as http:
        headers = await bearer(http)
        for method, path, body in (
            ("GET", "/accounts/user_good", None),
            ("POST", "/accounts/user_mfa/refresh", None),
            ("POST", "/accounts/user_mfa/mfa/job_0001", b'{"answer": "1234"}'),
            ("POST", "/accounts/user_mfa/mfa/job_0001/resolve", None),
            ("GET", "/accounts/user_mfa/job/job_0001", None),
            ("DELETE", "/accounts/user_good", None),
            ("GET", "/accounts/..%2Fx/balance", None),
            ("POST", "/token", b"{broken"),
            ("HEAD", "/accounts/user_good", None),
        ):
            answer = await http.request(method, path, headers=headers, content=body)
            answers.append((answer.status_code, answer.headers.multi_items(), answer.content))
    return answers


async def test_answers_exactly_like_asgi_transport() -> None:
    asgi = httpx.ASGITransport(create_app(clock=FrozenClock(START), ids=1))
    embedded = embedded_transport(clock=FrozenClock(START), ids=1)
    assert await _flow(embedded) == await _flow(asgi)


async def test_aclose_stops_the_thread_and_a_later_request_starts_it_again() -> None:
    transport = embedded_transport(clock=FrozenClock(START), ids=1)
    assert transport.thread is None  # nothing runs before the first request
    async with httpx.AsyncClient(transport=transport, base_url=BASE_URL) as http:
        headers = await bearer(http)
        job_id = (await http.post("/accounts/user_good/identity", headers=headers)).json()["job_id"]
        thread = transport.thread
        assert thread is not None and thread.is_alive() and thread.daemon
    assert transport.thread is None and not thread.is_alive()  # the client closed it
    await transport.aclose()  # twice is fine
    # A second client on the same transport (the dashboard signs in again):
    # the sandbox, and its state, is still there.
    async with httpx.AsyncClient(transport=transport, base_url=BASE_URL) as http:
        answer = await http.get(f"/accounts/user_good/job/{job_id}", headers=headers)
        assert answer.status_code == 200 and transport.thread is not thread
    assert transport.thread is None


async def test_streamed_request_bodies_reach_the_app() -> None:
    async def chunks() -> AsyncIterator[bytes]:
        for chunk in (b'{"api_key": "sandbox_key", ', b'"api_secret": "sandbox_secret"}'):
            yield chunk

    transport = embedded_transport(clock=FrozenClock(START), ids=1)
    async with httpx.AsyncClient(transport=transport, base_url=BASE_URL) as http:
        answer = await http.post("/token", content=chunks())
    assert answer.status_code == 200 and answer.json()["token_type"] == "Bearer"


async def _crashing_app(scope: MutableMapping[str, Any], receive: Any, send: Any) -> None:
    raise RuntimeError("boom")


async def test_app_exceptions_are_raised_in_the_caller_like_asgi_transport() -> None:
    async with httpx.AsyncClient(
        transport=EmbeddedTransport(_crashing_app), base_url=BASE_URL
    ) as http:
        with pytest.raises(RuntimeError, match="boom"):
            await http.get("/")
    quiet = EmbeddedTransport(_crashing_app, raise_app_exceptions=False)
    async with httpx.AsyncClient(transport=quiet, base_url=BASE_URL) as http:
        assert (await http.get("/")).status_code == 500


async def test_a_cancelled_caller_cancels_the_request_in_the_sandbox() -> None:
    started, cancelled = threading.Event(), threading.Event()

    async def hanging_app(scope: MutableMapping[str, Any], receive: Any, send: Any) -> None:
        started.set()
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            cancelled.set()
            raise

    transport = EmbeddedTransport(hanging_app)
    async with httpx.AsyncClient(transport=transport, base_url=BASE_URL) as http:
        request = asyncio.create_task(http.get("/"))
        while not started.is_set():
            await asyncio.sleep(0)
        request.cancel()
        with pytest.raises(asyncio.CancelledError):
            await request
        assert await asyncio.to_thread(cancelled.wait, 30)


async def test_an_answer_is_read_while_the_sandbox_still_builds_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The build stops after its first piece until the caller has read it: on
    # ASGITransport (which waits for the whole body) the read never returns.
    first_read = threading.Event()
    build = records.transactions_pieces

    def build_after_first_read(*args: Any) -> Iterator[bytes]:
        pieces = build(*args)
        yield next(pieces)
        assert first_read.wait(timeout=30)
        yield from pieces

    monkeypatch.setattr(records, "transactions_pieces", build_after_first_read)
    transport = embedded_transport(clock=FrozenClock(START), ids=1, bulk_transactions=BULK)
    async with httpx.AsyncClient(transport=transport, base_url=BASE_URL) as http:
        headers = await bearer(http)
        async with http.stream("GET", "/accounts/user_bulk/transactions", headers=headers) as got:
            chunks = got.aiter_raw()
            first = await anext(chunks)
            assert first.startswith(b'{"user_id":"user_bulk"') and b"txn_000001" in first
            first_read.set()
            body = first + b"".join([chunk async for chunk in chunks])
    assert len(json.loads(body)["transactions"]) == BULK


async def test_an_app_failing_in_the_middle_of_an_answer_drops_it() -> None:
    async def failing_app(scope: MutableMapping[str, Any], receive: Any, send: Any) -> None:
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"{", "more_body": True})
        raise RuntimeError("boom")

    transport = EmbeddedTransport(failing_app)
    async with httpx.AsyncClient(transport=transport, base_url=BASE_URL) as http:
        with pytest.raises(httpx.ReadError):
            await http.get("/")
