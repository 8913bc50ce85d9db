"""Fifty trainees at once on one sandbox over a real socket: no one touches another.

Each trainee signs in with its own trainee_<name> key, starts identity jobs,
locks itself out with wrong MFA answers and moves its own clock, all
concurrently; then every world is checked for the others' traces.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import timedelta

import httpx
import pytest
from sandbox_helpers import START, assert_envelope

from accountdesk.sandbox import FrozenClock, create_app
from loopback_server import serve_app

pytestmark = [pytest.mark.loopback, pytest.mark.anyio]
TRAINEES = 50
# Plain HTTP on loopback: no certificate bundle to load for each of 51
# clients (47 ms apiece, under the GIL the in-thread server needs too).
NO_TLS = False


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    with serve_app(create_app(clock=FrozenClock(START), tenants=True)) as url:
        yield url


def iso(seconds: float) -> str:
    return (START + timedelta(seconds=seconds)).isoformat(timespec="milliseconds")


async def _sign_in(http: httpx.AsyncClient, api_key: str) -> dict[str, str]:
    grant = await http.post("/token", json={"api_key": api_key, "api_secret": "sandbox_secret"})
    assert grant.status_code == 200, grant.text
    return {"Authorization": f"Bearer {grant.json()['access_token']}"}


@dataclass
class Session:
    headers: dict[str, str]
    identity_job: str
    step: int


async def _trainee(base_url: str, number: int) -> Session:
    """One trainee's session, from its own client; returns what the checks need."""
    async with httpx.AsyncClient(base_url=base_url, timeout=30, verify=NO_TLS) as http:
        return await _session(http, number)


async def _session(http: httpx.AsyncClient, number: int) -> Session:
    headers = await _sign_in(http, f"trainee_t{number:02d}")
    identity = await http.post("/accounts/user_good/identity", headers=headers)
    assert identity.status_code == 202, identity.text  # nobody else's job is in the way
    assert_envelope(await http.post("/accounts/user_good/identity", headers=headers), 409, "AC-112")
    first = await http.post("/accounts/user_mfa/refresh", headers=headers)
    assert first.status_code == 202, first.text  # nobody else's block is in the way
    job_id = first.json()["job_id"]
    for _ in range(3):
        base = f"/accounts/user_mfa/mfa/{job_id}"
        await http.post(base, headers=headers, json={"answer": "0000"})
        await http.post(f"{base}/resolve", headers=headers)
    # Each trainee moves its own clock by a different step.
    step = number + 1
    moved = await http.post("/_sandbox/clock/advance", headers=headers, json={"seconds": step})
    assert moved.json() == {"now": iso(step)}
    return Session(headers, identity.json()["job_id"], step)


async def test_fifty_trainees_never_interfere(base_url: str) -> None:
    async with asyncio.timeout(60):  # a hang fails; a pass takes a few seconds
        # One client per trainee, as in the room (one shared httpx pool of 50
        # connections is itself slower than the sandbox).
        sessions = await asyncio.gather(*(_trainee(base_url, n) for n in range(TRAINEES)))
    async with httpx.AsyncClient(base_url=base_url, timeout=30, verify=NO_TLS) as http:
        async with asyncio.timeout(60):
            for number, session in enumerate(sessions):
                headers = session.headers
                # Its own clock moved by its own step only.
                clock = await http.get("/_sandbox/clock", headers=headers)
                assert clock.json() == {"now": iso(session.step)}
                # Its own block stands, counted from its own clock.
                blocked = await http.post("/accounts/user_mfa/refresh", headers=headers)
                assert_envelope(blocked, 429, "AC-108")
                assert blocked.headers["retry-after"] == str(900 - session.step)
                # Its identity job is its own; the neighbour's is unknown here.
                own = await http.get(
                    f"/accounts/user_good/job/{session.identity_job}", headers=headers
                )
                assert own.status_code == 200
                neighbour = sessions[(number + 1) % TRAINEES].identity_job
                foreign = await http.get(f"/accounts/user_good/job/{neighbour}", headers=headers)
                assert_envelope(foreign, 404, "AC-109")
            # The shared world saw none of it.
            shared = await _sign_in(http, "sandbox_key")
            assert (await http.get("/_sandbox/clock")).json() == {"now": iso(0)}
            assert (
                await http.post("/accounts/user_mfa/refresh", headers=shared)
            ).status_code == 202
            assert (
                await http.post("/accounts/user_good/identity", headers=shared)
            ).status_code == 202
