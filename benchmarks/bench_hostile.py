"""A hostile transactions answer streamed by the client: memory and the event loop's longest stall.

The body (issue #33, item 18): 63 MB whose unknown first key holds
21,000,000 empty lists, then one row. The client's streamed read
(:meth:`AccountDataClient.stream_transaction_columns`, on an in-process
transport handing it 64 KB chunks) must step over that value without
building it and without holding the loop. Two rows, rounds alternating:

- ``hostile_memory``: the read's peak traced memory (tracemalloc) against
  the same body read whole (its chunks joined, what a whole read holds):
  the body's own size, measured. Target 1x: before, the stream built every
  list (1.8 GB, ~28x).
- ``hostile_stall``: the longest the loop went without running a 1 ms
  ticker during that read, against the same for a body of ordinary rows of
  the same size (the stream's usual work, its batches decoded in worker
  threads). Target 2x: before, 3.6-4.1 s of the last parse on the loop.
"""

from __future__ import annotations

import asyncio
import json
import time
import tracemalloc
from collections.abc import AsyncIterator, Callable
from typing import Any

import httpx

from accountdesk.client import AccountDataClient
from benchmarks.measure import Result, Target, TargetKind
from benchmarks.registry import benchmark

LISTS = 21_000_000
CHUNK = 64 * 1024
_ROW = {
    "transaction_id": "txn_000001",
    "date": "2026-03-01",
    "amount": "-12.34",
    "description": "Coffee",
    "category": "food",
    "pending": False,
}


def hostile_body() -> bytes:
    return b'{"junk": [' + b"[]," * (LISTS - 1) + b'[]], "transactions": [' + _row(1) + b"]}"


def usual_body(size: int) -> bytes:
    """Ordinary rows, about ``size`` bytes of them."""
    rows = size // (len(_row(0)) + 1)
    return b'{"transactions": [' + b",".join(_row(n) for n in range(rows)) + b"]}"


def _row(n: int) -> bytes:
    return json.dumps({**_ROW, "transaction_id": f"txn_{n:08d}"}).encode()


class _Chunks(httpx.AsyncByteStream):
    def __init__(self, body: bytes) -> None:
        self.body = body

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for at in range(0, len(self.body), CHUNK):
            yield self.body[at : at + CHUNK]
            await asyncio.sleep(0)  # as a socket's reads would: the loop runs between chunks


def _client(body: bytes) -> AccountDataClient:
    def answer(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/token":
            return httpx.Response(200, json={"access_token": "tok", "token_type": "bearer"})
        return httpx.Response(200, stream=_Chunks(body))

    transport = httpx.MockTransport(answer)
    return AccountDataClient("http://service.test", "key", "secret", transport=transport)


async def _stream(body: bytes) -> int:
    rows = 0
    async with _client(body) as client:
        async for batch in client.stream_transaction_columns("user_bulk"):
            rows += len(batch)
    return rows


async def _whole(body: bytes) -> int:
    async with _client(body) as client:
        await client.sign_in()
        async with client._session.http.stream("GET", "/accounts/user_bulk/transactions") as got:
            return len(b"".join([chunk async for chunk in got.aiter_bytes()]))


async def peak_mb(read: Callable[[bytes], Any], body: bytes) -> float:
    """Peak traced memory (MB) while ``read(body)`` runs, beyond what was held before."""
    tracemalloc.start()
    try:
        await read(body)
        return tracemalloc.get_traced_memory()[1] / 2**20
    finally:
        tracemalloc.stop()


async def longest_stall_ms(body: bytes) -> float:
    """The longest gap (ms) between runs of a 1 ms ticker while ``body`` is streamed."""
    longest = 0.0
    done = asyncio.Event()

    async def ticker() -> None:
        nonlocal longest
        last = time.perf_counter()
        while not done.is_set():
            await asyncio.sleep(0.001)
            now = time.perf_counter()
            longest = max(longest, now - last)
            last = now

    ticking = asyncio.create_task(ticker())
    try:
        await _stream(body)
    finally:
        done.set()
        await ticking
    return longest * 1000


@benchmark(
    "hostile_stream",
    "63 MB answer of 21,000,000 unneeded empty lists, streamed: peak memory, loop stall",
    rounds=3,
    seconds=40,
)
async def hostile_stream(rounds: int) -> list[Result]:
    hostile = hostile_body()
    usual = usual_body(len(hostile))
    memory: tuple[list[float], list[float]] = ([], [])
    stall: tuple[list[float], list[float]] = ([], [])
    for _ in range(rounds):
        memory[0].append(await peak_mb(_stream, hostile))
        memory[1].append(await peak_mb(_whole, hostile))
        stall[0].append(await longest_stall_ms(hostile))
        stall[1].append(await longest_stall_ms(usual))
    size = f"{len(hostile) / 1e6:.0f} MB"
    return [
        Result(
            "hostile_memory",
            f"streamed read of the {size} hostile body: peak traced memory",
            "the same body read whole (its bytes joined)",
            "MB",
            *memory,
            Target(TargetKind.RATIO, 1.0),
        ),
        Result(
            "hostile_stall",
            f"the loop's longest stall while the {size} hostile body streams",
            f"the same while {size} of ordinary rows stream",
            "ms",
            *stall,
            Target(TargetKind.RATIO, 2.0),
        ),
    ]
