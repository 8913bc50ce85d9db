"""The desk's part for jobs: the tracked jobs of the service and key, and their poller.

Built on first use, not with the desk: nothing of it is needed before
sign-in, and the tracker, poller and their modules cost the first frame
~10 ms (issue 16). The modules are imported where they are first needed.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Collection
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from accountdesk.client import AccountDataError, Job
    from accountdesk.core.connection import ServiceConnection
    from accountdesk.core.errors.log import ErrorRecord, InternalError
    from accountdesk.core.jobs.poller import JobPoller
    from accountdesk.core.jobs.scheduler import Scheduler
    from accountdesk.core.jobs.tracker import JobTracker, TrackedJob
    from accountdesk.core.listener import DeskListener
    from accountdesk.core.settings.paths import AppDirs
    from accountdesk.core.store import Store

__all__ = ["DeskJobs"]


class DeskJobs:
    """Jobs for :class:`~accountdesk.core.desk.Desk` (a base of it; its PollerListener too)."""

    dirs: AppDirs
    connection: ServiceConnection
    store: Store
    listener: DeskListener
    scheduler: Scheduler
    poll_interval: float
    sandbox_offset: dt.timedelta
    signed_in_as: str
    now: Callable[[], dt.datetime]
    _tracker: JobTracker | None
    _tracker_key: tuple[str, str]
    _poller: JobPoller | None

    @property
    def state_key(self) -> tuple[str, str]:  # the desk's service and key
        raise NotImplementedError

    @property
    def service_key(self) -> str:  # the desk's
        raise NotImplementedError

    @property
    def embedded(self) -> bool:  # the desk's
        raise NotImplementedError

    @property
    def signed_in(self) -> bool:  # the desk's
        raise NotImplementedError

    def _state_file(self, name: str) -> Path | None:  # the desk's
        raise NotImplementedError

    def record_error(self, error: AccountDataError | InternalError) -> ErrorRecord:  # the desk's
        raise NotImplementedError

    @property
    def tracker(self) -> JobTracker:
        """This service's and key's tracked jobs (read from their file on first use)."""
        from accountdesk.core.jobs.tracker import JobTracker

        if self._tracker is None or self._tracker_key != self.state_key:
            signed_in = bool(self.signed_in_as)
            tracker = JobTracker(
                self.store,
                self._state_file("jobs.json"),
                self.service_key,
                api_key=self.signed_in_as,
                earlier_path=self.dirs.jobs_file if signed_in else None,
                # The embedded sandbox is new every run: a job of an earlier
                # run is gone for every key, not someone else's.
                unknown_means_gone=self.embedded,
                sandboxes=self.connection.sandbox_locks if self.embedded else None,
            )
            tracker.load()
            tracker.clock_offset = self.sandbox_offset.total_seconds()
            self._tracker = tracker
            self._tracker_key = self.state_key
            self._poller = None
        return self._tracker

    @property
    def poller(self) -> JobPoller:
        """The poller of :attr:`tracker`'s jobs (built on first use)."""
        from accountdesk.core.jobs.poller import JobPoller

        tracker = self.tracker
        if self._poller is None or self._poller.tracker is not tracker:
            self._poller = JobPoller(
                tracker, self.scheduler, self, self.now, interval=self.poll_interval
            )
        return self._poller

    def stop_polling(self) -> None:
        if self._poller is not None:
            self._poller.stop()
        if self._tracker is not None and self._tracker.unsaved:
            self._tracker.save()

    # -- jobs --------------------------------------------------------------------

    def track_job(self, job: Job, user_id: str, *, offer_mfa: bool = True) -> TrackedJob:
        """Start tracking a job this app just started; it is polled from now on.

        ``offer_mfa=False``: the caller has already said the job waits for MFA
        (a recording's jobs), so no dialog or toast offers it.
        """
        tracked = self.tracker.track(job, user_id, self.now())
        self.tracker.save()
        self.listener.jobs_changed()
        if tracked.needs_mfa:
            if offer_mfa:
                self.listener.mfa_needed(tracked)
            else:
                tracked.mfa_offered = True
        return tracked

    def update_job(self, job: Job, user_id: str) -> TrackedJob | None:
        """A state of a tracked job learnt elsewhere (the MFA dialog): record it, say if it ended."""
        from accountdesk.core.jobs.tracker import job_key
        from accountdesk.core.notices import job_ended

        tracked = self.tracker.get(job_key(user_id, job.job_id))
        if tracked is None:
            return None
        was_pollable = tracked.is_pollable
        self.tracker.record_poll(tracked, job, self.now())
        self.tracker.save()
        if was_pollable and tracked.is_terminal:
            self.listener.notice(job_ended(tracked))
        self.listener.jobs_changed()
        return tracked

    def finished_job_keys(self) -> list[str]:
        """The jobs "Clear done" forgets: finished or gone, not given up on."""
        return [job.key for job in self.tracker.jobs if not job.is_pollable and not job.given_up]

    def clear_finished_jobs(self, among: Collection[str] | None = None) -> int:
        """Forget the finished (or gone) jobs of this service, only those ``among`` if given."""
        tracker = self.tracker
        done = [key for key in self.finished_job_keys() if among is None or key in among]
        cleared = tracker.forget(done)
        if cleared:
            tracker.save()
            self.listener.jobs_changed()
        return cleared

    def unfinished_jobs(self) -> int:
        """Jobs still being polled (what quitting or signing out would leave behind)."""
        return len(self.tracker.pollable()) if self.signed_in else 0

    # -- PollerListener ------------------------------------------------------------

    def jobs_changed(self) -> None:
        self.listener.jobs_changed()

    def job_finished(self, tracked: TrackedJob) -> None:
        from accountdesk.core.notices import job_ended

        self.listener.notice(job_ended(tracked))

    def job_needs_mfa(self, tracked: TrackedJob) -> None:
        self.listener.mfa_needed(tracked)

    def job_given_up(self, tracked: TrackedJob) -> None:
        from accountdesk.core.notices import job_given_up

        minutes = int(self.poller.give_up_after.total_seconds() // 60)
        self.listener.notice(job_given_up(tracked, minutes))

    def poll_failed(self, tracked: TrackedJob, error: AccountDataError) -> None:
        self.listener.error_recorded(self.record_error(error))
