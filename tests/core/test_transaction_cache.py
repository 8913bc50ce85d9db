"""The session's transaction cache, alone and through the desk (no screen)."""

from __future__ import annotations

import asyncio
from decimal import Decimal
from pathlib import Path

import httpx
import pytest
from pydantic import SecretStr

from accountdesk.core.desk import Desk
from accountdesk.core.settings.model import load_settings
from accountdesk.core.settings.paths import AppDirs
from accountdesk.core.transactions.cache import TransactionCache, TransactionKey
from accountdesk.core.transactions.columns import TransactionRow
from accountdesk.core.transactions.data import TransactionData
from transaction_bodies import read_whole


def data(rows: int) -> TransactionData:
    return TransactionData.from_rows(
        [TransactionRow(f"t{i}", "2026-01-01", "x", "y", Decimal(i), False) for i in range(rows)]
    )


def key(user: str, service: str = "sandbox", api_key: str = "sandbox_key") -> TransactionKey:
    return TransactionKey(service, api_key, user)


def test_the_least_recently_used_user_goes_first() -> None:
    cache = TransactionCache(max_users=2)
    a, b, c = data(1), data(1), data(1)
    cache.put(key("a"), a)
    cache.put(key("b"), b)
    assert cache.get(key("a")) is a  # a is now the most recent
    cache.put(key("c"), c)
    assert key("b") not in cache and cache.get(key("a")) is a and cache.get(key("c")) is c
    assert len(cache) == 2


def test_rows_bound_the_cache_but_the_newest_user_stays() -> None:
    cache = TransactionCache(max_users=10, max_rows=100)
    cache.put(key("small"), data(30))
    cache.put(key("medium"), data(60))
    assert cache.rows == 90
    cache.put(key("big"), data(500))  # over the bound alone: kept, the others go
    assert list(map(cache.__contains__, (key("small"), key("medium"), key("big")))) == [
        False,
        False,
        True,
    ]
    cache.put(key("tiny"), data(1))
    assert key("big") not in cache and key("tiny") in cache


def test_services_keys_and_users_are_separate_and_clear_empties() -> None:
    cache = TransactionCache()
    live, sandbox = data(1), data(2)
    cache.put(key("u", "https://api.bank.example"), live)
    cache.put(key("u"), sandbox)
    assert cache.get(key("u", "https://api.bank.example")) is live
    assert cache.get(key("u")) is sandbox
    assert cache.get(key("u", api_key="limited_key")) is None  # another key's, not ours
    assert cache.get(key("v")) is None
    cache.forget(key("u"))
    assert cache.get(key("u")) is None
    cache.clear()
    assert len(cache) == 0 and cache.rows == 0
    with pytest.raises(ValueError):
        TransactionCache(max_users=0)


class CountingService:
    """The sandbox's answer shape, counting the reads."""

    def __init__(self) -> None:
        self.reads: list[str] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        if request.url.path == "/token":
            return httpx.Response(
                200, json={"access_token": "tok", "token_type": "Bearer", "expires_in": 3600}
            )
        if request.url.path.startswith("/_sandbox/"):
            # A live service: no sandbox endpoints (the desk asks once at sign-in).
            return httpx.Response(404)
        user = request.url.path.split("/")[2]
        self.reads.append(user)
        return httpx.Response(
            200,
            json={
                "user_id": user,
                "currency": "EUR",
                "transactions": [
                    {"transaction_id": f"{user}-{len(self.reads)}", "date": "2026-11-01",
                     "amount": "-2.50", "description": "Bakery", "category": "Dining"},
                ],
            },
        )  # fmt: skip


def make_desk(tmp_path: Path, service: CountingService) -> Desk:
    dirs = AppDirs(tmp_path / "config.toml", tmp_path / "data", tmp_path / "logs")
    settings = load_settings(dirs.config_path, flags={"base_url": "https://api.bank.example"})
    return Desk(settings, dirs, transport=httpx.MockTransport(service))


@pytest.mark.anyio
async def test_desk_reads_each_user_once_per_session(tmp_path: Path) -> None:
    service = CountingService()
    desk = make_desk(tmp_path, service)
    await desk.sign_in("key", SecretStr("secret"))
    first = await read_whole(desk, "u1")
    assert desk.cached_transactions("u1") is first  # a screen opened again reads nothing
    other = await read_whole(desk, "u2")
    assert service.reads == ["u1", "u2"] and other is not first
    reloaded = await read_whole(desk, "u1")  # `l` on the screen: read afresh
    assert service.reads == ["u1", "u2", "u1"] and reloaded is not first
    assert desk.cached_transactions("u1") is reloaded  # the reload replaced it
    assert reloaded.currency == "EUR" and reloaded.row(0).description == "Bakery"
    await desk.sign_out()
    assert len(desk.transactions.cache) == 0
    await desk.sign_in("key", SecretStr("secret"))
    assert desk.cached_transactions("u1") is None
    await read_whole(desk, "u1")
    assert service.reads == ["u1", "u2", "u1", "u1"]
    await desk.close()


@pytest.mark.anyio
async def test_a_read_that_ends_after_signing_in_again_is_not_kept(tmp_path: Path) -> None:
    # Signing out stops every read; signing in again (another key) does not:
    # a read of the session before that ends unseen by the new one.
    service = CountingService()
    desk = make_desk(tmp_path, service)
    await desk.sign_in("key", SecretStr("secret"))
    original = desk.client.stream_transaction_columns
    signed_in_again = asyncio.Event()

    async def ends_later(user_id: str):  # type: ignore[no-untyped-def]
        async for batch in original(user_id):
            yield batch
        await signed_in_again.wait()

    desk.client.stream_transaction_columns = ends_later  # type: ignore[method-assign]
    read = desk.start_transaction_read("u1")
    while not read.batches:
        await asyncio.sleep(0.01)
    await desk.sign_in("key2", SecretStr("secret"))
    signed_in_again.set()
    data = [update async for update in read.updates()][-1]
    assert len(data) == 1 and data.complete and len(desk.transactions.cache) == 0
    await desk.close()


@pytest.mark.anyio
async def test_the_apps_size_cap_reaches_the_client(tmp_path: Path) -> None:
    from accountdesk.client import ResponseTooLargeError

    def service(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/token":
            return httpx.Response(
                200, json={"access_token": "tok", "token_type": "Bearer", "expires_in": 3600}
            )
        row = {"transaction_id": "t", "date": "2026-11-01", "amount": "1.00", "description": "x"}
        return httpx.Response(200, json={"transactions": [row] * 20_000})  # about 1.6 MB

    dirs = AppDirs(tmp_path / "config.toml", tmp_path / "data", tmp_path / "logs")
    flags = {"base_url": "https://api.bank.example", "max_response_mb": 1}
    desk = Desk(
        load_settings(dirs.config_path, flags=flags), dirs, transport=httpx.MockTransport(service)
    )
    await desk.sign_in("key", SecretStr("secret"))
    with pytest.raises(ResponseTooLargeError):
        await read_whole(desk, "u1")
    await desk.close()
