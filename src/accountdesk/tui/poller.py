"""Live polling of tracked jobs, mixed into the app (:class:`JobsMixin`).

Polling never overlaps (as in dolphie): a one-shot timer starts a poll round,
and the next timer is armed only when the round has finished. A round runs in
a worker (group ``"jobs"``) that asks the service for each due job in turn and
posts one message per answer; the handlers, on the app's thread, update the
:class:`~accountdesk.tui.jobs.JobTracker` and the screens.

What a round skips: finished jobs, jobs the service no longer knows
(``AC-109``), jobs still backing off after errors (1 s, doubling, 30 s cap),
and every job while polling is paused or a modal dialog is open. Each distinct
error of a job is shown once (through ``app.report_error``); repeats only keep
the job's row marked stale.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, cast

from textual import work
from textual.message import Message
from textual.screen import ModalScreen
from textual.signal import Signal
from textual.timer import Timer
from textual.worker import Worker

from accountdesk.client.errors import AccountDataError, JobNotFoundError
from accountdesk.client.models import Job
from accountdesk.tui.jobs import JOBS_FILE, JobTracker, TrackedJob, job_key

if TYPE_CHECKING:
    import datetime as dt
    from pathlib import Path

    from textual.app import App

    from accountdesk.client import AccountDataClient

__all__ = ["JobsHost", "JobsMixin", "MfaOutcome", "PollTarget"]

log = logging.getLogger(__name__)

#: Seconds between the end of one poll round and the start of the next.
DEFAULT_POLL_INTERVAL = 1.0
MFA_OFFER = "Job needs MFA — press m on the jobs screen"


class JobsHost(Protocol):
    """What the jobs screens need from the app (``AccountDeskApp`` provides it)."""

    @property
    def client(self) -> AccountDataClient: ...
    @property
    def data_dir(self) -> Path: ...
    @property
    def base_url_key(self) -> str: ...
    def now(self) -> dt.datetime: ...
    def report_error(self, error: AccountDataError) -> None: ...


@dataclass(frozen=True)
class PollTarget:
    key: str
    user_id: str
    job_id: str


@dataclass(frozen=True)
class MfaOutcome:
    """How the MFA dialog ended: ``resumed``, ``failed``, ``expired``, ``blocked``,
    ``error`` or ``cancelled``; ``job`` is the last state the service sent."""

    outcome: str
    job: Job | None = None


class JobPollMessage(Message):
    """Posted by a poll round; ``round_id`` lets the app drop a cancelled round's news."""

    def __init__(self, round_id: int) -> None:
        super().__init__()
        self.round_id = round_id


class JobPolled(JobPollMessage):
    """A poll answered with the job's current state."""

    def __init__(self, round_id: int, key: str, job: Job) -> None:
        super().__init__(round_id)
        self.key = key
        self.job = job


class JobPollFailed(JobPollMessage):
    """A poll failed; the error is shown once per distinct kind and job."""

    def __init__(self, round_id: int, key: str, error: AccountDataError) -> None:
        super().__init__(round_id)
        self.key = key
        self.error = error


class JobPollRoundFinished(JobPollMessage):
    """The round's worker ended (normally or not): arm the next round."""


