"""The small public rules UIs build on: base URL, identifiers, backoff, job vocabulary."""

from __future__ import annotations

import datetime as dt
import email.utils
import random
import time

import httpx
import pytest
from client_fakes import FakeService, envelope, job_body, make_client

from accountdesk.client import (
    AccountBlockedError,
    AccountDataClient,
    ApiError,
    InvalidBaseUrlError,
    InvalidIdentifierError,
    Job,
    JobKind,
    JobStatus,
    RetryPolicy,
    exponential_backoff,
    identifier_problem,
    normalise_base_url,
)
from accountdesk.contract import ERRORS

# -- normalise_base_url ---------------------------------------------------------


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("HTTPS://Host.Example:8443/api/", "https://host.example:8443/api"),
        ("  http://127.0.0.1:8765/  ", "http://127.0.0.1:8765"),
        ("https://api.bank.example", "https://api.bank.example"),
        ("http://h/A/B//", "http://h/A/B"),  # the path keeps its case
        ("http://[::1]:9000", "http://[::1]:9000"),
        ("http://Bücher.example/", "http://xn--bcher-kva.example"),
    ],
)
def test_normalise_base_url_gives_one_spelling(given: str, expected: str) -> None:
    assert normalise_base_url(given) == expected
    assert normalise_base_url(expected) == expected  # idempotent


@pytest.mark.parametrize(
    ("given", "words"),
    [
        ("", "Enter the service URL"),
        ("   ", "Enter the service URL"),
        ("service.test", "http:// or https://"),
        ("ftp://service.test", "'ftp'"),
        ("http://", "host"),
        ("http://u:hunter2-password@service.test", "user name or password"),
        ("http://h/?q=1", "query"),
        ("http://h/#frag", "fragment"),
        ("http://h:0", "out of range"),
        ("http://h:99999", "out of range"),
        ("http://exa mple.com", "host name"),
    ],
)
def test_bad_base_urls_are_refused_with_a_sentence(given: str, words: str) -> None:
    with pytest.raises(InvalidBaseUrlError) as caught:
        normalise_base_url(given)
    text = str(caught.value)
    assert words in text and text.endswith(".")
    assert "hunter2" not in text  # a password is never repeated
    assert isinstance(caught.value, ValueError)


def test_base_url_message_is_inert_and_short() -> None:
    with pytest.raises(InvalidBaseUrlError) as caught:
        normalise_base_url("http://h/?\x1b]0;owned\x07" + "x" * 500)
    assert "\x1b" not in str(caught.value) and "\x07" not in str(caught.value)
    assert len(str(caught.value)) < 200


def test_client_uses_the_same_rule() -> None:
    client = AccountDataClient("HTTP://Service.Test:8080/api/", "k", "s")
    assert client.base_url == "http://service.test:8080/api"
    with pytest.raises(InvalidBaseUrlError):
        AccountDataClient("http://h:0", "k", "s")


# -- identifier_problem ---------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "words"),
    [
        ("", "empty or blank"),
        (" \t", "empty or blank"),
        (".", "dot segment"),
        ("..", "dot segment"),
        ("a\ud800", "unpaired surrogate"),
        ("a" * 2049, "too long"),
        (None, "must be a string"),
        (12, "must be a string, not int"),
    ],
)
def test_identifier_problem_explains_each_refusal(value: object, words: str) -> None:
    problem = identifier_problem("job_id", value)
    assert problem is not None and problem.startswith("job_id ") and words in problem


@pytest.mark.parametrize("value", ["user_good", "a/b", "user@bank.example", "...", "a" * 2048])
def test_identifier_problem_accepts_what_can_be_sent(value: str) -> None:
    assert identifier_problem("user_id", value) is None


@pytest.mark.anyio
async def test_client_refusal_carries_the_same_sentence() -> None:
    async with make_client(FakeService()) as client:
        with pytest.raises(InvalidIdentifierError) as caught:
            await client.get_job("user_good", "..")
    assert str(caught.value) == identifier_problem("job_id", "..")


# -- exponential_backoff ----------------------------------------------------------


