"""Jobs and MFA sessions of the sandbox, and how they move with the clock.

No background task moves a job along: its state is a function of the clock,
settled whenever the job is read (:meth:`Job.settle`). That is why the sandbox
works through ``httpx.ASGITransport``, which runs no lifespan and no tasks.

Lifecycle of a job (``job_seconds`` = d):

- without MFA: ``pending`` for the first quarter of d, then ``in_progress``,
  then ``completed`` at d;
- a scenario pack may make a job fail with a code instead (``fail``): at the
  end of ``pending`` (it never runs) or when it would have completed;
- with MFA: ``mfa_required`` from creation; the session expires after
  ``mfa_seconds`` (the job then reads ``failed`` with ``AC-110``); a right
  answer resumes the job (``in_progress``, ``completed`` d after the resume);
  each wrong answer costs one of the *user's* 3 attempts
  (:class:`~.blocks.MfaBudget`), and the last one fails every job of that
  user waiting for MFA with ``AC-108`` (and ``blocked_until``).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from accountdesk.contract import JobKind, JobStatus, known_spec
from accountdesk.sandbox.blocks import MFA_ATTEMPTS, MfaBudget
from accountdesk.sandbox.clock import wire_time
from accountdesk.sandbox.scenario import JobFailure

__all__ = ["ACTIVE_STATUSES", "MFA_ATTEMPTS", "Job", "JobKind", "JobStatus", "MfaSession"]

ACTIVE_STATUSES = frozenset({JobStatus.PENDING, JobStatus.IN_PROGRESS, JobStatus.MFA_REQUIRED})


def _iso(moment: dt.datetime | None) -> str | None:
    return None if moment is None else wire_time(moment)


@dataclass(slots=True)
class MfaSession:
    """The MFA challenge a job waits on."""

    question: str
    expected_answer: str = field(repr=False)
    expires_at: dt.datetime
    #: The user's budget, shared by every session of that user.
    budget: MfaBudget = field(default_factory=MfaBudget)
    #: The answer submitted through ``POST .../mfa/{job_id}``, checked on resolve.
    answer: str | None = field(default=None, repr=False)
    expired: bool = False

    def record(self, now: dt.datetime) -> dict[str, Any]:
        """The ``mfa`` object of the wire format; attempts are the user's, at ``now``."""
        return {
            "question": self.question,
            "expires_at": _iso(self.expires_at),
            "attempts_remaining": self.budget.attempts_at(now),
        }


@dataclass(slots=True)
class Job:
    """One job; read it through :meth:`settle` so its state matches the clock."""

    job_id: str
    user_id: str
    kind: JobKind
    created_at: dt.datetime
    duration: dt.timedelta
    status: JobStatus
    updated_at: dt.datetime
    #: When the current run began (creation or MFA resume); None while waiting.
    run_started_at: dt.datetime | None = None
    #: End of the ``pending`` phase of the current run.
    pending_until: dt.datetime | None = None
    completed_at: dt.datetime | None = None
    mfa: MfaSession | None = None
    error_code: str | None = None
    #: The failure's message as a pack wrote it (None: the catalogue's).
    error_message: str | None = None
    #: Set with ``AC-108``: when the user's block lifts.
    blocked_until: dt.datetime | None = None
    #: How a pack makes this job fail (None: it completes).
    failure: JobFailure | None = None

    @classmethod
    def start(
        cls,
        job_id: str,
        user_id: str,
        kind: JobKind,
        now: dt.datetime,
        duration: dt.timedelta,
        mfa: MfaSession | None = None,
        failure: JobFailure | None = None,
    ) -> Job:
        """A new job: running (``pending``) or, with ``mfa``, waiting for MFA."""
        job = cls(job_id, user_id, kind, now, duration, JobStatus.PENDING, now, failure=failure)
        if mfa is not None:
            job.status = JobStatus.MFA_REQUIRED
            job.mfa = mfa
        else:
            job.run_started_at = now
            job.pending_until = now + duration / 4
        return job

    @property
    def is_active(self) -> bool:
        """Pending, in progress or waiting for MFA (counts against AC-112)."""
        return self.status in ACTIVE_STATUSES

    @property
    def mfa_expired(self) -> bool:
        return self.mfa is not None and self.mfa.expired

    def settle(self, now: dt.datetime) -> Job:
        """Apply every transition the clock has passed since the last read."""
        if self.status is JobStatus.MFA_REQUIRED and self.mfa and now >= self.mfa.expires_at:
            self.mfa.expired = True
            self.fail("AC-110", self.mfa.expires_at)
        if self.status in (JobStatus.PENDING, JobStatus.IN_PROGRESS):
            assert self.run_started_at is not None and self.pending_until is not None
            done_at = self.run_started_at + self.duration
            failure = self.failure
            if failure is not None:
                fails_at = self.pending_until if failure.at == "pending" else done_at
                if now >= fails_at:
                    self.fail(failure.code, fails_at, message=failure.message)
                    return self
            if now >= done_at:
                self.status = JobStatus.COMPLETED
                self.completed_at = self.updated_at = done_at
            elif self.status is JobStatus.PENDING and now >= self.pending_until:
                self.status = JobStatus.IN_PROGRESS
                self.updated_at = self.pending_until
        return self

    def resume(self, now: dt.datetime) -> None:
        """The MFA answer was right: run to completion from ``now``."""
        self.status = JobStatus.IN_PROGRESS
        self.run_started_at = self.pending_until = self.updated_at = now

    def fail(
        self,
        code: str,
        at: dt.datetime,
        *,
        blocked_until: dt.datetime | None = None,
        message: str | None = None,
    ) -> None:
        """End the job with ``code`` (``AC-108`` carries when the block lifts)."""
        self.status = JobStatus.FAILED
        self.error_code = code
        self.error_message = message
        self.blocked_until = blocked_until
        self.updated_at = at

    def record(self, now: dt.datetime) -> dict[str, Any]:
        """The job object of the wire format (docs/developer/sandbox.md, "Wire format"), read at ``now``."""
        error: dict[str, str] | None = None
        if self.error_code is not None:
            spec = known_spec(self.error_code)
            if self.error_message is not None or spec is None:
                error = {"code": self.error_code, "message": self.error_message or ""}
            else:
                # The envelope's inner object, from the catalogue's one builder.
                error = spec.body_for(user_id=self.user_id, job_id=self.job_id)["error"]
            if self.blocked_until is not None:
                error["blocked_until"] = wire_time(self.blocked_until)
        mfa = None
        if self.status is JobStatus.MFA_REQUIRED and self.mfa is not None:
            mfa = self.mfa.record(now)
        return {
            "job_id": self.job_id,
            "user_id": self.user_id,
            "kind": self.kind.value,
            "status": self.status.value,
            "created_at": _iso(self.created_at),
            "updated_at": _iso(self.updated_at),
            "completed_at": _iso(self.completed_at),
            "mfa": mfa,
            "error": error,
        }
