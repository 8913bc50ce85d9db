"""The client against a hostile service over a real loopback socket (``tests/hostile.py``).

Each mode of :class:`HostileServer` is one fault; every test asserts that the
fault ends in something a UI can show: inert text, a clear error, a time-out
well within the deadline.
"""

from __future__ import annotations

import asyncio
import inspect
import re
import resource
import time
from collections.abc import Iterator
from typing import Any

import pytest
from pydantic import BaseModel, SecretStr

from accountdesk.client import (
    AccountBlockedError,
    AccountDataClient,
    ApiError,
    MalformedResponseError,
    ResponseTooLargeError,
    TransportError,
)
from hostile import ESCAPES, TOKEN_PREFIX, HostileServer

pytestmark = [pytest.mark.anyio, pytest.mark.loopback]

# Anything that could drive a terminal: C0 (ESC, BEL...), DEL, C1, bidi controls.
TERMINAL_CONTROLS = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def _client(base_url: str, **options: Any) -> AccountDataClient:
    return AccountDataClient(base_url, "hostile_key", "hostile-secret-value", **options)


def _texts(value: Any) -> Iterator[str]:
    """Every string a record holds: fields, nested records, lists, revealed secrets."""
    if isinstance(value, BaseModel):
        for name in type(value).model_fields:
            yield from _texts(getattr(value, name))
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _texts(item)
    elif isinstance(value, SecretStr):
        yield value.get_secret_value()
    elif isinstance(value, str):
        yield value


def _assert_inert(texts: list[str]) -> None:
    assert texts, "nothing was checked"
    dangerous = [text for text in texts if TERMINAL_CONTROLS.search(text)]
    assert dangerous == []


async def test_escape_sequences_in_every_text_field_arrive_inert() -> None:
    with HostileServer("escapes") as base_url:
        async with _client(base_url) as client:
            records = [
                await client.get_account("user_good"),
                await client.get_balance("user_good"),
                await client.get_identity("user_good"),
                await client.get_transactions("user_good"),
                await client.get_job("user_good", "job_0001"),
                await client.refresh_balance("user_good"),
                await client.submit_mfa("user_good", "job_0001", SecretStr("1234")),
            ]
    texts = [text for record in records for text in _texts(record)]
    _assert_inert(texts)
    account, _balance, _identity, _transactions, failed, _job, mfa_job = records
    # Made visible, not dropped: a person sees the service sent something odd.
    assert account.institution_name is not None
    assert "␛]52;c;aGFja2Vk␛\\" in account.institution_name
    assert "‹U+009B›" in account.institution_name and "‹U+202E›" in account.institution_name
    assert failed.error is not None and "␛[2J" in (failed.error.message or "")
    assert mfa_job.mfa is not None and "␇" in mfa_job.mfa.question
    # raw keeps the payload as sent.
    assert ESCAPES in account.raw["institution_name"]


async def test_escape_sequences_in_an_error_message_arrive_inert() -> None:
    with HostileServer("escape_error") as base_url:
        async with _client(base_url) as client:
            with pytest.raises(ApiError) as caught:
                await client.get_account("user_good")
    error = caught.value
    _assert_inert([error.message, str(error), error.detail, error.title, repr(error)])
    assert error.code == "AC-204" and "␛]0;owned␇" in error.message


async def test_huge_numbers_are_refused_quickly() -> None:
    with HostileServer("huge_numbers") as base_url:
        async with _client(base_url) as client:
            started = time.perf_counter()
            with pytest.raises(MalformedResponseError) as balance:
                await client.get_balance("user_good")
            with pytest.raises(MalformedResponseError) as transactions:
                await client.get_transactions("user_good")
            with pytest.raises(MalformedResponseError) as attempts:
                await client.submit_mfa("user_good", "job_0001", "1234")
            elapsed = time.perf_counter() - started
    assert "balance.available: amount out of range" in str(balance.value)
    assert "transactions.transactions.0.amount: amount out of range" in str(transactions.value)
    assert "attempts_remaining" in str(attempts.value)
    assert elapsed < 5  # the bug: 23 s formatting a 3-million-digit number


async def test_a_5000_character_job_id_is_refused() -> None:
    with HostileServer("long_job_id") as base_url:
        async with _client(base_url) as client:
            with pytest.raises(MalformedResponseError) as caught:
                await client.refresh_balance("user_good")
    assert "job.job_id" in str(caught.value) and "256" in str(caught.value)
    assert len(str(caught.value)) < 600


async def test_a_dripping_answer_times_out_within_the_deadlines() -> None:
    with HostileServer(paths={"/accounts/user_good/balance": "drip"}) as base_url:
        async with _client(base_url, attempt_timeout=0.5, call_timeout=1.5) as client:
            await client.sign_in()  # the token path is well-behaved
            started = time.monotonic()
            with pytest.raises(TransportError) as caught:
                await client.get_balance("user_good")
            elapsed = time.monotonic() - started
    assert caught.value.reason == "timeout"
    assert "no complete answer within" in str(caught.value)
    assert elapsed < 3 * 1.5