class JobsMixin:
    """Job tracking and live polling for the app.

    Mixed in before ``App``: ``class AccountDeskApp(JobsMixin, App[None])``.
    The app calls :meth:`init_jobs` once signed in and :meth:`stop_jobs` on
    sign-out; screens call :meth:`track_job` after starting a job.
    """

    #: Seconds between rounds; tests set it high and drive rounds with :meth:`poll_jobs_now`.
    jobs_poll_interval: float = DEFAULT_POLL_INTERVAL

    _job_tracker: JobTracker | None = None
    _jobs_signal: Signal[JobTracker] | None = None
    _poll_timer: Timer | None = None
    _poll_worker: Worker[None] | None = None
    _polling_live: bool = False
    _polling_paused: bool = False
    _poll_generation: int = 0
    _poll_round_id: int = 0

    # -- lifecycle -------------------------------------------------------

    @property
    def job_tracker(self) -> JobTracker:
        """The jobs of the current service (loaded from disk on first use)."""
        host = self._host
        tracker = self._job_tracker
        if tracker is None or tracker.service_key != host.base_url_key:
            tracker = JobTracker(host.data_dir / JOBS_FILE, host.base_url_key)
            tracker.load()
            self._job_tracker = tracker
        return tracker

    @property
    def jobs_changed_signal(self) -> Signal[JobTracker]:
        """Published (with the tracker) whenever a tracked job changes."""
        if self._jobs_signal is None:
            self._jobs_signal = Signal(cast("App[Any]", self), "jobs-changed")
        return self._jobs_signal

    def init_jobs(self) -> None:
        """Load this service's jobs and start polling them."""
        self._job_tracker = None  # reload: the service may have changed since
        self.job_tracker  # noqa: B018  (loads the file)
        self._polling_live = True
        self._publish_jobs()
        self._arm_poll()

    def stop_jobs(self) -> None:
        """Stop polling (sign-out, quit) and save the jobs."""
        self._polling_live = False
        if self._poll_timer is not None:
            self._poll_timer.stop()
            self._poll_timer = None
        if self._poll_worker is not None:
            self._poll_worker.cancel()
            self._poll_worker = None
        self._poll_round_id += 1  # whatever the cancelled round still posts is dropped
        if self._job_tracker is not None:
            self._job_tracker.save()

    def track_job(self, job: Job, user_id: str) -> None:
        """Start tracking a job this app just started; it is polled from now on."""
        tracked = self.job_tracker.track(job, user_id, self._host.now())
        self.job_tracker.save()
        self._publish_jobs()
        if job.needs_mfa:
            self._offer_mfa(tracked)

    def update_job(self, job: Job, user_id: str) -> None:
        """Record a state of a tracked job learnt elsewhere (the MFA dialog)."""
        tracker = self.job_tracker
        tracked = tracker.get(job_key(user_id, job.job_id))
        if tracked is None:
            return
        tracker.record_poll(tracked, job, self._host.now())
        tracker.save()
        self._publish_jobs()

    # -- pausing ---------------------------------------------------------

    @property
    def polling_paused(self) -> bool:
        return self._polling_paused

    def set_polling_paused(self, paused: bool) -> None:
        """Pause or resume live polling (the jobs screen's ``p``)."""
        self._polling_paused = paused
        self._publish_jobs()
        if not paused:
            self._arm_poll()

    def action_toggle_job_polling(self) -> None:
        """Global pause/resume of live polling (bindable from the app)."""
        self.set_polling_paused(not self._polling_paused)
        app = cast("App[Any]", self)
        app.notify("Job polling paused" if self._polling_paused else "Job polling resumed")

    # -- screens ---------------------------------------------------------

    def action_show_jobs(self) -> None:
        """Show the jobs screen (the app's ``j``)."""
        from accountdesk.tui.screens.jobs import JobsScreen

        app = cast("App[Any]", self)
        if isinstance(app.screen, JobsScreen):
            return
        app.push_screen(JobsScreen())

    def open_mfa_dialog(self, key: str) -> bool:
        """Open the MFA dialog for a tracked job waiting on MFA; False if it is not."""
        from accountdesk.tui.screens.mfa import MfaDialog

        app = cast("App[Any]", self)
        tracked = self.job_tracker.get(key)
        if tracked is None or not tracked.needs_mfa:
            app.notify("That job is not waiting for MFA.", severity="warning")
            return False
        if any(isinstance(screen, MfaDialog) for screen in app.screen_stack):
            return False
        tracked.mfa_offered = True
        dialog = MfaDialog(tracked.user_id, tracked.job_id, tracked.kind, tracked.mfa)
        app.push_screen(dialog, callback=lambda outcome: self._mfa_closed(tracked, outcome))
        return True

    def _offer_mfa(self, tracked: TrackedJob) -> None:
        tracked.mfa_offered = True
        app = cast("App[Any]", self)
        if isinstance(app.screen, ModalScreen):
            app.notify(MFA_OFFER, title=f"MFA for {tracked.user_id}", markup=False)
        else:
            self.open_mfa_dialog(tracked.key)

    def _mfa_closed(self, tracked: TrackedJob, outcome: MfaOutcome | None) -> None:
        if outcome is not None and outcome.job is not None:
            self.update_job(outcome.job, tracked.user_id)
        # The dialog held polling; the next round looks at the job again (an
        # expired or blocked session leaves it failed on the service).
        self._arm_poll()

    # -- polling ---------------------------------------------------------

    @property
    def polling_armed(self) -> bool:
        """True while the one-shot timer for the next round is waiting."""
        return self._poll_timer is not None

    @property
    def polling_busy(self) -> bool:
        """True while a poll round runs."""
        return self._poll_worker is not None

    def poll_jobs_now(self, *, force: bool = False) -> Worker[None] | None:
        """Start a poll round now, or return the one already running.

        Without ``force`` a round respects pause, open modals and backoff (the
        timer uses this); ``force`` (the jobs screen's ``r``) polls every
        unfinished job at once. Returns the round's worker, or None when
        nothing was due.
        """
        if self._poll_worker is not None:
            return self._poll_worker
        app = cast("App[Any]", self)
        if not force and (self._polling_paused or isinstance(app.screen, ModalScreen)):
            return None
        tracker = self.job_tracker
        jobs = tracker.pollable() if force else tracker.due(self._host.now())
        if not jobs:
            return None
        try:
            client = self._host.client
        except RuntimeError:  # not signed in yet
            return None
        if self._poll_timer is not None:
            self._poll_timer.stop()
            self._poll_timer = None
        targets = [PollTarget(job.key, job.user_id, job.job_id) for job in jobs]
        self._poll_round_id += 1
        self._poll_worker = self._poll_round(self._poll_round_id, client, targets)
        return self._poll_worker

    def _arm_poll(self, delay: float | None = None) -> None:
        """Arm the one-shot timer of the next round (after ``delay``, default the interval)."""
        if not self._polling_live or self._poll_worker is not None:
            return  # a running round re-arms when it finishes
        if self._poll_timer is not None:
            self._poll_timer.stop()
        app = cast("App[Any]", self)
        wait = self.jobs_poll_interval if delay is None else delay
        wait = max(wait, 0.01)  # Textual's timer divides by its interval
        # A stopped timer's event may already be queued: only the newest timer counts.
        self._poll_generation += 1
        generation = self._poll_generation
        self._poll_timer = app.set_timer(
            wait, lambda: self._poll_timer_fired(generation), name="jobs-poll"
        )

    def _poll_timer_fired(self, generation: int) -> None:
        if generation != self._poll_generation or self._poll_timer is None:
            return
        self._poll_timer = None
        if self.poll_jobs_now() is None:
            self._arm_poll()

    @work(exit_on_error=False, group="jobs")
    async def _poll_round(
        self, round_id: int, client: AccountDataClient, targets: list[PollTarget]
    ) -> None:
        app = cast("App[Any]", self)
        try:
            # One job after the other: a round never has two requests in flight.
            for target in targets:
                try:
                    job = await client.get_job(target.user_id, target.job_id)
                except AccountDataError as error:
                    app.post_message(JobPollFailed(round_id, target.key, error))
                else:
                    app.post_message(JobPolled(round_id, target.key, job))
        finally:
            app.post_message(JobPollRoundFinished(round_id))

    def _tracked_for(self, message: JobPolled | JobPollFailed) -> TrackedJob | None:
        """The job a poll message is about; None for a stale round's news or a forgotten job."""
        if message.round_id != self._poll_round_id:
            return None
        return self.job_tracker.get(message.key)

    def on_job_polled(self, message: JobPolled) -> None:
        tracked = self._tracked_for(message)
        if tracked is None:
            return
        was_pollable = tracked.is_pollable
        self.job_tracker.record_poll(tracked, message.job, self._host.now())
        app = cast("App[Any]", self)
        if was_pollable and tracked.is_terminal:
            self._announce_end(app, tracked, message.job)
        if tracked.needs_mfa and not tracked.mfa_offered:
            self._offer_mfa(tracked)

    def on_job_poll_failed(self, message: JobPollFailed) -> None:
        tracked = self._tracked_for(message)
        if tracked is None:
            return
        tracker = self.job_tracker
        error = message.error
        now = self._host.now()
        if isinstance(error, JobNotFoundError):
            # Typically a job kept from an earlier run of the embedded sandbox:
            # mark it once and never ask again; no toast for old history.
            log.info("job %s is unknown to the service; marked gone", tracked.key)
            tracker.mark_gone(tracked, now)
            return
        error_key = error.code or type(error).__name__
        if tracker.record_failure(tracked, error_key, error.title, error.code, now):
            self._host.report_error(error)

    def on_job_poll_round_finished(self, message: JobPollRoundFinished) -> None:
        if message.round_id != self._poll_round_id:
            return
        self._poll_worker = None
        if self._job_tracker is not None:
            self._job_tracker.save()
        self._publish_jobs()
        self._arm_poll()

    @staticmethod
    def _announce_end(app: App[Any], tracked: TrackedJob, job: Job) -> None:
        what = f"{tracked.kind.replace('_', ' ')} for {tracked.user_id}"
        if tracked.status == "completed":
            app.notify(f"{what.capitalize()} completed.", title="Job completed", markup=False)
            return
        code = job.error.code if job.error and job.error.code else "no code"
        reason = job.error.message if job.error and job.error.message else "no reason given"
        app.notify(
            f"{what.capitalize()} failed: {reason}",
            title=f"Job failed · {code}",
            severity="error",
            markup=False,
        )

    # -- helpers ---------------------------------------------------------

    @property
    def _host(self) -> JobsHost:
        return cast(JobsHost, self)

    def _publish_jobs(self) -> None:
        if self._job_tracker is not None:
            self.jobs_changed_signal.publish(self._job_tracker)
