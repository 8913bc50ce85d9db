"""The account screen's job keys (``b``, ``i``, ``t``): start a job, track it, say so.

Its base class, kept apart so the screen stays one screen's size. A key
pressed again while its start is on its way does not start (nor cancel)
anything: see :meth:`AccountJobStarts._start_job`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from textual.message import Message

from accountdesk.client import AccountDataError, Job
from accountdesk.contract import JobKind
from accountdesk.core.jobs.tracker import job_key
from accountdesk.core.notices import job_started
from accountdesk.tui.base import DeskScreen
from accountdesk.tui.messages import ServiceFailed

if TYPE_CHECKING:
    from accountdesk.client import AccountDataClient

__all__ = ["AccountJobStarts", "JobStarted"]


class JobStarted(Message):
    def __init__(self, job: Job) -> None:
        super().__init__()
        self.job = job


class AccountJobStarts(DeskScreen[None]):
    """Starts the jobs of one user's account screen (``user_id``)."""

    user_id: str
    #: Balance refreshes started here: the balance is read again when one completes.
    _refresh_jobs: set[str]

    def action_refresh_balance(self) -> None:
        self._start_job(
            lambda client: client.refresh_balance(self.user_id),
            "refresh_balance",
            "balance refresh",
        )

    def action_start_identity(self) -> None:
        self._start_job(
            lambda client: client.start_identity(self.user_id), "start_identity", "identity job"
        )

    def action_start_transactions(self) -> None:
        self._start_job(
            lambda client: client.start_transactions(self.user_id),
            "start_transactions",
            "transactions job",
        )

    def _start_job(
        self, start: Callable[[AccountDataClient], Awaitable[Job]], operation: str, what: str
    ) -> None:
        """Start a job, unless a start of the same kind is still on its way.

        Never cancel that one (an exclusive worker would): its request may
        have reached the service, which then runs a job nobody tracks, and
        answers the next identity or transactions start with AC-112.
        """
        starting = (
            worker.node is self and worker.group == operation and not worker.is_finished
            for worker in self.workers  # the app's: this screen's are those it started
        )
        if any(starting):
            self.notify(
                f"Starting the {what} for {self.user_id}: waiting for the service's answer.",
                title="Already starting",
                severity="warning",
                markup=False,
            )
            return
        self.run_worker(
            self._start_job_worker(start, operation),
            name=operation,
            group=operation,
            exit_on_error=False,
        )

    async def _start_job_worker(
        self, start: Callable[[AccountDataClient], Awaitable[Job]], operation: str
    ) -> None:
        try:
            job = await start(self.desk.client)
        except AccountDataError as error:
            self.post_message(ServiceFailed(error, operation))
            return
        self.post_message(JobStarted(job))

    def on_job_started(self, message: JobStarted) -> None:
        job = message.job
        if job.kind == JobKind.BALANCE_REFRESH:
            self._refresh_jobs.add(job_key(self.user_id, job.job_id))
        notice = job_started(job.kind, job.job_id, self.user_id)
        self.notify(notice.message, title=notice.title, markup=False)
        self.desk.track_job(job, self.user_id)
