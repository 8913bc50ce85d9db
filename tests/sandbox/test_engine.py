"""The domain engine on its own: no HTTP, a frozen clock."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest
from sandbox_helpers import GOOD, LIMITED, START

from accountdesk.contract import ERRORS
from accountdesk.contract import endpoints as ep
from accountdesk.sandbox import FrozenClock
from accountdesk.sandbox.engine import SandboxEngine, SandboxError


def _raises(code: str, call, *args):
    with pytest.raises(SandboxError) as caught:
        call(*args)
    assert caught.value.code == code, caught.value
    return caught.value


def test_job_runs_pending_in_progress_completed(
    engine: SandboxEngine, clock: FrozenClock, token: str
) -> None:
    job = engine.refresh_balance(token, "user_good")
    assert (job["status"], job["kind"], job["completed_at"]) == ("pending", "balance_refresh", None)
    assert job["job_id"] == "job_0001" and job["mfa"] is None and job["error"] is None

    clock.advance(0.49)  # first quarter of 2 s: still pending
    assert engine.get_job(token, "user_good", "job_0001")["status"] == "pending"
    clock.advance(0.01)
    read = engine.get_job(token, "user_good", "job_0001")
    assert read["status"] == "in_progress"
    assert read["updated_at"] == (START + timedelta(seconds=0.5)).isoformat(timespec="milliseconds")
    clock.advance(1.5)
    read = engine.get_job(token, "user_good", "job_0001")
    assert read["status"] == "completed"
    assert read["completed_at"] == (START + timedelta(seconds=2)).isoformat(timespec="milliseconds")


def test_completed_refresh_moves_balance_as_of(
    engine: SandboxEngine, clock: FrozenClock, token: str
) -> None:
    assert engine.get_balance(token, "user_good")["as_of"].startswith("2026-03-02T12:00:00")
    clock.advance(10)
    engine.refresh_balance(token, "user_good")
    clock.advance(5)
    assert engine.get_balance(token, "user_good")["as_of"].startswith("2026-03-02T12:00:12")


def test_job_duration_is_configurable(clock: FrozenClock) -> None:
    engine = SandboxEngine(clock, job_seconds=40, ids=1)
    token = engine.issue_token(*GOOD)["access_token"]
    job_id = engine.start_identity(token, "user_good")["job_id"]
    clock.advance(39)
    assert engine.get_job(token, "user_good", job_id)["status"] == "in_progress"
    clock.advance(1)
    assert engine.get_job(token, "user_good", job_id)["status"] == "completed"


def test_mfa_right_answer_resumes_the_job(
    engine: SandboxEngine, clock: FrozenClock, token: str
) -> None:
    job = engine.start_transactions(token, "user_mfa")
    assert job["status"] == "mfa_required"
    assert job["mfa"] == {
        "question": "Enter the 4-digit code sent to the phone ending 0147",
        "expires_at": (START + timedelta(seconds=300)).isoformat(timespec="milliseconds"),
        "attempts_remaining": 3,
    }
    job_id = job["job_id"]
    clock.advance(60)
    assert engine.submit_mfa(token, "user_mfa", job_id, "1234")["status"] == "mfa_required"
    resumed = engine.resolve_mfa(token, "user_mfa", job_id)
    assert (resumed["status"], resumed["mfa"]) == ("in_progress", None)
    clock.advance(1.99)
    assert engine.get_job(token, "user_mfa", job_id)["status"] == "in_progress"
    clock.advance(0.01)
    assert engine.get_job(token, "user_mfa", job_id)["status"] == "completed"
    # Resolving a job that no longer waits for MFA changes nothing.
    assert engine.resolve_mfa(token, "user_mfa", job_id)["status"] == "completed"


def test_wrong_answers_count_down_then_fail_and_block(
    engine: SandboxEngine, clock: FrozenClock, token: str
) -> None:
    job_id = engine.refresh_balance(token, "user_mfa")["job_id"]
    for remaining in (2, 1):
        engine.submit_mfa(token, "user_mfa", job_id, "0000")
        job = engine.resolve_mfa(token, "user_mfa", job_id)
        assert (job["status"], job["mfa"]["attempts_remaining"]) == ("mfa_required", remaining)
        # The wrong answer is spent: resolving again needs a new one.
        _raises("AC-100", engine.resolve_mfa, token, "user_mfa", job_id)
    engine.submit_mfa(token, "user_mfa", job_id, "9999")
    job = engine.resolve_mfa(token, "user_mfa", job_id)
    assert job["status"] == "failed" and job["mfa"] is None
    assert job["error"] == {
        "code": "AC-108",
        "message": ERRORS["AC-108"].message,
        "blocked_until": (START + timedelta(seconds=900)).isoformat(timespec="milliseconds"),
    }

    error = _raises("AC-108", engine.refresh_balance, token, "user_mfa")
    assert (error.status, error.endpoint) == (429, ep.REFRESH)
    clock.advance(899)
    _raises("AC-108", engine.refresh_balance, token, "user_mfa")
    clock.advance(1)  # the block lifts on the clock
    assert engine.refresh_balance(token, "user_mfa")["status"] == "mfa_required"


def test_block_only_touches_refresh_and_that_user(engine: SandboxEngine, token: str) -> None:
    job_id = engine.refresh_balance(token, "user_mfa")["job_id"]
    for _ in range(3):
        engine.submit_mfa(token, "user_mfa", job_id, "bad")
        engine.resolve_mfa(token, "user_mfa", job_id)
    _raises("AC-108", engine.refresh_balance, token, "user_mfa")
    assert engine.get_balance(token, "user_mfa")["available"] == "842.10"
    assert engine.start_identity(token, "user_mfa")["status"] == "mfa_required"
    assert engine.refresh_balance(token, "user_good")["status"] == "pending"


def test_expired_mfa_session(engine: SandboxEngine, clock: FrozenClock, token: str) -> None:
    job_id = engine.start_identity(token, "user_mfa")["job_id"]
    engine.submit_mfa(token, "user_mfa", job_id, "1234")
    clock.advance(300)
    error = _raises("AC-110", engine.resolve_mfa, token, "user_mfa", job_id)
    assert error.status == 405
    job = engine.get_job(token, "user_mfa", job_id)
    assert job["status"] == "failed" and job["mfa"] is None
    assert job["error"]["code"] == "AC-110"
    # Still expired on the next try; a new answer does not revive it.
    assert engine.submit_mfa(token, "user_mfa", job_id, "1234")["status"] == "failed"
    _raises("AC-110", engine.resolve_mfa, token, "user_mfa", job_id)
    # An expired job no longer blocks a new identity job.
    assert engine.start_identity(token, "user_mfa")["status"] == "mfa_required"


def test_mfa_session_length_is_configurable(clock: FrozenClock) -> None:
    engine = SandboxEngine(clock, mfa_seconds=30, ids=1)
    token = engine.issue_token(*GOOD)["access_token"]
    job_id = engine.refresh_balance(token, "user_mfa")["job_id"]
    clock.advance(30)
    assert engine.get_job(token, "user_mfa", job_id)["error"]["code"] == "AC-110"


@pytest.mark.parametrize("answer", [None, "", "   ", 1234, ["1234"], "x" * 257])
def test_malformed_mfa_answer(engine: SandboxEngine, token: str, answer: object) -> None:
    job_id = engine.refresh_balance(token, "user_mfa")["job_id"]
    _raises("AC-100", engine.submit_mfa, token, "user_mfa", job_id, answer)


def test_unknown_and_foreign_jobs(engine: SandboxEngine, token: str) -> None:
    job_id = engine.refresh_balance(token, "user_mfa")["job_id"]
    spec = ERRORS["AC-109"]
    error = _raises("AC-109", engine.get_job, token, "user_good", job_id)
    assert error.message == spec.message_for(ep.JOB, user_id="user_good", job_id=job_id)
    assert "user_good" in error.message  # the JOB endpoint's text names the user
    error = _raises("AC-109", engine.submit_mfa, token, "user_good", job_id, "1234")
    assert (error.status, error.message) == (404, spec.message_for(ep.MFA_ANSWER, job_id=job_id))
    assert job_id in error.message
    error = _raises("AC-109", engine.resolve_mfa, token, "user_good", "job_nope")
    assert (error.status, error.message) == (
        404,
        spec.message_for(ep.MFA_RESOLVE, job_id="job_nope"),
    )


def test_one_identity_and_one_transaction_job_at_a_time(
    engine: SandboxEngine, clock: FrozenClock, token: str
) -> None:
    engine.start_identity(token, "user_good")
    engine.start_transactions(token, "user_good")
    error = _raises("AC-112", engine.start_identity, token, "user_good")
    assert (error.status, error.message) == (409, ERRORS["AC-112"].message)
    _raises("AC-112", engine.start_transactions, token, "user_good")
    # Other users and balance refreshes are not limited.
    engine.start_identity(token, "user_bulk")
    engine.refresh_balance(token, "user_good")
    engine.refresh_balance(token, "user_good")
    clock.advance(2)
    engine.start_identity(token, "user_good")


def test_a_job_waiting_for_mfa_counts_as_in_progress(engine: SandboxEngine, token: str) -> None:
    engine.start_transactions(token, "user_mfa")
    _raises("AC-112", engine.start_transactions, token, "user_mfa")


def test_concurrent_starts_from_threads_yield_one_job(engine: SandboxEngine, token: str) -> None:
    def start(_: int) -> str:
        try:
            return engine.start_identity(token, "user_good")["status"]
        except SandboxError as error:
            return error.code

    with ThreadPoolExecutor(max_workers=16) as pool:
        outcomes = list(pool.map(start, range(100)))
    assert outcomes.count("pending") == 1
    assert outcomes.count("AC-112") == 99


def test_tokens(engine: SandboxEngine, clock: FrozenClock) -> None:
    grant = engine.issue_token(*GOOD)
    assert grant["token_type"] == "Bearer" and grant["expires_in"] == 3600
    token = grant["access_token"]
    _raises("AC-101", engine.issue_token, "sandbox_key", "wrong")
    _raises("AC-101", engine.issue_token, "nobody", "sandbox_secret")
    _raises("AC-101", engine.issue_token, "sandbox_key", "sändbox")  # non-ASCII: no crash
    for key, secret in ((None, "x"), ("x", None), ("", "x"), (1, 2)):
        error = _raises("AC-100", engine.issue_token, key, secret)
        assert error.message == ERRORS["AC-100"].message_for(ep.TOKEN)
    clock.advance(3599)
    engine.get_account(token, "user_good")
    clock.advance(1)  # tokens expire on the sandbox clock
    _raises("AC-001", engine.get_account, token, "user_good")
    _raises("AC-001", engine.get_account, None, "user_good")
    _raises("AC-001", engine.get_account, "forged", "user_good")


def test_limited_credential_reaches_user_good_only(engine: SandboxEngine) -> None:
    token = engine.issue_token(*LIMITED)["access_token"]
    assert engine.get_account(token, "user_good")["user_id"] == "user_good"
    for user_id in ("user_mfa", "nobody", "../x"):
        error = _raises("AC-001", engine.get_account, token, user_id)
        assert error.status == 403


def test_check_order(engine: SandboxEngine, token: str) -> None:
    # Token beats everything, syntax beats existence, existence beats scenario.
    _raises("AC-001", engine.get_account, None, "a/b")
    _raises("AC-100", engine.submit_mfa, token, "nobody", "job_x", None)
    _raises("AC-102", engine.refresh_balance, token, "nobody")
    # The scenario comes before the job lookup: user_fi_down answers AC-104 everywhere.
    error = _raises("AC-104", engine.get_job, token, "user_fi_down", "job_x")
    assert "support@" in error.message
    _raises("AC-104", engine.resolve_mfa, token, "user_fi_down", "job_x")


def test_reset_forgets_jobs_and_blocks_keeps_tokens_and_rewinds_the_clock(
    engine: SandboxEngine, clock: FrozenClock, token: str
) -> None:
    job_id = engine.start_identity(token, "user_mfa")["job_id"]
    blocked = engine.refresh_balance(token, "user_mfa")["job_id"]
    for _ in range(3):
        engine.submit_mfa(token, "user_mfa", blocked, "no")
        engine.resolve_mfa(token, "user_mfa", blocked)
    clock.advance(5)
    engine.reset()
    assert clock.now() == START  # a demo starts again from the same moment
    _raises("AC-109", engine.get_job, token, "user_mfa", job_id)
    assert engine.refresh_balance(token, "user_mfa")["status"] == "mfa_required"  # unblocked
    assert engine.start_identity(token, "user_mfa")["job_id"] != job_id  # ids never reused


def test_tokens_survive_a_reset_but_not_longer_than_their_lifetime(
    engine: SandboxEngine, clock: FrozenClock
) -> None:
    clock.advance(86_400 * 300)
    token = engine.issue_token(*GOOD)["access_token"]  # expires 300 days after START
    engine.reset()
    engine.get_account(token, "user_good")  # still signed in after the rewind
    clock.advance(3599)
    engine.get_account(token, "user_good")
    clock.advance(1)  # a full lifetime after the reset, not 300 days more
    _raises("AC-001", engine.get_account, token, "user_good")


def test_advance_clock(engine: SandboxEngine, clock: FrozenClock) -> None:
    assert engine.advance_clock(30) == START + timedelta(seconds=30)
    assert clock.now() == START + timedelta(seconds=30)
    for bad in (-1, "5", None, True, float("nan"), float("inf")):
        _raises("AC-100", engine.advance_clock, bad)


def test_random_ids_by_default(clock: FrozenClock) -> None:
    first, second = SandboxEngine(clock), SandboxEngine(clock)
    ids = []
    for engine in (first, second):
        token = engine.issue_token(*GOOD)["access_token"]
        assert len(token) >= 32
        ids.append(engine.refresh_balance(token, "user_good")["job_id"])
    assert ids[0] != ids[1]


def test_seeded_and_callable_ids(clock: FrozenClock) -> None:
    seeded = SandboxEngine(clock, ids=3)
    token = seeded.issue_token(*GOOD)["access_token"]
    assert token == SandboxEngine(clock, ids=3).issue_token(*GOOD)["access_token"]
    assert [seeded.refresh_balance(token, "user_good")["job_id"] for _ in range(2)] == [
        "job_0001",
        "job_0002",
    ]
    custom = SandboxEngine(clock, ids=lambda kind: f"{kind}-fixed")
    token = custom.issue_token(*GOOD)["access_token"]
    assert token == "token-fixed"
    assert custom.refresh_balance(token, "user_good")["job_id"] == "job-fixed"


@pytest.mark.parametrize("option", ["job_seconds", "mfa_seconds", "token_seconds", "block_seconds"])
def test_durations_must_be_positive_and_at_most_366_days(clock: FrozenClock, option: str) -> None:
    for bad in (0, 366 * 86_400 + 1, float("inf")):
        with pytest.raises(ValueError):
            SandboxEngine(clock, **{option: bad})
    SandboxEngine(clock, **{option: 366 * 86_400})


def test_logs_carry_no_token_secret_or_account_number(
    engine: SandboxEngine, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level("DEBUG", logger="accountdesk.sandbox")
    token = engine.issue_token(*GOOD)["access_token"]
    account = engine.get_account(token, "user_mfa")
    job_id = engine.refresh_balance(token, "user_mfa")["job_id"]
    for _ in range(3):
        engine.submit_mfa(token, "user_mfa", job_id, "1111")
        engine.resolve_mfa(token, "user_mfa", job_id)
    assert caplog.records, "the engine logs its job events"
    for secret in (token, GOOD[1], account["account_number"], account["routing_number"], "1111"):
        assert secret not in caplog.text
    assert "sandbox_secret" not in repr(engine._tokens)
