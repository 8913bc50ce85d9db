"""One test per row of the contract's section 7.2, generated from the catalogue.

For every (endpoint, code) pair the sandbox is driven into that error, then
checked twice: on the wire (exact status, code and message text) and through
the client (the matching exception class, carrying the same fields).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from urllib.parse import quote

import httpx
import pytest

from accountdesk.client import AccountDataClient, ApiError
from accountdesk.client.errors import error_class_for
from accountdesk.contract import Endpoint, ErrorSpec, endpoint_error_pairs, endpoints
from accountdesk.sandbox import FrozenClock, create_app

BASE_URL = "http://sandbox"
GOOD = ("sandbox_key", "sandbox_secret")
LIMITED = ("limited_key", "limited_secret")


@dataclass
class Case:
    """How to provoke one error: who calls, on which user and job."""

    user_id: str = "user_good"
    job_id: str = "job_missing"
    credentials: tuple[str, str] = GOOD
    token_body: object = None
    # Runs against the sandbox before the call; may return the job id to use.
    prepare: Callable[[httpx.AsyncClient, FrozenClock], Awaitable[str | None]] | None = None


async def _token(http: httpx.AsyncClient, credentials: tuple[str, str] = GOOD) -> dict[str, str]:
    answer = await http.post(
        "/token", json={"api_key": credentials[0], "api_secret": credentials[1]}
    )
    return {"Authorization": f"Bearer {answer.json()['access_token']}"}


async def _mfa_job(http: httpx.AsyncClient) -> str:
    answer = await http.post("/accounts/user_mfa/refresh", headers=await _token(http))
    assert answer.status_code == 202, answer.text
    return answer.json()["job_id"]


async def _expired_mfa_job(http: httpx.AsyncClient, clock: FrozenClock) -> str:
    job_id = await _mfa_job(http)
    await http.post(
        f"/accounts/user_mfa/mfa/{job_id}", json={"answer": "1234"}, headers=await _token(http)
    )
    clock.advance(301)
    return job_id


async def _block_user_mfa(http: httpx.AsyncClient, _clock: FrozenClock) -> None:
    headers = await _token(http)
    job_id = await _mfa_job(http)
    for _ in range(3):
        await http.post(
            f"/accounts/user_mfa/mfa/{job_id}", json={"answer": "0000"}, headers=headers
        )
        await http.post(f"/accounts/user_mfa/mfa/{job_id}/resolve", headers=headers)
    return None


def _start_first(path: str) -> Callable[[httpx.AsyncClient, FrozenClock], Awaitable[None]]:
    async def prepare(http: httpx.AsyncClient, _clock: FrozenClock) -> None:
        answer = await http.post(path, headers=await _token(http))
        assert answer.status_code == 202, answer.text

    return prepare


def case_for(endpoint: Endpoint, spec: ErrorSpec) -> Case:
    """The scenario that makes ``endpoint`` answer ``spec.code``."""
    match spec.code:
        case "AC-100" if endpoint is endpoints.TOKEN:
            # A key that is present but empty is "missing" to the sandbox.
            return Case(credentials=("", ""))
        case "AC-100":
            return Case(user_id="bad id!")
        case "AC-101":
            return Case(credentials=("sandbox_key", "wrong_secret"))
        case "AC-001":
            return Case(user_id="user_mfa", credentials=LIMITED)
        case "AC-102":
            return Case(user_id="user_nobody")
        case "AC-103":
            return Case(user_id="user_fi_incomplete")
        case "AC-104":
            return Case(user_id="user_fi_down")
        case "AC-105" | "AC-107" | "AC-111" | "AC-114" | "AC-115":
            return Case(user_id="user_manual")
        case "AC-106":
            return Case(user_id="user_fi_paused")
        case "AC-108":
            return Case(user_id="user_mfa", prepare=_block_user_mfa)
        case "AC-109":
            return Case(job_id="job_missing")
        case "AC-110":
            return Case(user_id="user_mfa", prepare=_expired_mfa_job)
        case "AC-112":
            return Case(prepare=_start_first(endpoint.path.format(user_id="user_good")))
        case "AC-113":
            return Case(user_id="user_identity_mismatch")
    raise AssertionError(f"no scenario for {spec.code}")


def _call(
    client: AccountDataClient, endpoint: Endpoint, user_id: str, job_id: str
) -> Awaitable[object]:
    if endpoint is endpoints.TOKEN:
        return client.sign_in()
    method = getattr(client, endpoint.name)
    if endpoint is endpoints.MFA_ANSWER:
        return method(user_id, job_id, "1234")
    if "job_id" in endpoint.path_parameters:
        return method(user_id, job_id)
    return method(user_id)


PAIRS = endpoint_error_pairs()


@pytest.mark.anyio
@pytest.mark.parametrize(("endpoint", "spec"), PAIRS, ids=[f"{e.name}-{s.code}" for e, s in PAIRS])
async def test_sandbox_answers_and_client_raises(endpoint: Endpoint, spec: ErrorSpec) -> None:
    clock = FrozenClock(datetime(2026, 11, 20, 9, 30, tzinfo=UTC))
    transport = httpx.ASGITransport(app=create_app(clock=clock, ids=1))
    case = case_for(endpoint, spec)
    async with httpx.AsyncClient(transport=transport, base_url=BASE_URL) as http:
        job_id = case.job_id
        if case.prepare is not None:
            job_id = await case.prepare(http, clock) or job_id

        # On the wire: exact status, code and text.
        path = endpoint.path.format(
            user_id=quote(case.user_id, safe=""), job_id=quote(job_id, safe="")
        )
        if endpoint is endpoints.TOKEN:
            wire = await http.post(
                path, json={"api_key": case.credentials[0], "api_secret": case.credentials[1]}
            )
        else:
            headers = await _token(http, case.credentials if spec.code == "AC-001" else GOOD)
            body = {"answer": "1234"} if endpoint is endpoints.MFA_ANSWER else None
            wire = await http.request(endpoint.method, path, headers=headers, json=body)
        expected_message = spec.message_for(endpoint, user_id=case.user_id, job_id=job_id)
        assert wire.status_code == spec.status_for(endpoint)
        assert wire.headers["content-type"] == "application/json"
        assert wire.json() == {"error": {"code": spec.code, "message": expected_message}}

    # The sandbox state that caused the error still holds on its frozen clock
    # (the first job still runs, the block and the expiry still stand).

    # Through the client: the matching class with the same fields.
    async with AccountDataClient(BASE_URL, *case.credentials, transport=transport) as client:
        with pytest.raises(ApiError) as raised:
            await _call(client, endpoint, case.user_id, job_id)
    error = raised.value
    assert type(error) is error_class_for(spec.code)
    assert (error.status, error.code, error.message) == (
        spec.status_for(endpoint),
        spec.code,
        expected_message,
    )
    assert error.method == endpoint.method
