"""user_bulk: 100,000 transactions, deterministic, built once and cached."""

from __future__ import annotations

import json
from collections import Counter

import httpx
import pytest
from sandbox_helpers import BASE_URL, START, bearer

from accountdesk.sandbox import FrozenClock, create_app

pytestmark = pytest.mark.anyio


async def _transactions(seed: int) -> tuple[bytes, bytes]:
    app = create_app(clock=FrozenClock(START), ids=seed)
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app), base_url=BASE_URL) as http:
        headers = await bearer(http)
        first = await http.get("/accounts/user_bulk/transactions", headers=headers)
        second = await http.get("/accounts/user_bulk/transactions", headers=headers)
    assert first.status_code == second.status_code == 200
    assert first.headers["content-type"] == "application/json"
    return first.content, second.content


async def test_user_bulk_has_100000_deterministic_transactions() -> None:
    first, cached = await _transactions(seed=1)
    assert cached == first
    body = json.loads(first)
    rows = body["transactions"]
    assert len(rows) == 100_000
    assert len({row["transaction_id"] for row in rows}) == 100_000
    dates = [row["date"] for row in rows]
    assert dates == sorted(dates, reverse=True) and dates[0] == START.date().isoformat()
    assert all(isinstance(row["amount"], str) and row["amount"].count(".") == 1 for row in rows[:1000])
    assert len(Counter(row["category"] for row in rows)) >= 8
    # Another sandbox (other ids, same day) serves the very same bytes.
    other, _ = await _transactions(seed=2)
    assert other == first
