"""One user's state inside a sandbox world, with the indexes that keep reads cheap.

Balance reads and the ``AC-112`` check used to scan every job of every user
under the lock (45 ms at 30,000 jobs). Each user now keeps what those
answers need, so they cost the same at 30 jobs and at 30,000:

- the last job started of each exclusive kind (identity, transactions): at
  most one of a kind is active, so that one job answers ``AC-112``;
- the balance refreshes still running, in a heap by the time they end, and
  the end of the last one completed (the balance's ``as_of``);
- the jobs waiting for MFA, which a block fails all at once;
- the MFA budget and block (:class:`~.blocks.MfaBudget`).

Standard library only; the world holds the lock.
"""

from __future__ import annotations

import datetime as dt
import heapq
import itertools

from accountdesk.sandbox.blocks import MFA_ATTEMPTS, MfaBudget
from accountdesk.sandbox.jobs import Job, JobKind, JobStatus

__all__ = ["EXCLUSIVE_KINDS", "UserState"]

#: Kinds limited to one active job per user (AC-112); balance refresh is not.
EXCLUSIVE_KINDS = frozenset({JobKind.IDENTITY, JobKind.TRANSACTIONS})


class UserState:
    """What a world knows about one user beyond the scenario's fixed data."""

    __slots__ = ("_active", "_order", "_running_refreshes", "budget", "refreshed_at", "waiting")

    def __init__(self, attempts: int | None = None) -> None:
        self.budget = MfaBudget(attempts or MFA_ATTEMPTS)
        #: Jobs of this user waiting for MFA (some may have expired since).
        self.waiting: dict[str, Job] = {}
        #: When the last completed balance refresh ended; None before any.
        self.refreshed_at: dt.datetime | None = None
        self._active: dict[JobKind, Job] = {}
        # (end, tie-breaker, job): a job is never compared with a job.
        self._running_refreshes: list[tuple[dt.datetime, int, Job]] = []
        self._order = itertools.count()

    def has_active(self, kind: JobKind, now: dt.datetime) -> bool:
        """Whether a job of ``kind`` is pending, in progress or waiting for MFA."""
        job = self._active.get(kind)
        return job is not None and job.settle(now).is_active

    def started(self, job: Job) -> None:
        """Index a new job of this user."""
        if job.kind in EXCLUSIVE_KINDS:
            self._active[job.kind] = job
        if job.status is JobStatus.MFA_REQUIRED:
            self.waiting[job.job_id] = job
        else:
            self._track_refresh(job)

    def resumed(self, job: Job) -> None:
        """The job's MFA was answered: it runs now."""
        self.waiting.pop(job.job_id, None)
        self._track_refresh(job)

    def stopped_waiting(self, job: Job) -> None:
        """The job no longer waits for MFA (it failed)."""
        self.waiting.pop(job.job_id, None)

    def fail_waiting(self, now: dt.datetime, blocked_until: dt.datetime) -> list[Job]:
        """The user is blocked: fail every job still waiting for MFA with ``AC-108``."""
        failed = []
        for job in self.waiting.values():
            # Settled first: a session that expired before the block stays AC-110.
            if job.settle(now).status is JobStatus.MFA_REQUIRED:
                job.fail("AC-108", now, blocked_until=blocked_until)
                failed.append(job)
        self.waiting.clear()
        return failed

    def refreshed_as_of(self, now: dt.datetime) -> dt.datetime | None:
        """When the last balance refresh completed by ``now`` ended, if any did."""
        heap = self._running_refreshes
        while heap and heap[0][0] <= now:
            ended, _, _ = heapq.heappop(heap)
            if self.refreshed_at is None or ended > self.refreshed_at:
                self.refreshed_at = ended
        return self.refreshed_at

    def _track_refresh(self, job: Job) -> None:
        if job.kind is JobKind.BALANCE_REFRESH and job.run_started_at is not None:
            ends = job.run_started_at + job.duration
            heapq.heappush(self._running_refreshes, (ends, next(self._order), job))
