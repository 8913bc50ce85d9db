"""An AC-108 block the app learnt is a hint: a later answer of the service overrules it.

The block is learnt from a job that failed with ``AC-108`` (``blocked_until``)
and kept with that job in ``jobs.json``. A trainer's reset (or a service that
lifted it early) makes it wrong: an answer that a blocked user could not get
(a job waiting for MFA with attempts left, an accepted MFA answer, a balance
refresh started) drops it, for good, across a restart. A block learnt after
that answer stands.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from accountdesk.client import Job
from accountdesk.core.jobs.learnt_blocks import user_blocked_until
from accountdesk.core.jobs.rows import block_text
from accountdesk.core.jobs.tracker import JobTracker
from accountdesk.core.store import Store

NOW = dt.datetime(2026, 11, 20, 9, 30, tzinfo=dt.UTC)
LIFTS = NOW + dt.timedelta(minutes=15)


def tracker_at(path: Path) -> JobTracker:
    tracker = JobTracker(Store(), path, "sandbox")
    tracker.load()
    return tracker


def job(job_id: str, status: str, kind: str = "identity", **extra: object) -> Job:
    return Job.model_validate(
        {"job_id": job_id, "kind": kind, "status": status, "created_at": NOW.isoformat(), **extra}
    )


def waiting(job_id: str, left: int | None, kind: str = "identity") -> Job:
    return job(job_id, "mfa_required", kind, mfa={"question": "Code?", "attempts_remaining": left})


def blocked(job_id: str = "job_1") -> Job:
    error = {"code": "AC-108", "message": "blockd", "blocked_until": LIFTS.isoformat()}
    return job(job_id, "failed", error=error)


def learn_block(tracker: JobTracker, user_id: str = "user_mfa") -> None:
    tracked = tracker.track(waiting("job_1", 1), user_id, NOW)
    tracker.record_poll(tracked, blocked(), NOW)


def test_a_job_waiting_with_attempts_left_drops_the_block_for_good(tmp_path: Path) -> None:
    path = tmp_path / "jobs.json"
    tracker = tracker_at(path)
    learn_block(tracker)
    tracker.save()
    assert user_blocked_until(tracker.jobs, "user_mfa", NOW) == LIFTS
    # The trainer reset the user: the next job waits with the full budget.
    tracker.track(waiting("job_2", 3, kind="balance_refresh"), "user_mfa", NOW)
    tracker.save()
    assert user_blocked_until(tracker.jobs, "user_mfa", NOW) is None
    # A restart on the same data folder (the waiting job's challenge is not kept).
    again = tracker_at(path)
    assert user_blocked_until(again.jobs, "user_mfa", NOW) is None
    # The failed job still says what the service said then, and that it is over.
    failed = next(tracked for tracked in again.jobs if tracked.job_id == "job_1")
    assert failed.blocked_until == LIFTS
    assert (
        block_text(failed) == "block lifted early (a later answer of the service showed no block)"
    )


def test_a_waiting_job_without_attempts_left_or_not_saying_keeps_the_block(tmp_path: Path) -> None:
    tracker = tracker_at(tmp_path / "jobs.json")
    learn_block(tracker)
    tracker.track(waiting("job_2", 0), "user_mfa", NOW)
    tracker.track(waiting("job_3", None), "user_mfa", NOW)
    assert user_blocked_until(tracker.jobs, "user_mfa", NOW) == LIFTS


def test_an_answer_for_another_user_keeps_the_block(tmp_path: Path) -> None:
    tracker = tracker_at(tmp_path / "jobs.json")
    learn_block(tracker)
    tracker.track(waiting("job_2", 3), "user_other", NOW)
    assert user_blocked_until(tracker.jobs, "user_mfa", NOW) == LIFTS


def test_a_refresh_the_service_started_drops_the_block(tmp_path: Path) -> None:
    # A blocked user's refresh is refused (AC-108): one that starts says there is no block.
    tracker = tracker_at(tmp_path / "jobs.json")
    learn_block(tracker)
    tracker.track(job("job_2", "pending", kind="identity"), "user_mfa", NOW)
    assert user_blocked_until(tracker.jobs, "user_mfa", NOW) == LIFTS  # identity may start
    tracker.track(job("job_3", "pending", kind="balance_refresh"), "user_mfa", NOW)
    assert user_blocked_until(tracker.jobs, "user_mfa", NOW) is None


def test_an_accepted_answer_drops_the_block(tmp_path: Path) -> None:
    tracker = tracker_at(tmp_path / "jobs.json")
    later = tracker.track(waiting("job_2", 0), "user_mfa", NOW)
    learn_block(tracker)
    tracker.record_poll(later, job("job_2", "in_progress"), NOW)  # it resumed: answer taken
    assert user_blocked_until(tracker.jobs, "user_mfa", NOW) is None


def test_a_block_learnt_after_the_answer_stands(tmp_path: Path) -> None:
    tracker = tracker_at(tmp_path / "jobs.json")
    # Attempts left first, then the third wrong answer blocks the user.
    tracker.track(waiting("job_2", 3), "user_mfa", NOW)
    learn_block(tracker)
    assert user_blocked_until(tracker.jobs, "user_mfa", NOW) == LIFTS
    # A poll of a job that went on without MFA proves nothing about the block.
    other = tracker.track(job("job_3", "pending"), "user_mfa", NOW)
    tracker.record_poll(other, job("job_3", "completed"), NOW)
    assert user_blocked_until(tracker.jobs, "user_mfa", NOW) == LIFTS
