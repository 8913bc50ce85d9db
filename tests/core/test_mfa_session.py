"""The MFA dialog's state machine, without a screen."""

from __future__ import annotations

import datetime as dt
from typing import Any

from accountdesk.client import (
    AccountBlockedError,
    FiConnectionError,
    Job,
    JobNotFoundError,
    MfaChallenge,
    MfaSessionExpiredError,
)
from accountdesk.core.mfa import MfaOutcome, MfaSession, MfaState, format_countdown

NOW = dt.datetime(2026, 11, 20, 9, 30, tzinfo=dt.UTC)


class Clock:
    def __init__(self) -> None:
        self.now = NOW

    def __call__(self) -> dt.datetime:
        return self.now


def challenge(left: int | None = 3, seconds: int = 300) -> MfaChallenge:
    return MfaChallenge(
        question="Code?", expires_at=NOW + dt.timedelta(seconds=seconds), attempts_remaining=left
    )


def job(status: str, **extra: Any) -> Job:
    return Job.model_validate({"job_id": "job_1", "status": status, **extra})


def test_countdown_formats() -> None:
    assert format_countdown(NOW + dt.timedelta(seconds=299.5), NOW) == "04:59"
    assert format_countdown(NOW, NOW) == "expired"
    assert format_countdown(None, NOW) == "—"


def test_a_blank_answer_is_refused_and_nothing_is_sent() -> None:
    session = MfaSession(challenge(), Clock())
    step = session.submit("   ")
    assert step is not None and step.error and session.state is MfaState.WAITING


def test_one_answer_at_a_time_then_a_wrong_one_counts_down() -> None:
    session = MfaSession(challenge(), Clock())
    assert session.submit("0000") is not None and session.state is MfaState.SENDING
    assert session.submit("1111") is None  # the first is still on its way
    step = session.answered(job("mfa_required", mfa={"question": "Code?", "attempts_remaining": 2}))
    assert session.state is MfaState.WAITING
    assert step.message == "Wrong answer — 2 attempts left" and step.clear_answer
    assert session.attempts_text == "Attempts left: 2"


def test_a_right_answer_closes_with_resumed() -> None:
    session = MfaSession(challenge(), Clock())
    session.submit("1234")
    step = session.answered(job("in_progress"))
    assert step.close is not None and step.close.outcome is MfaOutcome.RESUMED
    assert step.notice is not None and "resumed" in step.notice.message


def test_the_third_wrong_answer_fails_the_job_as_blocked() -> None:
    session = MfaSession(challenge(left=1), Clock())
    session.submit("0000")
    step = session.answered(job("failed", error={"code": "AC-108", "message": "blockd"}))
    assert step.close is not None and step.close.outcome is MfaOutcome.BLOCKED
    assert step.notice is None  # the desk announces a failed job, once


def test_expired_blocked_and_gone_close_other_errors_keep_it_open() -> None:
    for error, outcome in (
        (MfaSessionExpiredError(405, "AC-110", "expired"), MfaOutcome.EXPIRED),
        (AccountBlockedError(429, "AC-108", "blockd"), MfaOutcome.BLOCKED),
        (JobNotFoundError(404, "AC-109", "gone"), MfaOutcome.GONE),
    ):
        session = MfaSession(challenge(), Clock())
        session.submit("1")
        step = session.answer_failed(error)
        assert step.close is not None and step.close.outcome is outcome and step.report is error
    session = MfaSession(challenge(), Clock())
    session.submit("1")
    step = session.answer_failed(FiConnectionError(400, "AC-104", "bank down"))
    assert step.close is None and step.enable_answer and session.state is MfaState.WAITING


def test_countdown_zero_asks_the_service_which_decides() -> None:
    clock = Clock()
    session = MfaSession(challenge(seconds=10), clock)
    assert session.tick() is None
    clock.now += dt.timedelta(seconds=11)
    assert session.tick() is not None and session.expired_here
    assert session.tick() is None  # once
    answer_round = session.start_check()
    assert answer_round is not None and session.start_check() is None  # one read at a time
    step = session.checked(answer_round, job("mfa_required", mfa={"attempts_remaining": 3}), None)
    assert step is not None and "still waits" in (step.message or "")
    answer_round = session.start_check()
    assert answer_round is not None
    step = session.checked(answer_round, job("failed", error={"code": "AC-110"}), None)
    assert step is not None and step.close is not None and step.close.outcome is MfaOutcome.EXPIRED


def test_a_read_started_before_an_answer_is_stale_news() -> None:
    session = MfaSession(challenge(), Clock())
    answer_round = session.start_check()
    assert answer_round is not None
    assert session.checked(answer_round, None, FiConnectionError(400, "AC-104", "down")) is not None
    stale_round = session.start_check()
    assert stale_round is not None
    session.state = MfaState.WAITING  # the read is still out when the user answers
    session.submit("1234")
    assert session.checked(stale_round, job("completed"), None) is None


def test_a_failing_check_is_reported_once_per_kind() -> None:
    session = MfaSession(challenge(), Clock())
    reports = []
    for _ in range(3):
        answer_round = session.start_check()
        assert answer_round is not None
        step = session.checked(answer_round, None, FiConnectionError(400, "AC-104", "down"))
        assert step is not None
        reports.append(step.report)
    assert [r is not None for r in reports] == [True, False, False]


def test_a_learnt_block_is_said_but_never_refuses_an_answer() -> None:
    # The block is what the app learnt from another job: the service decides.
    clock = Clock()
    session = MfaSession(challenge(left=None, seconds=3600), clock)
    session.blocked_until = NOW + dt.timedelta(minutes=15)
    assert session.attempts_text == "Blocked until 09:45:00 UTC"
    warning = session.warning or ""
    assert "AC-108" in warning and "09:45:00 UTC (in 15 min)" in warning
    step = session.submit("1234")
    assert step is not None and session.state is MfaState.SENDING  # it went
    clock.now = NOW + dt.timedelta(minutes=15, seconds=1)
    assert session.warning is None and session.attempts_text == "Attempts left: —"


def test_no_attempts_left_is_said_but_the_answer_goes() -> None:
    session = MfaSession(challenge(left=0), Clock())
    assert "No attempts left" in (session.warning or "")
    step = session.submit("1234")
    assert step is not None and session.state is MfaState.SENDING
