"""How to drive the sandbox into each code of the catalogue, on any endpoint.

:func:`provocation` says, for one code, what to send and what state to set
up first; :func:`answer_to` sends it to one endpoint of a fresh sandbox and
returns what came back. Run over every endpoint and every code of the
catalogue, that is everything the sandbox can answer (the OpenAPI test holds
the document to it): a provocation is not required to succeed on every
endpoint, whatever it gets is recorded.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any
from urllib.parse import quote

import httpx

from accountdesk.contract import Endpoint, endpoints
from accountdesk.sandbox import FrozenClock, create_app

BASE_URL = "http://sandbox"
GOOD = ("sandbox_key", "sandbox_secret")
LIMITED = ("limited_key", "limited_secret")
START = datetime(2026, 11, 20, 9, 30, tzinfo=UTC)

Prepare = Callable[[httpx.AsyncClient, FrozenClock], Awaitable[str | None]]


@dataclass
class Provocation:
    """What to send, as whom, after which preparation (see the module docstring)."""

    user_id: str = "user_good"
    job_id: str = "job_missing"
    credentials: tuple[str, str] = GOOD
    #: Sent as the bearer token instead of a real one (None: a fresh token of ``credentials``).
    bearer: str | None = None
    #: A raw body (bytes) sent instead of the endpoint's usual one.
    content: bytes | None = None
    app_options: dict[str, Any] = field(default_factory=dict)
    #: Runs against the sandbox before the call; may return the job id to use.
    prepare: Prepare | None = None
    #: The engine operation of the endpoint raises (a bug inside the sandbox).
    crash: bool = False


async def token_header(
    http: httpx.AsyncClient, credentials: tuple[str, str] = GOOD
) -> dict[str, str]:
    answer = await http.post(
        "/token", json={"api_key": credentials[0], "api_secret": credentials[1]}
    )
    assert answer.status_code == 200, answer.text
    return {"Authorization": f"Bearer {answer.json()['access_token']}"}


async def mfa_job(http: httpx.AsyncClient) -> str:
    answer = await http.post("/accounts/user_mfa/refresh", headers=await token_header(http))
    assert answer.status_code == 202, answer.text
    job_id: str = answer.json()["job_id"]
    return job_id


async def expired_mfa_job(http: httpx.AsyncClient, clock: FrozenClock) -> str:
    job_id = await mfa_job(http)
    headers = await token_header(http)
    await http.post(f"/accounts/user_mfa/mfa/{job_id}", json={"answer": "1234"}, headers=headers)
    clock.advance(301)
    return job_id


async def block_user_mfa(http: httpx.AsyncClient, _clock: FrozenClock) -> str:
    headers = await token_header(http)
    job_id = await mfa_job(http)
    for _ in range(3):
        await http.post(
            f"/accounts/user_mfa/mfa/{job_id}", json={"answer": "0000"}, headers=headers
        )
        await http.post(f"/accounts/user_mfa/mfa/{job_id}/resolve", headers=headers)
    return job_id


def start_first(endpoint: Endpoint) -> Prepare:
    """Start a job of ``endpoint``'s kind first (an identity job for the other endpoints)."""
    starts = {endpoints.IDENTITY_START, endpoints.TRANSACTIONS_START, endpoints.REFRESH}
    first = endpoint if endpoint in starts else endpoints.IDENTITY_START

    async def prepare(http: httpx.AsyncClient, _clock: FrozenClock) -> str:
        path = first.path.format(user_id="user_good")
        answer = await http.post(path, headers=await token_header(http))
        assert answer.status_code == 202, answer.text
        job_id: str = answer.json()["job_id"]
        return job_id

    return prepare


async def fill_the_room(http: httpx.AsyncClient, _clock: FrozenClock) -> None:
    await token_header(http, ("trainee_first", "sandbox_secret"))
    return None