def test_backoff_without_jitter_doubles_to_the_cap() -> None:
    delays = [exponential_backoff(n, base=1.0, cap=30.0) for n in range(-1, 8)]
    assert delays == [0.0, 0.0, 1.0, 2.0, 4.0, 8.0, 16.0, 30.0, 30.0]


def test_backoff_survives_huge_failure_counts() -> None:
    assert exponential_backoff(10**6, base=1.0, cap=30.0) == 30.0
    assert 0.0 <= exponential_backoff(10**6, base=0.1, cap=2.0, rng=random.Random(1)) <= 2.0


def test_backoff_with_jitter_spans_zero_to_the_ceiling() -> None:
    rng = random.Random(3)
    samples = [exponential_backoff(3, base=0.1, cap=2.0, rng=rng) for _ in range(500)]
    assert 0.0 <= min(samples) < 0.05 and 0.35 < max(samples) <= 0.4


@pytest.mark.parametrize("bad", [{"base": -1.0}, {"cap": float("nan")}, {"cap": float("inf")}])
def test_backoff_refuses_nonsense_settings(bad: dict) -> None:
    options = {"base": 1.0, "cap": 2.0, **bad}
    with pytest.raises(ValueError):
        exponential_backoff(1, **options)


def test_retry_policy_backoff_is_the_same_function() -> None:
    policy = RetryPolicy(backoff_base=0.5, backoff_cap=3.0, rng=random.Random(9))
    expected = [exponential_backoff(n, base=0.5, cap=3.0, rng=random.Random(9)) for n in [1]]
    assert [policy.backoff(1)] == expected


# -- job vocabulary -----------------------------------------------------------------


def test_known_job_values_become_enum_members() -> None:
    job = Job.from_json(b'{"job_id": "j1", "kind": "identity", "status": "mfa_required"}')
    assert job.status is JobStatus.MFA_REQUIRED and job.kind is JobKind.IDENTITY
    assert job.needs_mfa and not job.is_terminal
    for status in ("completed", "failed"):
        assert Job.from_json(f'{{"job_id": "j", "status": "{status}"}}'.encode()).is_terminal


def test_unknown_job_values_stay_text() -> None:
    job = Job.from_json(b'{"job_id": "j1", "kind": "statement", "status": "paused"}')
    assert job.status == "paused" and not isinstance(job.status, JobStatus)
    assert job.kind == "statement" and not isinstance(job.kind, JobKind)
    assert not job.is_terminal and not job.needs_mfa
    assert Job.from_json(b'{"job_id": "j1"}').status is JobStatus.PENDING


def test_job_error_carries_blocked_until() -> None:
    body = job_body(
        status="failed",
        error={"code": "AC-108", "message": "blockd", "blocked_until": "2026-03-02T12:15:00+00:00"},
    )
    job = Job.model_validate(body)
    assert job.error is not None
    assert job.error.blocked_until == dt.datetime(2026, 3, 2, 12, 15, tzinfo=dt.UTC)


# -- ApiError.retry_after ---------------------------------------------------------


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("header", "expected"),
    [("900", 900.0), (None, None), ("soon", None), ("1e400", None), ("99999999999", None)],
)
async def test_api_error_carries_retry_after(header: str | None, expected: float | None) -> None:
    spec = ERRORS["AC-108"]
    headers = {"Retry-After": header} if header is not None else {}
    service = FakeService(
        lambda request: httpx.Response(429, json=spec.body_for(), headers=headers)
    )
    async with make_client(service) as client:
        with pytest.raises(AccountBlockedError) as caught:
            await client.refresh_balance("user_mfa")
    assert caught.value.retry_after == expected


@pytest.mark.anyio
async def test_retry_after_as_an_http_date() -> None:
    when = email.utils.formatdate(time.time() + 600, usegmt=True)
    answer = httpx.Response(400, json=envelope("AC-204", "x"), headers={"Retry-After": when})
    async with make_client(FakeService(lambda request: answer)) as client:
        with pytest.raises(ApiError) as caught:
            await client.get_account("user_good")
    assert caught.value.retry_after is not None and 590 < caught.value.retry_after <= 600
