"""Live polling of tracked jobs: an object with explicit states, not a mixin on the app.

Like dolphie's worker manager, :class:`JobPoller` owns its timer and its
polls and knows what state it is in:

- ``STOPPED``: not signed in; nothing runs.
- ``LIVE``: a one-shot timer ticks every ``interval``; a tick starts a round
  over every due job that has none in flight, at most ``concurrency`` polls
  at once (the per-service bound): each poll that ends starts the next of
  the round, so a round of 1,000 jobs takes as long as the service needs,
  not 125 ticks. The tick only then re-arms, so ticks never pile up. Polls
  run concurrently, each bounded by the client's whole-request deadline, so
  one slow job never stalls the others; a job never has two polls in flight.
- Many jobs share a rate: at most ``max_rate`` polls a second on average.
  Past ``max_rate * interval`` jobs each job is polled every
  ``jobs / max_rate`` seconds (its *period*), and a job reads stale when
  its answer is ``stale_after`` older than that period says it should be.
  Then a tick starts at most ``max_rate * interval`` polls and the round
  goes on at the next tick: the polls are spread over the period, not
  sent in a burst that holds the UI's loop for seconds (keys waited).
  A job whose last answer changed nothing is then polled
  every ``QUIET_SPACING`` periods (1,000 unchanged jobs: every 50 s, about
  20 polls a second rather than 40, each ~0.75 ms of CPU) and reads stale
  only past that gap; its first change brings it back to one period.
- ``PAUSED``: the user paused polling; nothing new starts.

``held`` (a modal dialog is open; counted, as dialogs stack) is orthogonal:
while held, ticks start nothing; the MFA dialog re-reads its own job.

Not polled: finished jobs, jobs the service no longer knows (``AC-109``,
"gone"), jobs in backoff after errors (1 s doubling to 30 s, the client's
backoff function), and jobs tracked longer than ``give_up_after`` without
finishing ("given up": ``poll_now(force=True)`` revives them). Each distinct
error of a job is reported once; repeats only keep its row stale (and the
desk reports a failed connection once an outage, not once a job).

Scheduling goes through a :class:`Scheduler`, so the core runs on asyncio in
its tests and on Textual timers and plain tasks in the app.
"""

from __future__ import annotations

import datetime as dt
import logging
import math
import time
from collections import deque
from collections.abc import Awaitable, Callable
from enum import StrEnum
from typing import TYPE_CHECKING, Protocol

from accountdesk.core.jobs.scheduler import AsyncioScheduler, Cancellable, Scheduler
from accountdesk.core.jobs.tracker import JobTracker, TrackedJob

if TYPE_CHECKING:
    from accountdesk.client import AccountDataClient, AccountDataError, Job

__all__ = [
    "AsyncioScheduler",
    "Cancellable",
    "JobPoller",
    "PollerListener",
    "PollerState",
    "Scheduler",
]

log = logging.getLogger(__name__)

#: Seconds between ticks.
DEFAULT_INTERVAL = 1.0
#: Polls in flight at once, across all jobs.
DEFAULT_CONCURRENCY = 8
#: A job unfinished this long after it was tracked is no longer polled (docs/developer/architecture.md, "Polling").
DEFAULT_GIVE_UP_AFTER = dt.timedelta(minutes=30)
#: A pollable job whose last answer is older than this reads "stale" (plus its period).
DEFAULT_STALE_AFTER = dt.timedelta(seconds=15)
#: Polls a second, on average, at most: 1,000 jobs are each polled every 25 s.
DEFAULT_MAX_RATE = 40.0
#: Seconds between two saves of what polls changed (the first change is saved at once).
SAVE_EVERY = 5.0
#: Unchanged answers in a row after which a job of many is polled every QUIET_SPACING periods.
QUIET_AFTER = 1
QUIET_SPACING = 2.0
BACKOFF_BASE = 1.0
BACKOFF_CAP = 30.0


