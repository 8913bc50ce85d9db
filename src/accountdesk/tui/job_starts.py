"""The account screen's job keys (``b``, ``i``, ``t``): start a job for its user, track it, say so.

An object the account screen holds (:class:`JobStarts`). A key pressed again
while a start of its kind is on its way starts nothing, and cancels nothing
either: its request may have reached the service, which then runs a job
nobody tracks and answers the next identity or transactions start with
AC-112. The start runs in a worker of the screen, which posts
:class:`JobStarted` (or the one failure message); the screen hands it back
here. The balance refreshes started here are kept, so the screen reads the
balance again when one completes.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from textual.message import Message

from accountdesk.client import AccountDataError, Job
from accountdesk.contract import JobKind, JobStatus
from accountdesk.core.jobs.tracker import job_key
from accountdesk.core.notices import job_started
from accountdesk.tui.messages import ServiceFailed

if TYPE_CHECKING:
    from accountdesk.client import AccountDataClient
    from accountdesk.tui.base import DeskScreen

__all__ = ["JobStarted", "JobStarts"]

#: Each kind: how the client starts it, the operation it is named by, how a person says it.
_STARTS: dict[JobKind, tuple[Callable[[AccountDataClient, str], Awaitable[Job]], str, str]] = {
    JobKind.BALANCE_REFRESH: (
        lambda client, user: client.refresh_balance(user),
        "refresh_balance",
        "balance refresh",
    ),
    JobKind.IDENTITY: (
        lambda client, user: client.start_identity(user),
        "start_identity",
        "identity job",
    ),
    JobKind.TRANSACTIONS: (
        lambda client, user: client.start_transactions(user),
        "start_transactions",
        "transactions job",
    ),
}


class JobStarted(Message):
    """The service started a job (posted by the start's worker)."""

    def __init__(self, job: Job) -> None:
        super().__init__()
        self.job = job


class JobStarts:
    """The jobs ``screen`` starts for ``user_id`` (see the module docstring)."""

    def __init__(self, screen: DeskScreen[Any], user_id: str) -> None:
        self.screen = screen
        self.user_id = user_id
        #: Balance refreshes started here, by job key, until one is seen to end.
        self.refreshes: set[str] = set()

    def start(self, kind: JobKind) -> None:
        """Start a job of ``kind``, unless a start of that kind is still on its way."""
        start, operation, what = _STARTS[kind]
        screen = self.screen
        starting = (
            worker.node is screen and worker.group == operation and not worker.is_finished
            for worker in screen.workers  # the app's: this screen's are those it started
        )
        if any(starting):
            screen.notify(
                f"Starting the {what} for {self.user_id}: waiting for the service's answer.",
                title="Already starting",
                severity="warning",
                markup=False,
            )
            return
        screen.run_worker(
            self._start(start, operation), name=operation, group=operation, exit_on_error=False
        )

    async def _start(
        self, start: Callable[[AccountDataClient, str], Awaitable[Job]], operation: str
    ) -> None:
        try:
            job = await start(self.screen.desk.client, self.user_id)
        except AccountDataError as error:
            self.screen.post_message(ServiceFailed(error, operation))
            return
        self.screen.post_message(JobStarted(job))

    def started(self, job: Job) -> None:
        """A job this screen started: say so, and track it (polled from now on)."""
        if job.kind == JobKind.BALANCE_REFRESH:
            self.refreshes.add(job_key(self.user_id, job.job_id))
        notice = job_started(job.kind, job.job_id, self.user_id)
        self.screen.notify(notice.message, title=notice.title, markup=False)
        self.screen.desk.track_job(job, self.user_id)

    def refresh_completed(self) -> bool:
        """Whether a balance refresh started here has completed since last asked."""
        tracker = self.screen.desk.tracker
        completed = False
        for key in list(self.refreshes):
            tracked = tracker.get(key)
            if tracked is None or not tracked.is_terminal:
                continue
            self.refreshes.discard(key)
            completed = completed or tracked.status is JobStatus.COMPLETED
        return completed
