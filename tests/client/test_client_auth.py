"""Token lifecycle: lazy fetch, single flight, renewal ahead of expiry, renew+replay on AC-001."""

from __future__ import annotations

import asyncio

import httpx
import pytest
from client_fakes import (
    API_KEY,
    API_SECRET,
    TOKEN,
    FakeMonotonic,
    FakeService,
    make_client,
    request_json,
)

from accountdesk.client import (
    InvalidCredentialsError,
    InvalidRequestError,
    MalformedResponseError,
    NotAuthorizedError,
)
from accountdesk.contract import ERRORS

ACCOUNT = {"user_id": "user_good"}
AC_001 = ERRORS["AC-001"].body_for()


def accept_current_token(service: FakeService):
    """API handler: 200 for the newest token, 403 AC-001 for any older one."""

    def api(request: httpx.Request) -> httpx.Response:
        if request.headers.get("Authorization") == f"Bearer {service.current_token}":
            return httpx.Response(200, json=ACCOUNT)
        return httpx.Response(403, json=AC_001)

    return api


@pytest.mark.anyio
async def test_token_is_fetched_lazily_with_json_credentials_and_cached() -> None:
    service = FakeService(lambda request: httpx.Response(200, json=ACCOUNT))
    async with make_client(service) as client:
        assert service.requests == []  # nothing sent on construction
        await client.get_account("user_good")
        await client.get_account("user_good")
    token_request = service.requests[0]
    assert token_request.method == "POST" and token_request.url.path == "/token"
    assert request_json(token_request) == {"api_key": API_KEY, "api_secret": API_SECRET}
    assert "Authorization" not in token_request.headers
    assert service.token_requests == 1
    for request in service.api_requests:
        assert request.headers["Authorization"] == "Bearer tok-abcdef-0123456789-1"


@pytest.mark.anyio
async def test_two_hundred_concurrent_first_calls_make_one_token_request() -> None:
    gate = asyncio.Event()

    async def slow_token(request: httpx.Request) -> httpx.Response:
        await gate.wait()  # hold the first token request until everyone queued
        return httpx.Response(200, json={"access_token": "tok-shared-0001", "expires_in": 3600})

    service = FakeService(
        lambda request: httpx.Response(200, json=ACCOUNT), token_handler=slow_token
    )
    async with make_client(service) as client:
        calls = [asyncio.create_task(client.get_account("user_good")) for _ in range(200)]
        while service.token_requests == 0:
            await asyncio.sleep(0)
        for _ in range(5):
            await asyncio.sleep(0)
        gate.set()
        accounts = await asyncio.gather(*calls)
    assert len(accounts) == 200
    assert service.token_requests == 1
    assert len(service.api_requests) == 200
    assert {r.headers["Authorization"] for r in service.api_requests} == {"Bearer tok-shared-0001"}


@pytest.mark.anyio
async def test_concurrent_calls_with_wrong_secret_share_one_refusal() -> None:
    gate = asyncio.Event()

    async def refuse(request: httpx.Request) -> httpx.Response:
        await gate.wait()  # everyone queues behind this one token request
        return httpx.Response(401, json=ERRORS["AC-101"].body_for())

    service = FakeService(token_handler=refuse)
    async with make_client(service) as client:
        calls = [asyncio.create_task(client.get_balance("user_good")) for _ in range(50)]
        while service.token_requests == 0:
            await asyncio.sleep(0)
        for _ in range(5):
            await asyncio.sleep(0)
        gate.set()
        results = await asyncio.gather(*calls, return_exceptions=True)
    assert all(isinstance(result, InvalidCredentialsError) for result in results)
    assert service.token_requests == 1
    assert service.api_requests == []


@pytest.mark.anyio
async def test_sign_in_fetches_now_and_surfaces_ac101_and_ac100() -> None:
    service = FakeService()
    async with make_client(service) as client:
        await client.sign_in()
        assert service.token_requests == 1 and service.api_requests == []
        await client.sign_in()  # asks again even with a fresh token in hand
        assert service.token_requests == 2
    for code, error in (("AC-101", InvalidCredentialsError), ("AC-100", InvalidRequestError)):
        spec = ERRORS[code]
        answer = httpx.Response(spec.status, json=spec.body_for())
        refusing = FakeService(token_handler=lambda request, answer=answer: answer)
        async with make_client(refusing) as client:
            with pytest.raises(error) as caught:
                await client.sign_in()
        assert caught.value.path == "/token" and caught.value.method == "POST"