#: Codes no request to an operation can draw, and why.
NOT_PROVOKED = {
    "AC-204": "named by the contract below its table; the sandbox never answers it",
    "AC-904": "an unknown route: no operation of the document",
    "AC-905": "a method a path does not have: no operation of the document",
    "AC-924": "answered only by the trainer's calls (?trainee=NAME on /_sandbox/reset and "
    "/_sandbox/clock/advance), no operation of the contract (tests/sandbox/test_room.py)",
    "AC-953": "answered to a connection beyond the cap before any request is read "
    "(tests/sandbox/test_slow_clients.py)",
}


def provocation(code: str, endpoint: Endpoint) -> Provocation:
    """What makes the sandbox answer ``code`` (where ``endpoint`` can answer it at all)."""
    match code:
        case "AC-100" if endpoint is endpoints.TOKEN:
            # A key that is present but empty is "missing" to the sandbox.
            return Provocation(credentials=("", ""))
        case "AC-100":
            return Provocation(user_id="bad id!")
        case "AC-101":
            return Provocation(credentials=("sandbox_key", "wrong_secret"), bearer="not-a-token")
        case "AC-001":
            return Provocation(user_id="user_mfa", credentials=LIMITED)
        case "AC-102":
            return Provocation(user_id="user_nobody")
        case "AC-103":
            return Provocation(user_id="user_fi_incomplete")
        case "AC-104":
            return Provocation(user_id="user_fi_down")
        case "AC-105" | "AC-107" | "AC-111" | "AC-114" | "AC-115":
            return Provocation(user_id="user_manual")
        case "AC-106":
            return Provocation(user_id="user_fi_paused")
        case "AC-108":
            return Provocation(user_id="user_mfa", prepare=block_user_mfa)
        case "AC-109":
            return Provocation(job_id="job_missing")
        case "AC-110":
            return Provocation(user_id="user_mfa", prepare=expired_mfa_job)
        case "AC-112":
            return Provocation(prepare=start_first(endpoint))
        case "AC-113":
            return Provocation(user_id="user_identity_mismatch")
        case "AC-903":
            return Provocation(app_options={"control_token": "c" * 24})
        case "AC-913":
            return Provocation(content=b"{" + b" " * (64 * 1024) + b"}")
        case "AC-929":
            return Provocation(
                credentials=("trainee_second", "sandbox_secret"),
                app_options={"tenants": True, "max_tenants": 1},
                prepare=fill_the_room,
            )
        case "AC-950":
            return Provocation(crash=True)
    raise AssertionError(f"no way to provoke {code}: add one, or name it in NOT_PROVOKED")


async def answer_to(endpoint: Endpoint, case: Provocation) -> httpx.Response:
    """``case`` sent to ``endpoint`` of a fresh sandbox (frozen clock)."""
    clock = FrozenClock(START)
    app = create_app(clock=clock, ids=1, **case.app_options)
    if case.crash:

        def broken(*args: object, **kwargs: object) -> object:
            raise RuntimeError("a bug in the sandbox")

        setattr(app.state.engine, endpoint.name, broken)
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    async with httpx.AsyncClient(transport=transport, base_url=BASE_URL) as http:
        job_id = case.job_id
        if case.prepare is not None:
            job_id = await case.prepare(http, clock) or job_id
        path = endpoint.path.format(
            user_id=quote(case.user_id, safe=""), job_id=quote(job_id, safe="")
        )
        headers: dict[str, str] = {}
        body: Any = None
        if endpoint is endpoints.TOKEN:
            body = {"api_key": case.credentials[0], "api_secret": case.credentials[1]}
        elif case.bearer is not None:
            headers = {"Authorization": f"Bearer {case.bearer}"}
        else:
            grant = await http.post(
                "/token", json={"api_key": case.credentials[0], "api_secret": case.credentials[1]}
            )
            if grant.status_code == 200:  # else no token at all (a full training room)
                headers = {"Authorization": f"Bearer {grant.json()['access_token']}"}
        if endpoint is endpoints.MFA_ANSWER:
            body = {"answer": "1234"}
        if case.content is not None:
            headers["Content-Type"] = "application/json"
            return await http.request(endpoint.method, path, headers=headers, content=case.content)
        return await http.request(endpoint.method, path, headers=headers, json=body)
