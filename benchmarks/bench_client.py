"""The client's overhead: 2,000 ``get_account`` calls against raw httpx on the same transport.

The 2,000 calls of each side are spread over the rounds (4 rounds of 500 by
default), so path and floor take turns and the whole stays within the
suite's time; each sample is the mean time of one call in that round.
Four variants, each path against its floor in turns: in-process (the
embedded sandbox's transport, what the dashboard uses) and over a loopback
socket (a sandbox process), each sequential and 50 at a time. The path is
:meth:`AccountDataClient.get_account` (retry policy, bearer auth, event
hooks, pydantic record); the floor a bare ``httpx.AsyncClient`` on the same
transport sending the same ``Authorization`` header and decoding the JSON.
Both pay the same sandbox, so the ratio is the client's own cost on top.
"""

from __future__ import annotations

import asyncio
import sys
import time
from collections.abc import Awaitable, Callable
from typing import Any

import httpx

from accountdesk.client import AccountDataClient
from benchmarks.apps import API_KEY, API_SECRET
from benchmarks.measure import Result, Target, TargetKind, alternate_async
from benchmarks.processes import Server
from benchmarks.registry import benchmark
from benchmarks.session import bearer_header

#: Calls of each side, over all rounds.
CALLS = 2_000
CONCURRENCY = 50
USER = "user_good"


async def run_calls(call: Callable[[], Awaitable[Any]], calls: int, concurrency: int) -> float:
    """Mean seconds per call over ``calls`` calls, ``concurrency`` in flight at a time."""

    async def worker(count: int) -> None:
        for _ in range(count):
            await call()

    share, extra = divmod(calls, concurrency)
    started = time.perf_counter()
    await asyncio.gather(*(worker(share + (i < extra)) for i in range(concurrency)))
    return (time.perf_counter() - started) / calls


async def compare(
    label: str,
    base_url: str,
    transport: Callable[[], httpx.AsyncBaseTransport | None],
    rounds: int,
) -> list[Result]:
    results = []
    # One client of each kind for the whole benchmark: the pool stays warm.
    client = AccountDataClient(base_url, API_KEY, API_SECRET, transport=transport())
    await client.sign_in()
    raw = httpx.AsyncClient(
        base_url=base_url, transport=transport(), headers={"Accept": "application/json"}
    )
    raw.headers.update(await bearer_header(raw))

    async def path_call() -> Any:
        return await client.get_account(USER)

    async def floor_call() -> Any:
        answer = await raw.get(f"/accounts/{USER}")
        answer.raise_for_status()
        return answer.json()

    per_round = -(-CALLS // rounds)
    try:
        for concurrency, how in ((1, "sequential"), (CONCURRENCY, f"{CONCURRENCY} concurrent")):
            await run_calls(path_call, concurrency, concurrency)  # warm both before timing
            await run_calls(floor_call, concurrency, concurrency)

            async def path(concurrency: int = concurrency) -> float:
                return await run_calls(path_call, per_round, concurrency) * 1e6

            async def floor(concurrency: int = concurrency) -> float:
                return await run_calls(floor_call, per_round, concurrency) * 1e6

            path_us, floor_us = await alternate_async(path, floor, rounds)
            slug = how.split()[0] if concurrency == 1 else "concurrent"
            results.append(
                Result(
                    f"get_account_{label}_{slug}",
                    f"client.get_account, {label}, {how} ({rounds} x {per_round} calls)",
                    "raw httpx.AsyncClient, same transport and header, .json()",
                    "us/call",
                    path_us,
                    floor_us,
                    Target(TargetKind.RATIO, 1.2),
                )
            )
    finally:
        await client.aclose()
        await raw.aclose()
    return results


@benchmark(
    "get_account",
    "2,000 get_account calls: in-process and loopback, sequential and 50 concurrent",
    rounds=4,
    seconds=60,
)
async def get_account(rounds: int) -> list[Result]:
    from accountdesk.sandbox import embedded_transport

    # One sandbox behind both clients: its own per-request cost is the same for each.
    embedded = embedded_transport()
    results = await compare("in-process", "http://sandbox", lambda: _Shared(embedded), rounds)
    await embedded.aclose()
    with Server(sys.executable, "-m", "benchmarks.serve", "sandbox", "--port", "{port}") as server:
        results += await compare("loopback", server.url, lambda: None, rounds)
    return results


class _Shared(httpx.AsyncBaseTransport):
    """One embedded transport shared by two clients (each closes its transport on exit)."""

    def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
        self.inner = inner

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        return await self.inner.handle_async_request(request)

    async def aclose(self) -> None:
        pass
