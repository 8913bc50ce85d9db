"""Time user_bulk's transaction list: first read (build + serialise) and cached read.

Not a test (pytest does not collect it; it asserts nothing). Run:

    .venv/bin/python tests/sandbox/bench_bulk.py [--transactions 1000000]

Through both in-process transports, each on a fresh sandbox: ASGITransport
(the app runs on the caller's loop, which it holds for the whole build) and
the embedded transport (its own loop and thread). For each, how long the
read took and the longest the caller's loop went without a turn.
"""

from __future__ import annotations

import argparse
import asyncio
import time

import httpx

from accountdesk.sandbox import FrozenClock, create_app
from accountdesk.sandbox.embedded import EmbeddedTransport


class Ticker:
    """The longest the event loop went without giving this task a turn."""

    def __init__(self) -> None:
        self.last = time.perf_counter()
        self.longest = 0.0
        self._task = asyncio.create_task(self._tick())

    async def _tick(self) -> None:
        while True:
            await asyncio.sleep(0)
            self._note()

    def _note(self) -> None:
        now = time.perf_counter()
        self.longest = max(self.longest, now - self.last)
        self.last = now

    def stop(self) -> float:
        self._note()  # the gap up to now counts too (ASGITransport never yields)
        self._task.cancel()
        return self.longest


async def bench(label: str, transport: httpx.AsyncBaseTransport) -> None:
    async with httpx.AsyncClient(transport=transport, base_url="http://sandbox") as http:
        grant = await http.post(
            "/token", json={"api_key": "sandbox_key", "api_secret": "sandbox_secret"}
        )
        headers = {"Authorization": f"Bearer {grant.json()['access_token']}"}
        for read in ("first", "cached"):
            ticker = Ticker()
            started = time.perf_counter()
            answer = await http.get("/accounts/user_bulk/transactions", headers=headers)
            elapsed = time.perf_counter() - started
            stall = ticker.stop()
            print(
                f"{label:>9} {read:>6}: {elapsed * 1000:8.1f} ms, "
                f"{len(answer.content) / 1e6:6.1f} MB, caller's loop stalled at most "
                f"{stall * 1000:7.1f} ms"
            )


async def main(transactions: int) -> None:
    def app() -> object:
        return create_app(clock=FrozenClock(), bulk_transactions=transactions)

    await bench("asgi", httpx.ASGITransport(app()))  # type: ignore[arg-type]
    await bench("embedded", EmbeddedTransport(app()))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--transactions", type=int, default=100_000)
    asyncio.run(main(parser.parse_args().transactions))