def _default_timings(scale: float) -> dict[str, float]:
    """The client's own default deadlines and back-off, every one scaled by ``scale``."""
    names = ("attempt_timeout", "call_timeout", "backoff_base", "backoff_cap")
    parameters = inspect.signature(AccountDataClient).parameters
    return {name: parameters[name].default * scale for name in names}


async def test_a_dripping_answer_ends_at_the_calls_deadline_with_the_default_timings() -> None:
    # The defaults (10 s an attempt, 25 s a call, back-off 0.1-2 s) at 1/50th:
    # the same attempts, pauses and ending as a real 25 s wait, in half a second.
    timings = _default_timings(1 / 50)
    assert timings["call_timeout"] * 50 == 25.0  # what a person waits at most by default
    with HostileServer(paths={"/accounts/user_good/balance": "drip"}) as base_url:
        async with _client(base_url, **timings) as client:
            await client.sign_in()
            started = time.monotonic()
            with pytest.raises(TransportError) as caught:
                await client.get_balance("user_good")  # a GET: retried, within its deadline
            elapsed = time.monotonic() - started
    call = timings["call_timeout"]
    assert caught.value.reason == "timeout"
    assert f"no complete answer within {call:g} s (3 attempts)" in str(caught.value)
    assert call * 0.9 < elapsed < call * 1.6


async def test_a_dripping_token_request_times_out_for_every_waiter() -> None:
    with HostileServer(paths={"/token": "drip"}) as server_url:
        async with _client(server_url, attempt_timeout=0.5, call_timeout=1.5) as client:
            started = time.monotonic()
            results = await asyncio.gather(
                *(client.get_account("user_good") for _ in range(20)), return_exceptions=True
            )
            elapsed = time.monotonic() - started
    assert all(isinstance(r, TransportError) and r.reason == "timeout" for r in results)
    assert elapsed < 3 * 1.5


async def test_a_dripping_token_request_does_not_block_a_later_call_past_its_deadline() -> None:
    server = HostileServer(paths={"/token": "drip"})
    with server as base_url:
        async with _client(base_url, attempt_timeout=5.0, call_timeout=1.0) as client:
            first = asyncio.create_task(client.get_account("user_good"))
            await asyncio.sleep(0.3)  # the first call holds the renewal
            started = time.monotonic()
            with pytest.raises(TransportError) as caught:
                await client.get_account("user_good")  # waits at most its own 1 s
            elapsed = time.monotonic() - started
            with pytest.raises(TransportError):
                await first
    assert caught.value.reason == "timeout" and elapsed < 3 * 1.0


async def test_a_gzip_bomb_is_cut_off_at_the_size_cap() -> None:
    with HostileServer("gzip_bomb") as base_url:
        async with _client(base_url) as client:
            await client.sign_in()
            before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
            with pytest.raises(ResponseTooLargeError) as caught:
                await client.get_account("user_good")
            grown_mib = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    assert "64 MiB" in str(caught.value) and caught.value.status == 200
    assert grown_mib < 512  # the bug: 2 GB for a 1 GB bomb


@pytest.mark.parametrize("cap", [None, 2**20])
async def test_an_oversized_body_is_refused(cap: int | None) -> None:
    options = {} if cap is None else {"max_response_bytes": cap}
    with HostileServer("oversized") as base_url:
        async with _client(base_url, **options) as client:
            await client.sign_in()
            with pytest.raises(ResponseTooLargeError) as caught:
                await client.get_account("user_good")
    assert isinstance(caught.value, MalformedResponseError)
    assert ("1 MiB" if cap else "64 MiB") in str(caught.value)


async def test_hostile_retry_after_neither_stalls_nor_overflows() -> None:
    with HostileServer("hostile_retry_after") as base_url:
        async with _client(base_url) as client:
            started = time.monotonic()
            with pytest.raises(AccountBlockedError) as blocked:
                await client.refresh_balance("user_mfa")
            with pytest.raises(MalformedResponseError) as unavailable:
                await client.get_balance("user_good")  # 503: retried on backoff, not in 3e12 s
            elapsed = time.monotonic() - started
    assert blocked.value.retry_after is None  # "1e999" is no time a UI can show
    assert unavailable.value.status == 503
    assert elapsed < 10


async def test_the_server_hands_out_a_valid_token_and_records_requests() -> None:
    server = HostileServer()
    with server as base_url:
        async with _client(base_url) as client:
            account = await client.get_account("user_good")
    assert account.user_id == "user_good" and server.tokens_issued == 1
    assert server.requests == [("POST", "/token"), ("GET", "/accounts/user_good")]
    assert TOKEN_PREFIX in f"{TOKEN_PREFIX}1"
