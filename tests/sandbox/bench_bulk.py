"""Time user_bulk's transaction list: first (build + serialise) and cached read.

Not a test (pytest does not collect it). Run:
    python tests/sandbox/bench_bulk.py
"""

from __future__ import annotations

import asyncio
import time

import httpx

from accountdesk.sandbox import FrozenClock, create_app


async def main() -> None:
    app = create_app(clock=FrozenClock())
    transport = httpx.ASGITransport(app)
    async with httpx.AsyncClient(transport=transport, base_url="http://sandbox") as http:
        grant = await http.post(
            "/token", json={"api_key": "sandbox_key", "api_secret": "sandbox_secret"}
        )
        headers = {"Authorization": f"Bearer {grant.json()['access_token']}"}
        for label in ("first", "cached"):
            started = time.perf_counter()
            answer = await http.get("/accounts/user_bulk/transactions", headers=headers)
            elapsed = time.perf_counter() - started
            print(f"{label:>6}: {elapsed * 1000:8.1f} ms, {len(answer.content) / 1e6:.1f} MB")


if __name__ == "__main__":
    asyncio.run(main())
