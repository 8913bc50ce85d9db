"""Every toast the core asks for, written once.

A :class:`Notice` is what the UI shows (title, message, severity); the core
decides the words, the UI only draws them (always without markup: messages
carry the service's text).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from accountdesk.contract import JobKind, JobStatus, guidance_for_code
from accountdesk.core.errors.log import NEXT_STEP_PREFIX, Severity, block_lifts
from accountdesk.core.formatting import kind_label

if TYPE_CHECKING:
    from accountdesk.core.jobs.tracker import TrackedJob
    from accountdesk.core.store import StoreProblem

__all__ = ["Notice", "job_ended", "job_given_up", "job_started", "mfa_offer", "store_problem"]


@dataclass(frozen=True, slots=True)
class Notice:
    title: str
    message: str
    severity: Severity = "information"


_STARTED_NAMES: dict[str, str] = {
    JobKind.BALANCE_REFRESH: "Balance refresh",
    JobKind.IDENTITY: "Identity job",
    JobKind.TRANSACTIONS: "Transactions job",
}


def job_started(kind: JobKind | str | None, job_id: str, user_id: str) -> Notice:
    name = _STARTED_NAMES.get(kind or "", "Job")
    return Notice("Job started", f"{name} {job_id} started for {user_id}.")


def job_ended(tracked: TrackedJob) -> Notice:
    """The toast of a job that completed or failed (poller and MFA dialog alike)."""
    what = f"{kind_label(tracked.kind)} for {tracked.user_id}".capitalize()
    if tracked.status is JobStatus.COMPLETED:
        return Notice("Job completed", f"{what} completed.")
    code = tracked.last_error_code or "no code"
    reason = tracked.last_error_message or "no reason given"
    message = f"{what} failed: {reason}"
    if tracked.last_error_code:
        # The contract's next step, as an error toast ends (an AC-108 says when it lifts).
        step = guidance_for_code(tracked.last_error_code).next_step
        if tracked.blocked_until is not None:
            step = f"{block_lifts(tracked.blocked_until, tracked.last_poll_at)} {step}"
        message += f"\n{NEXT_STEP_PREFIX}{step}"
    return Notice(f"Job failed · {code}", message, "error")


def job_given_up(tracked: TrackedJob, minutes: int) -> Notice:
    what = f"{kind_label(tracked.kind)} {tracked.job_id} for {tracked.user_id}"
    return Notice(
        "Job polling stopped",
        f"{what.capitalize()} did not finish in {minutes} minutes; it is no longer polled "
        "(r on the jobs screen polls it again).",
        "warning",
    )


def mfa_offer(tracked: TrackedJob) -> Notice:
    return Notice(f"MFA for {tracked.user_id}", "A job needs MFA: press m on the jobs screen.")


def store_problem(problem: StoreProblem) -> Notice:
    return Notice("File problem", problem.sentence, "warning")
