"""Retry policy: what is retried on which method, how long the client waits."""

from __future__ import annotations

import email.utils
import random

import httpx
import pytest
from client_fakes import FakeService, SleepRecorder, envelope, job_body, make_client

from accountdesk.client import (
    AccountBlockedError,
    ApiError,
    JobConflictError,
    MalformedResponseError,
    RetryPolicy,
    TransportError,
    parse_retry_after,
)
from accountdesk.contract import ERRORS

ACCOUNT = {"user_id": "user_good"}


def failing_then(failures: list, success: httpx.Response):
    """A handler that raises/returns each of ``failures`` in turn, then ``success``."""
    remaining = list(failures)

    def handler(request: httpx.Request) -> httpx.Response:
        if remaining:
            failure = remaining.pop(0)
            if isinstance(failure, Exception):
                raise failure
            return failure
        return success

    return handler


GET = ("get_account", lambda c: c.get_account("user_good"), httpx.Response(200, json=ACCOUNT))
POST = (
    "refresh_balance",
    lambda c: c.refresh_balance("user_good"),
    httpx.Response(202, json=job_body()),
)


@pytest.mark.anyio
@pytest.mark.parametrize("call", [GET, POST], ids=["GET", "POST"])
@pytest.mark.parametrize(
    "failure",
    [httpx.ConnectError("refused"), httpx.ConnectTimeout("slow connect")],
    ids=["refused", "connect-timeout"],
)
async def test_connect_failures_are_retried_on_any_method(call, failure) -> None:
    _, invoke, success = call
    service = FakeService(failing_then([failure, failure], success))
    sleeps = SleepRecorder()
    async with make_client(service, sleep=sleeps) as client:
        await invoke(client)
    assert len(service.api_requests) == 3
    assert len(sleeps.delays) == 2


@pytest.mark.anyio
@pytest.mark.parametrize(
    "failure",
    [
        httpx.ReadTimeout("slow"),
        httpx.RemoteProtocolError("reset"),
        httpx.ReadError("reset"),
        httpx.Response(500, text="oops"),
        httpx.Response(503, json=envelope("AC-950", "The sandbox failed")),
        httpx.Response(502, text="<html>bad gateway</html>"),
    ],
    ids=["read-timeout", "protocol", "read-error", "500", "503-coded", "502-html"],
)
async def test_timeouts_and_5xx_are_retried_on_get(failure) -> None:
    service = FakeService(failing_then([failure], httpx.Response(200, json=ACCOUNT)))
    sleeps = SleepRecorder()
    async with make_client(service, sleep=sleeps) as client:
        account = await client.get_account("user_good")
    assert account.user_id == "user_good"
    assert len(service.api_requests) == 2 and len(sleeps.delays) == 1


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("failure", "error"),
    [
        (httpx.ReadTimeout("slow"), TransportError),
        (httpx.RemoteProtocolError("reset"), TransportError),
        (httpx.Response(500, text="oops"), MalformedResponseError),
        (httpx.Response(503, json=envelope("AC-950", "The sandbox failed")), ApiError),
        (
            httpx.Response(429, text="slow down", headers={"Retry-After": "1"}),
            MalformedResponseError,
        ),
    ],
    ids=["read-timeout", "protocol", "500", "503-coded", "429-proxy"],
)
async def test_post_is_not_retried_after_it_may_have_been_sent(failure, error) -> None:
    service = FakeService(failing_then([failure], httpx.Response(202, json=job_body())))
    sleeps = SleepRecorder()
    async with make_client(service, sleep=sleeps) as client:
        with pytest.raises(error):
            await client.start_transactions("user_good")
    assert len(service.api_requests) == 1 and sleeps.delays == []


@pytest.mark.anyio
@pytest.mark.parametrize("code", ["AC-108", "AC-112", "AC-104", "AC-102"])
async def test_coded_4xx_is_final_even_with_retry_after(code: str) -> None:
    spec = ERRORS[code]
    answer = httpx.Response(spec.status, json=spec.body_for(), headers={"Retry-After": "1"})
    service = FakeService(lambda request: answer)
    sleeps = SleepRecorder()
    async with make_client(service, sleep=sleeps) as client:
        with pytest.raises(ApiError) as caught:
            await client.get_balance("user_good")  # a GET: the most retry-prone method
        with pytest.raises(ApiError):
            await client.refresh_balance("user_good")
    assert caught.value.code == code
    assert len(service.api_requests) == 2 and sleeps.delays == []