class PollerListener(Protocol):
    """What the poller tells its owner (the desk)."""

    def jobs_changed(self) -> None: ...

    def job_finished(self, tracked: TrackedJob) -> None: ...

    def job_needs_mfa(self, tracked: TrackedJob) -> None: ...

    def job_given_up(self, tracked: TrackedJob) -> None: ...

    def poll_failed(self, tracked: TrackedJob, error: AccountDataError) -> None: ...


class PollerState(StrEnum):
    STOPPED = "stopped"
    LIVE = "live"
    PAUSED = "paused"


class JobPoller:
    """Polls the unfinished jobs of a :class:`JobTracker` (see the module docstring)."""

    def __init__(
        self,
        tracker: JobTracker,
        scheduler: Scheduler,
        listener: PollerListener,
        clock: Callable[[], dt.datetime],
        *,
        interval: float = DEFAULT_INTERVAL,
        concurrency: int = DEFAULT_CONCURRENCY,
        give_up_after: dt.timedelta = DEFAULT_GIVE_UP_AFTER,
        stale_after: dt.timedelta = DEFAULT_STALE_AFTER,
        max_rate: float = DEFAULT_MAX_RATE,
    ) -> None:
        self.tracker = tracker
        self.scheduler = scheduler
        self.listener = listener
        self.clock = clock
        self.interval = interval
        self.concurrency = max(1, concurrency)
        self.give_up_after = give_up_after
        self.stale_after = stale_after
        self.max_rate = max(max_rate, 0.001)
        #: Seconds between two polls of one job (see the module docstring); set each tick.
        self.period = interval
        self._round: deque[TrackedJob] = deque()
        self._saved_at = -SAVE_EVERY
        #: Polls this tick may still start (None: no limit, few jobs).
        self._budget: int | None = None
        self.state = PollerState.STOPPED
        self._holds = 0
        self._client: AccountDataClient | None = None
        self._timer: Cancellable | None = None
        self._in_flight: dict[str, Cancellable] = {}
        # Bumped on stop: answers of polls started before are dropped.
        self._generation = 0

    # -- transitions -------------------------------------------------------

    def start(self, client: AccountDataClient) -> None:
        """STOPPED -> LIVE (sign-in)."""
        self._client = client
        self.state = PollerState.LIVE
        self._arm()

    def stop(self) -> None:
        """Any -> STOPPED (sign-out, quit): cancel the timer and every poll in flight."""
        self.state = PollerState.STOPPED
        self._client = None
        self._generation += 1
        self._disarm()
        for work in self._in_flight.values():
            work.cancel()
        self._in_flight.clear()
        self._round.clear()
        for job in self.tracker.jobs:
            job.in_flight_since = None

    def pause(self) -> None:
        if self.state is PollerState.LIVE:
            self.state = PollerState.PAUSED
            self._disarm()
            self.listener.jobs_changed()

    def resume(self) -> None:
        if self.state is PollerState.PAUSED:
            self.state = PollerState.LIVE
            self._arm()
            self.listener.jobs_changed()

    @property
    def held(self) -> bool:
        return self._holds > 0

    def hold(self) -> None:
        """A modal dialog opened: start nothing until it is released."""
        self._holds += 1

    def release(self) -> None:
        self._holds = max(0, self._holds - 1)
        if not self._holds and self.state is PollerState.LIVE:
            self._arm()  # a full interval from now: the dialog read its own job

    # -- what the UI shows ----------------------------------------------------

    @property
    def in_flight(self) -> int:
        return len(self._in_flight)

    def is_stale(self, job: TrackedJob, now: dt.datetime) -> bool:
        """The row shows what we knew before: the last poll failed, or no answer came for a while."""
        if not job.is_pollable:
            return False
        if job.failing:
            return True
        if job.in_flight_since is not None and now - job.in_flight_since > self.stale_after:
            return True
        if self.state is PollerState.LIVE and not self.held:
            seen = job.last_poll_at or job.tracked_at
            return seen is not None and now - seen > self._stale_limit(job)
        return False

    def _stale_limit(self, job: TrackedJob) -> dt.timedelta:
        if self.period <= self.interval:
            return self.stale_after
        # Many jobs: an answer is as old as its gap by design; stale is overdue.
        return self.stale_after + dt.timedelta(seconds=self._gap(job))

    def _gap(self, job: TrackedJob) -> float:
        """Seconds between two polls of ``job`` while many jobs share the rate."""
        return self.period * (QUIET_SPACING if job.quiet >= QUIET_AFTER else 1.0)

    def stale_count(self, now: dt.datetime) -> int:
        return sum(1 for job in self.tracker.pollable() if self.is_stale(job, now))

    # -- polling --------------------------------------------------------------

    def poll_now(self, *, force: bool = False) -> int:
        """Start polls now; how many started.

        Without ``force`` it respects pause, hold and backoff (what a tick
        does); ``force`` (the jobs screen's ``r``) polls every unfinished job
        at once, given-up ones included.
        """
        if self._client is None:
            return 0
        if force:
            for job in self.tracker.jobs:
                if job.given_up and not job.is_terminal and not job.gone:
                    self.tracker.revive(job, self.clock())
                job.next_poll_at = None
            return self._launch(self.tracker.due(self.clock()), limit=None)
        if self.state is not PollerState.LIVE or self.held:
            return 0
        if not self._round:
            self._round = deque(self.tracker.due(self.clock()))
        return self._next_of_round()

    def _next_of_round(self) -> int:
        """Start the round's next polls, up to the bound; how many started."""
        room = self.concurrency - len(self._in_flight)
        if self._budget is not None:
            room = min(room, self._budget)
        ready: list[TrackedJob] = []
        while self._round and len(ready) < room:
            job = self._round.popleft()
            # Finished, gone or polled by force since the round began: skipped.
            if job.key not in self._in_flight and (job.is_pollable or job.legacy):
                ready.append(job)
        if self._budget is not None:
            self._budget -= len(ready)
        return self._launch(ready, limit=None) if ready else 0

    def _arm(self) -> None:
        self._disarm()
        if self.state is PollerState.LIVE:
            self._timer = self.scheduler.call_later(max(self.interval, 0.01), self._tick)

    def _disarm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _tick(self) -> None:
        self._timer = None
        if self.state is not PollerState.LIVE:
            return
        self._give_up_overdue()
        self.period = max(self.interval, len(self.tracker.pollable()) / self.max_rate)
        spread = self.period > self.interval
        self._budget = math.ceil(self.max_rate * self.interval) if spread else None
        self.poll_now()
        self._save_now_and_then()
        self._arm()

    def _save_now_and_then(self) -> None:
        """Save what the polls changed: at once, then at most every ``SAVE_EVERY`` seconds.

        Each save reads, merges and writes the whole file under its lock
        (a thousand jobs: tens of ms on the UI's loop); while jobs change
        every tick, one save per tick held every key. What is not saved yet
        is saved by a later tick, or at sign-out and quit (the desk's
        ``stop_polling``); a crash loses at most that many seconds of
        statuses, which the next polls learn again.
        """
        if not self.tracker.unsaved:
            return
        now = time.monotonic()
        if now - self._saved_at >= SAVE_EVERY:
            self._saved_at = now
            self.tracker.save()

    def _give_up_overdue(self) -> None:
        now = self.clock()
        for job in self.tracker.pollable():
            if job.in_flight_since is None and now - job.age_from > self.give_up_after:
                self.tracker.give_up(job)
                log.info(
                    "job %s unfinished after %s; no longer polled", job.key, self.give_up_after
                )
                self.listener.job_given_up(job)

    def _launch(self, jobs: list[TrackedJob], limit: int | None) -> int:
        client = self._client
        assert client is not None
        room = len(jobs) if limit is None else max(0, limit - len(self._in_flight))
        started = 0
        now = self.clock()
        for job in jobs[:room]:
            job.in_flight_since = now
            generation = self._generation

            def work(job: TrackedJob = job, generation: int = generation) -> Awaitable[None]:
                return self._poll(client, job, generation)

            self._in_flight[job.key] = self.scheduler.spawn(work, name=f"poll {job.key}")
            started += 1
        return started

    async def _poll(self, client: AccountDataClient, job: TrackedJob, generation: int) -> None:
        from accountdesk.client import AccountDataError

        outcome: Job | AccountDataError
        try:
            outcome = await client.get_job(job.user_id, job.job_id)
        except AccountDataError as error:
            outcome = error
        finally:
            started = job.in_flight_since
            if generation == self._generation:
                self._in_flight.pop(job.key, None)
                job.in_flight_since = None
        if generation != self._generation:
            return  # stopped (or signed out) meanwhile: the answer belongs to no session
        if isinstance(outcome, AccountDataError):
            self._failed(job, outcome)
        else:
            self._answered(job, outcome)
            if self.period > self.interval and started is not None and job.is_pollable:
                # Its share of the rate: due again one gap after this poll began.
                job.next_poll_at = started + dt.timedelta(seconds=self._gap(job))
        if self.state is PollerState.LIVE and not self.held:
            self._next_of_round()

    def _answered(self, tracked: TrackedJob, job: Job) -> None:
        if tracked.legacy:  # an earlier version's job, and this key may see it: ours now
            self.tracker.take_over(tracked)
            tracked.mfa_offered = False
        was_pollable = tracked.is_pollable
        changed = self.tracker.record_poll(tracked, job, self.clock())
        tracked.quiet = 0 if changed else tracked.quiet + 1
        if was_pollable and tracked.is_terminal:
            self.listener.job_finished(tracked)
        if tracked.needs_mfa and not tracked.mfa_offered:
            self.listener.job_needs_mfa(tracked)
        if changed:
            self.listener.jobs_changed()

    def _failed(self, tracked: TrackedJob, error: AccountDataError) -> None:
        from accountdesk.client import JobNotFoundError, exponential_backoff

        now = self.clock()
        tracked.quiet = 0
        message = getattr(error, "message", None) or error.detail
        if tracked.legacy and self._not_this_keys(tracked, error, now, message):
            return
        if isinstance(error, JobNotFoundError):
            # Typically a job kept from an earlier run of the embedded sandbox:
            # marked once and never asked for again; no toast for old history.
            log.info("job %s is unknown to the service; marked gone", tracked.key)
            self.tracker.mark_gone(tracked, error.code, message, now)
            self.listener.jobs_changed()
            return
        delay = exponential_backoff(tracked.failures + 1, base=BACKOFF_BASE, cap=BACKOFF_CAP)
        key = error.code or type(error).__name__
        first = self.tracker.record_failure(tracked, key, error.code, message, now, delay)
        # An earlier version's job is not one the user started here: no toast.
        if first and not tracked.legacy:
            self.listener.poll_failed(tracked, error)
        self.listener.jobs_changed()

    def _not_this_keys(
        self, tracked: TrackedJob, error: AccountDataError, now: dt.datetime, message: str
    ) -> bool:
        """An earlier version's job the service did not give this key; False: try again later.

        The service answered with a code: the job is another key's (or gone
        for all on a service that is new every run, the embedded sandbox).
        No answer at all says nothing about whose it is.
        """
        from accountdesk.client import JobNotFoundError, MalformedResponseError, TransportError

        if isinstance(error, TransportError | MalformedResponseError):
            return False
        if isinstance(error, JobNotFoundError) and self.tracker.unknown_means_gone:
            self.tracker.take_over(tracked)
            self.tracker.mark_gone(tracked, error.code, message, now)
        else:
            log.info("job %s of an earlier version is not this key's (%s)", tracked.key, error.code)
            self.tracker.not_ours(tracked)
        self.listener.jobs_changed()
        return True