@pytest.mark.anyio
async def test_sign_in_after_a_failure_asks_again() -> None:
    answers = iter(
        [
            httpx.Response(401, json=ERRORS["AC-101"].body_for()),
            httpx.Response(200, json={"access_token": "t-ok-1"}),
        ]
    )
    service = FakeService(token_handler=lambda request: next(answers))
    async with make_client(service) as client:
        with pytest.raises(InvalidCredentialsError):
            await client.sign_in()
        await client.sign_in()
    assert service.token_requests == 2


@pytest.mark.anyio
async def test_stale_token_is_renewed_and_the_request_replayed_once() -> None:
    service = FakeService()
    service.api = accept_current_token(service)
    async with make_client(service) as client:
        await client.get_account("user_good")
        service.token_requests += 10  # the service revokes the token we hold
        account = await client.get_account("user_good")
    assert account.user_id == "user_good"
    auths = [r.headers["Authorization"].removeprefix("Bearer ") for r in service.api_requests]
    old, new = f"{TOKEN}-1", f"{TOKEN}-12"
    assert auths == [old, old, new]  # the refused request was replayed once, renewed


@pytest.mark.anyio
async def test_replay_refused_again_is_final() -> None:
    service = FakeService(lambda request: httpx.Response(403, json=AC_001))
    async with make_client(service) as client:
        with pytest.raises(NotAuthorizedError) as caught:
            await client.refresh_balance("user_mfa")
    assert caught.value.status == 403 and caught.value.code == "AC-001"
    assert len(service.api_requests) == 2  # first try + one replay, no loop
    assert service.token_requests == 2


@pytest.mark.anyio
async def test_concurrent_stale_refusals_cause_one_renewal() -> None:
    service = FakeService()
    service.api = accept_current_token(service)
    async with make_client(service) as client:
        await client.sign_in()
        service.token_requests += 1  # revoke
        results = await asyncio.gather(*(client.get_account("user_good") for _ in range(30)))
    assert len(results) == 30
    assert service.token_requests == 3  # sign-in, (revoked), exactly one renewal


@pytest.mark.anyio
async def test_403_without_ac001_is_not_replayed() -> None:
    service = FakeService(lambda request: httpx.Response(403, text="<html>Forbidden by WAF</html>"))
    async with make_client(service) as client:
        with pytest.raises(MalformedResponseError) as caught:
            await client.get_account("user_good")
    assert caught.value.status == 403 and caught.value.code is None
    assert len(service.api_requests) == 1 and service.token_requests == 1


@pytest.mark.anyio
async def test_token_is_renewed_ahead_of_expiry() -> None:
    clock = FakeMonotonic()
    service = FakeService(expires_in=300)
    service.api = accept_current_token(service)
    async with make_client(service, monotonic=clock) as client:
        await client.get_account("user_good")
        clock.now += 269  # margin is min(60 s, 10 %) = 30 s: still fresh
        await client.get_account("user_good")
        assert service.token_requests == 1
        clock.now += 2  # 271 s: inside the margin, renewed before use
        await client.get_account("user_good")
        assert service.token_requests == 2
    # Renewed before use: no request went out with the old token and got refused.
    auths = [r.headers["Authorization"].rsplit("-", 1)[1] for r in service.api_requests]
    assert auths == ["1", "1", "2"]


@pytest.mark.anyio
async def test_long_lived_token_margin_is_capped_at_a_minute() -> None:
    clock = FakeMonotonic()
    service = FakeService(expires_in=3600)
    async with make_client(service, monotonic=clock) as client:
        await client.sign_in()
        clock.now += 3539
        await client.get_account("user_good")
        assert service.token_requests == 1
        clock.now += 2
        await client.get_account("user_good")
        assert service.token_requests == 2


@pytest.mark.anyio
async def test_unknown_lifetime_is_kept_until_refused() -> None:
    clock = FakeMonotonic()
    service = FakeService(expires_in=None)
    async with make_client(service, monotonic=clock) as client:
        await client.get_account("user_good")
        clock.now += 10**6
        await client.get_account("user_good")
    assert service.token_requests == 1