@pytest.mark.anyio
async def test_conflict_and_block_raise_their_classes_at_once() -> None:
    answers = iter(
        [
            httpx.Response(409, json=ERRORS["AC-112"].body_for()),
            httpx.Response(429, json=ERRORS["AC-108"].body_for()),
        ]
    )
    service = FakeService(lambda request: next(answers))
    async with make_client(service) as client:
        with pytest.raises(JobConflictError):
            await client.start_identity("user_good")
        with pytest.raises(AccountBlockedError):
            await client.refresh_balance("user_good")


@pytest.mark.anyio
async def test_attempts_are_capped_and_backoff_grows_with_full_jitter() -> None:
    service = FakeService(lambda request: httpx.Response(503, text="down"))
    sleeps = SleepRecorder()
    async with make_client(service, sleep=sleeps, max_attempts=6, rng=random.Random(7)) as client:
        with pytest.raises(MalformedResponseError):
            await client.get_account("user_good")
    assert len(service.api_requests) == 6
    ceilings = [0.1, 0.2, 0.4, 0.8, 1.6]
    assert len(sleeps.delays) == 5
    for delay, ceiling in zip(sleeps.delays, ceilings, strict=True):
        assert 0.0 <= delay <= ceiling


def test_backoff_is_capped() -> None:
    policy = RetryPolicy(backoff_base=0.1, backoff_cap=2.0, rng=random.Random(1))
    samples = [policy.backoff(10) for _ in range(200)]
    assert max(samples) <= 2.0
    assert max(samples) > 1.0  # jitter spans the range, not stuck near zero
    assert len(set(samples)) > 100


@pytest.mark.anyio
async def test_default_is_three_attempts_in_all() -> None:
    def refuse(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("refused")

    service = FakeService(refuse)
    sleeps = SleepRecorder()
    async with make_client(service, sleep=sleeps) as client:
        with pytest.raises(TransportError) as caught:
            await client.get_identity("user_good")
    assert len(service.api_requests) == 3 and len(sleeps.delays) == 2
    assert "3 attempt" in caught.value.detail


@pytest.mark.anyio
async def test_retry_after_seconds_is_honoured_and_capped() -> None:
    answers = [
        httpx.Response(503, text="busy", headers={"Retry-After": "1.5"}),
        httpx.Response(429, text="busy", headers={"Retry-After": "86400"}),
    ]
    service = FakeService(failing_then(answers, httpx.Response(200, json=ACCOUNT)))
    sleeps = SleepRecorder()
    # A call deadline longer than the pauses (the default 25 s would end the call).
    options = {"retry_after_cap": 30.0, "call_timeout": 60.0}
    async with make_client(service, sleep=sleeps, **options) as client:
        await client.get_account("user_good")
    assert sleeps.delays == [1.5, 30.0]


@pytest.mark.anyio
async def test_retry_after_http_date_is_honoured() -> None:
    import time

    when = email.utils.formatdate(time.time() + 20, usegmt=True)
    answers = [httpx.Response(503, text="busy", headers={"Retry-After": when})]
    service = FakeService(failing_then(answers, httpx.Response(200, json=ACCOUNT)))
    sleeps = SleepRecorder()
    async with make_client(service, sleep=sleeps) as client:
        await client.get_account("user_good")
    assert 15.0 < sleeps.delays[0] <= 20.0


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("3", 3.0),
        (" 0.25 ", 0.25),
        ("-4", 0.0),
        ("soon", None),
        ("nan", None),
        (None, None),
        ("Thu, 01 Jan 1970 00:00:30 GMT", 0.0),  # in the past
        ("Thu, 01 Jan 1970 00:01:40 GMT", 40.0),
        ("Thu, 01 Jan 1970 00:01:40", None),  # no zone: not an HTTP-date
    ],
)
def test_parse_retry_after(value, expected) -> None:
    assert parse_retry_after(value, now=60.0) == expected


@pytest.mark.anyio
async def test_timeout_applies_to_each_attempt() -> None:
    seen: list[dict] = []

    def api(request: httpx.Request) -> httpx.Response:
        seen.append(request.extensions["timeout"])
        if len(seen) < 3:
            raise httpx.ReadTimeout("slow")
        return httpx.Response(200, json=ACCOUNT)

    service = FakeService(api)
    async with make_client(service, timeout=2.5) as client:
        await client.get_account("user_good")
    assert len(seen) == 3
    for timeouts in seen:
        assert timeouts == {"connect": 2.5, "read": 2.5, "write": 2.5, "pool": 2.5}


@pytest.mark.anyio
async def test_redirect_loop_is_still_an_account_data_error() -> None:
    service = FakeService(lambda request: httpx.Response(307, headers={"Location": "/elsewhere"}))
    async with make_client(service) as client:
        with pytest.raises(MalformedResponseError) as caught:
            await client.get_account("user_good")
    assert caught.value.status == 307  # redirects are not followed: not the contract's shape
