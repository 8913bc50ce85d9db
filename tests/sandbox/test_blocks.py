"""The AC-108 block belongs to the user, not to one job.

Three wrong MFA answers in all, across every job of a user, block that user
for ``block_seconds``: each job of that user still waiting for MFA fails with
AC-108, a right answer on any job does not resume it while the block stands,
and refresh answers 429 AC-108 with Retry-After.
"""

from __future__ import annotations

import asyncio
from datetime import timedelta

import httpx
import pytest
from sandbox_helpers import BASE_URL, START, assert_envelope, bearer
from starlette.applications import Starlette

from accountdesk.contract import ERRORS
from accountdesk.sandbox import FrozenClock
from accountdesk.sandbox.engine import SandboxEngine, SandboxError

BLOCKED_UNTIL = (START + timedelta(seconds=900)).isoformat(timespec="milliseconds")


def _wrong(engine: SandboxEngine, token: str, job_id: str) -> dict:
    engine.submit_mfa(token, "user_mfa", job_id, "0000")
    return engine.resolve_mfa(token, "user_mfa", job_id)


def _start_mfa_jobs(engine: SandboxEngine, token: str, count: int) -> list[str]:
    return [engine.refresh_balance(token, "user_mfa")["job_id"] for _ in range(count)]


def test_three_wrong_answers_across_jobs_block_the_user(engine: SandboxEngine, token: str) -> None:
    first, second, third, waiting = _start_mfa_jobs(engine, token, 4)
    assert _wrong(engine, token, first)["mfa"]["attempts_remaining"] == 2
    # The budget is the user's: every job of that user shows what is left.
    assert engine.get_job(token, "user_mfa", waiting)["mfa"]["attempts_remaining"] == 2
    assert _wrong(engine, token, second)["mfa"]["attempts_remaining"] == 1
    job = _wrong(engine, token, third)
    assert job["status"] == "failed"
    blocked = {**ERRORS["AC-108"].body_for()["error"], "blocked_until": BLOCKED_UNTIL}
    assert job["error"] == blocked
    # Every job of that user waiting for MFA fails with the block.
    for job_id in (first, second, waiting):
        read = engine.get_job(token, "user_mfa", job_id)
        assert (read["status"], read["mfa"], read["error"]) == ("failed", None, blocked)
    with pytest.raises(SandboxError) as caught:
        engine.refresh_balance(token, "user_mfa")
    assert (caught.value.code, caught.value.retry_after) == ("AC-108", 900)


def test_a_right_answer_while_blocked_does_not_resume_any_job(
    engine: SandboxEngine, clock: FrozenClock, token: str
) -> None:
    first = engine.refresh_balance(token, "user_mfa")["job_id"]
    for _ in range(3):
        _wrong(engine, token, first)
    clock.advance(10)
    # Identity has no AC-108 in the contract's table: it still starts...
    later = engine.start_identity(token, "user_mfa")
    assert later["status"] == "mfa_required" and later["mfa"]["attempts_remaining"] == 0
    engine.submit_mfa(token, "user_mfa", later["job_id"], "1234")
    job = engine.resolve_mfa(token, "user_mfa", later["job_id"])
    # ...but the right answer does not resume it while the user is blocked.
    assert job["status"] == "failed"
    assert job["error"]["code"] == "AC-108" and job["error"]["blocked_until"] == BLOCKED_UNTIL


def test_the_block_lifts_on_the_clock_with_a_fresh_budget(
    engine: SandboxEngine, clock: FrozenClock, token: str
) -> None:
    job_id = engine.refresh_balance(token, "user_mfa")["job_id"]
    for _ in range(3):
        _wrong(engine, token, job_id)
    clock.advance(899.5)
    with pytest.raises(SandboxError) as caught:
        engine.refresh_balance(token, "user_mfa")
    assert caught.value.retry_after == 1  # whole seconds, rounded up
    clock.advance(0.5)
    job = engine.refresh_balance(token, "user_mfa")
    assert job["mfa"]["attempts_remaining"] == 3
    assert _wrong(engine, token, job["job_id"])["mfa"]["attempts_remaining"] == 2


def test_a_right_answer_refills_the_budget(engine: SandboxEngine, token: str) -> None:
    first, second = _start_mfa_jobs(engine, token, 2)
    _wrong(engine, token, first)
    _wrong(engine, token, first)
    engine.submit_mfa(token, "user_mfa", second, "1234")
    assert engine.resolve_mfa(token, "user_mfa", second)["status"] == "in_progress"
    assert engine.get_job(token, "user_mfa", first)["mfa"]["attempts_remaining"] == 3


def test_an_expired_session_stays_ac_110_when_the_user_is_blocked_later(
    engine: SandboxEngine, clock: FrozenClock, token: str
) -> None:
    expired = engine.start_identity(token, "user_mfa")["job_id"]
    clock.advance(300)
    job_id = engine.refresh_balance(token, "user_mfa")["job_id"]
    for _ in range(3):
        _wrong(engine, token, job_id)
    assert engine.get_job(token, "user_mfa", expired)["error"]["code"] == "AC-110"


@pytest.mark.anyio
async def test_300_concurrent_jobs_give_three_guesses_not_900(app: Starlette) -> None:
    transport = httpx.ASGITransport(app)
    async with httpx.AsyncClient(transport=transport, base_url=BASE_URL) as http:
        await _guess_on_300_jobs(http)


async def _guess_on_300_jobs(http: httpx.AsyncClient) -> None:
    headers = await bearer(http)
    starts = await asyncio.gather(
        *(http.post("/accounts/user_mfa/refresh", headers=headers) for _ in range(300))
    )
    job_ids = [answer.json()["job_id"] for answer in starts]
    # Every guess but one is wrong; the right one comes after the budget is spent.
    guesses = [f"{n:04d}" for n in range(300)]
    guesses[250] = "1234"

    async def guess(job_id: str, answer: str) -> dict:
        base = f"/accounts/user_mfa/mfa/{job_id}"
        await http.post(base, headers=headers, json={"answer": answer})
        return (await http.post(f"{base}/resolve", headers=headers)).json()

    answers = await asyncio.gather(*(guess(j, a) for j, a in zip(job_ids, guesses, strict=True)))
    # Three answers were checked; every later one met the block.
    counted = [job for job in answers if job["status"] == "mfa_required"]
    assert sorted(job["mfa"]["attempts_remaining"] for job in counted) == [1, 2]
    assert answers[250]["status"] == "failed", "the right code came too late to count"
    jobs = await asyncio.gather(
        *(http.get(f"/accounts/user_mfa/job/{job_id}", headers=headers) for job_id in job_ids)
    )
    assert {(job.json()["status"], job.json()["error"]["code"]) for job in jobs} == {
        ("failed", "AC-108")
    }
    answer = await http.post("/accounts/user_mfa/refresh", headers=headers)
    assert_envelope(answer, 429, "AC-108")
    assert answer.headers["retry-after"] == "900"
