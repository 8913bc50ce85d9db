"""AC-108 blocks the app learnt: hints that the service's later answers overrule.

A block is learnt from a job that failed with ``AC-108`` (its
``blocked_until``) and kept with that job in ``jobs.json``. It may end before
that time: a trainer resets the trainee, or the service lifts it early. So a
later answer that a blocked user could not get overrules every block learnt
before it, for good (the mark is saved with the failed job):

- a job waiting for MFA with attempts left (a blocked user has none);
- an MFA answer taken (the job left ``mfa_required`` without failing: no
  answer is checked while a block stands);
- a balance refresh started (a blocked user's refresh is refused, ``AC-108``).

A block learnt after such an answer stands. The MFA dialog shows a standing
block as a warning and still sends the answer: the service decides.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import TYPE_CHECKING

from accountdesk.contract import JobKind, JobStatus

if TYPE_CHECKING:
    from accountdesk.client import Job
    from accountdesk.core.jobs.tracked_job import TrackedJob

__all__ = ["holds_block", "learn_block", "overrule_blocks", "shows_no_block", "user_blocked_until"]

_TAKEN = frozenset({JobStatus.PENDING, JobStatus.IN_PROGRESS, JobStatus.COMPLETED})


def holds_block(job: TrackedJob) -> bool:
    """``job`` failed with ``AC-108``, said until when, and no later answer overruled it."""
    return (
        job.last_error_code == "AC-108"
        and job.blocked_until is not None
        and not job.block_overruled
    )


def learn_block(job: TrackedJob, until: dt.datetime | None) -> None:
    """The service said (again) when ``job``'s block lifts; a new time is a new block."""
    if until != job.blocked_until:
        job.block_overruled = False
    job.blocked_until = until


def shows_no_block(job: Job, previous: JobStatus | str, *, started: bool) -> bool:
    """The service's answer ``job`` could not have been given to a blocked user.

    ``previous`` is the status the app knew before; ``started``: the answer
    to the job's start, not to a poll.
    """
    if job.needs_mfa:
        return bool(job.mfa is not None and job.mfa.attempts_remaining)
    if previous is JobStatus.MFA_REQUIRED and job.status in _TAKEN:
        return True
    return started and job.kind == JobKind.BALANCE_REFRESH


def overrule_blocks(jobs: Iterable[TrackedJob], user_id: str) -> list[str]:
    """Mark every block learnt for ``user_id`` as overruled; the keys of the jobs marked."""
    marked = []
    for job in jobs:
        if job.user_id == user_id and holds_block(job):
            job.block_overruled = True
            marked.append(job.key)
    return marked


def user_blocked_until(
    jobs: Iterable[TrackedJob], user_id: str, now: dt.datetime
) -> dt.datetime | None:
    """When ``user_id``'s block lifts, as the app learnt it, if it stands and has not lifted."""
    lifts = [
        job.blocked_until
        for job in jobs
        if job.user_id == user_id
        and holds_block(job)
        and job.blocked_until is not None
        and job.blocked_until > now
    ]
    return max(lifts, default=None)
