"""Every job started in this app, per service and API key, kept across runs.

:class:`JobTracker` holds one :class:`TrackedJob` per job started here with
one API key on one service (``service_key``: ``"sandbox"`` or the live base
URL), in that key's own ``jobs.json`` (``AppDirs.state_dir``)::

    {"version": 1, "api_key": "trainee_alice", "services": {"sandbox": [{job record}, ...]}}

So a job is only ever polled with the token of the key that started it: on
a training room, another trainee's job is unknown to this key (``AC-109``),
and polling it would have marked it gone and lost it.

Saving goes through the store's locked read-modify-write and *merges*: our
changed and removed jobs are applied to what is on disk now, jobs another
process (the same key in another window) added are adopted. So two apps on
one data dir never lose each other's jobs. A record we cannot read is
skipped (and logged); a file that is not a jobs document is set aside by the
store. No secret is stored: ids, kind, status, times, the last error.

The jobs an earlier version kept for the service, for any key
(``earlier_path``), are shown apart (``TrackedJob.legacy``) until a poll with
this key succeeds, which takes the job over (:mod:`.earlier_files`).
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from accountdesk.contract import JobStatus
from accountdesk.core.jobs.learnt_blocks import learn_block, overrule_blocks, shows_no_block
from accountdesk.core.jobs.tracked_job import (
    FILE_VERSION,
    TrackedJob,
    aware,
    empty_jobs,
    job_key,
    jobs_document,
    parse_kind,
    parse_status,
    service_records,
)
from accountdesk.core.settings.earlier_files import earlier_job_records, forget_earlier_jobs
from accountdesk.core.store import Store

if TYPE_CHECKING:
    from accountdesk.client import Job
    from accountdesk.core.jobs.sandbox_instance import SandboxLocks

__all__ = [
    "MAX_JOBS_PER_SERVICE",
    "JobTracker",
    "TrackedJob",
    "job_key",
    "parse_kind",
    "parse_status",
]

log = logging.getLogger(__name__)

#: Oldest finished jobs beyond this many per service and key are forgotten.
MAX_JOBS_PER_SERVICE = 200


class JobTracker:
    """The jobs of one service, persisted through a :class:`Store` in ``path``."""

    def __init__(
        self,
        store: Store,
        path: Path | None,
        service_key: str,
        *,
        api_key: str = "",
        earlier_path: Path | None = None,
        unknown_means_gone: bool = False,
        sandboxes: SandboxLocks | None = None,
    ) -> None:
        """``path`` None: nothing is read or written (not signed in yet).

        ``earlier_path``: an earlier version's file, whose jobs of this service
        are offered to this key; ``unknown_means_gone``: the service is new on
        every run (the embedded sandbox), so such a job it does not know is
        gone for every key, not someone else's; ``sandboxes``: which embedded
        sandbox runs here (jobs started are stamped with it) and whether
        another's still runs (its jobs are another window's: not polled here).
        """
        self.store = store
        self.path = path
        self.service_key = service_key
        self.api_key = api_key
        self.earlier_path = earlier_path
        self.unknown_means_gone = unknown_means_gone
        self.sandboxes = sandboxes
        #: Seconds the service's clock is ahead of ours now (a moved sandbox's);
        #: the desk keeps it current (:meth:`follow_clock`).
        self.clock_offset = 0.0
        self._jobs: dict[str, TrackedJob] = {}
        self._changed: set[str] = set()
        self._removed: set[str] = set()
        #: Jobs of an earlier version's file, not taken by any key yet.
        self._legacy: dict[str, TrackedJob] = {}
        #: ... of those, the ones this key asked for and the service did not give it.
        self._not_ours: set[str] = set()
        #: ... and the ones taken or cleared, still to be removed from that file.
        self._legacy_done: set[str] = set()

    # -- reading ---------------------------------------------------------

    @property
    def jobs(self) -> list[TrackedJob]:
        """This key's jobs, newest first (the later tracked first among equal times), then
        those of an earlier version not taken yet (shown apart)."""
        return _newest_first(list(self._jobs.values())) + _newest_first(list(self._legacy.values()))

    def get(self, key: str) -> TrackedJob | None:
        return self._jobs.get(key) or self._legacy.get(key)

    def __len__(self) -> int:
        return len(self._jobs) + len(self._legacy)

    def due(self, now: dt.datetime) -> list[TrackedJob]:
        """Jobs to poll: pollable, not in flight, whose backoff has run out.

        Least recently polled first (never polled before all): when more are
        due than may be in flight, the ones left out go first next time.
        Every job of an earlier version is asked for once per session (finished
        or not: that is how it finds its key), this key's own first.
        """

        def ready(job: TrackedJob) -> bool:
            return job.in_flight_since is None and (
                job.next_poll_at is None or job.next_poll_at <= now
            )

        self._look_elsewhere()
        never = dt.datetime.min.replace(tzinfo=dt.UTC)
        own = [job for job in self._jobs.values() if job.is_pollable and ready(job)]
        legacy = [
            job for key, job in self._legacy.items() if key not in self._not_ours and ready(job)
        ]
        return sorted(own, key=lambda job: (job.last_poll_at or never, job.created_at)) + legacy

    def pollable(self) -> list[TrackedJob]:
        """This key's unfinished jobs (an earlier version's are nobody's yet)."""
        self._look_elsewhere()
        return [job for job in self._jobs.values() if job.is_pollable]

    @property
    def unsaved(self) -> bool:
        return bool(self._changed or self._removed or self._legacy_done)

    # -- changes ---------------------------------------------------------

    def track(self, job: Job, user_id: str, now: dt.datetime) -> TrackedJob:
        """Start tracking ``job`` (or refresh it if already tracked)."""
        key = job_key(user_id, job.job_id)
        tracked = self._jobs.get(key)
        if tracked is None:
            tracked = TrackedJob(
                user_id=user_id,
                job_id=job.job_id,
                kind=parse_kind(job.kind),
                status=parse_status(job.status),
                created_at=aware(job.created_at) or now,
                tracked_at=now,
                sandbox=self.sandboxes.current if self.sandboxes is not None else None,
            )
            self._jobs[key] = tracked
            self._removed.discard(key)
        self.record_poll(tracked, job, now, polled=False)
        return tracked

    def record_poll(
        self, tracked: TrackedJob, job: Job, now: dt.datetime, *, polled: bool = True
    ) -> bool:
        """Store a fresh state of ``tracked``; True when something a person sees changed."""
        before = tracked.to_record()
        was_failing = tracked.failing
        previous_status = tracked.status
        tracked.status = parse_status(job.status)
        if job.kind:
            tracked.kind = parse_kind(job.kind)
        if polled:
            tracked.last_poll_at = now
        # It answered on the clock this session follows: its age is on it.
        tracked.clock_offset, tracked.live_clock = self.clock_offset, True
        tracked.failures = 0
        tracked.next_poll_at = None
        tracked.failing = False
        tracked.gone = False
        tracked.mfa = job.mfa if job.needs_mfa else None
        error = job.error
        if error is not None and (error.code or error.message):
            tracked.last_error_code = error.code
            tracked.last_error_message = error.message
            learn_block(tracked, aware(getattr(error, "blocked_until", None)))
        elif not job.is_terminal:
            tracked.last_error_code = tracked.last_error_message = None
            learn_block(tracked, None)
        if shows_no_block(job, previous_status, started=not polled):
            self._changed.update(overrule_blocks(self.jobs, tracked.user_id))
        if (
            previous_status is JobStatus.MFA_REQUIRED
            and tracked.status is not JobStatus.MFA_REQUIRED
        ):
            tracked.mfa_offered = False  # a later challenge on the same job is offered again
        after = tracked.to_record()
        # last_poll_at alone changes every second: not worth a write or a redraw.
        meaningful = {k: v for k, v in after.items() if k != "last_poll_at"} != {
            k: v for k, v in before.items() if k != "last_poll_at"
        }
        if meaningful or not polled:
            self._changed.add(tracked.key)
        return meaningful or was_failing or not polled

    def record_failure(
        self,
        tracked: TrackedJob,
        error_key: str,
        code: str | None,
        message: str,
        now: dt.datetime,
        delay: float,
    ) -> bool:
        """Note a failed poll and back off ``delay`` seconds; True when this error is new for the job.

        The caller shows a toast only for new errors: a job that keeps
        failing the same way is marked stale instead of repeating the toast.
        """
        tracked.failures += 1
        tracked.last_poll_at = now  # "last poll" is the last attempt; the row says stale
        tracked.next_poll_at = now + dt.timedelta(seconds=delay)
        tracked.failing = True
        tracked.last_error_code = code
        tracked.last_error_message = message
        first = error_key not in tracked.reported_errors
        tracked.reported_errors.add(error_key)
        return first

    def mark_gone(self, tracked: TrackedJob, code: str, message: str, now: dt.datetime) -> None:
        """The service does not know this job: stop polling it for good.

        Its clock stays where it was last seen: a sandbox that no longer knows
        it (restarted, or the embedded one of an earlier run) runs another clock.
        """
        tracked.live_clock = False
        tracked.gone = True
        tracked.failing = False
        tracked.last_poll_at = now
        tracked.last_error_code = code
        tracked.last_error_message = message
        self._changed.add(tracked.key)

    def give_up(self, tracked: TrackedJob) -> None:
        tracked.given_up = True
        self._changed.add(tracked.key)

    def revive(self, tracked: TrackedJob, now: dt.datetime) -> None:
        """Poll a given-up job again (the user asked); the give-up limit counts from ``now``."""
        if tracked.given_up:
            tracked.given_up = False
            tracked.tracked_at = now
            self._changed.add(tracked.key)

    def forget(self, keys: Iterable[str]) -> int:
        """Stop tracking ``keys`` (clearing finished jobs); how many were removed."""
        removed = 0
        for key in keys:
            if self._jobs.pop(key, None) is not None:
                self._changed.discard(key)
                self._removed.add(key)
                removed += 1
            elif self._legacy.pop(key, None) is not None:
                self._legacy_done.add(key)
                removed += 1
        return removed

    def follow_clock(self, offset: float) -> bool:
        """The service's clock is now ``offset`` seconds ahead of ours; True if a job moved.

        The jobs on the clock this session follows move with it; the others
        (an earlier run's, a gone one's) keep the clock they were last seen on.
        """
        self.clock_offset = offset
        moved = False
        for job in self._jobs.values():
            if job.live_clock and job.clock_offset != offset:
                job.clock_offset = offset
                self._changed.add(job.key)
                moved = True
        return moved

    # -- an earlier version's jobs ------------------------------------------

    def take_over(self, tracked: TrackedJob) -> None:
        """A job of an earlier version answered this key's poll: it is this key's now."""
        if self._legacy.pop(tracked.key, None) is None:
            return
        tracked.legacy = False
        self._jobs[tracked.key] = tracked
        self._changed.add(tracked.key)
        self._legacy_done.add(tracked.key)
        log.info("job %s of an earlier version taken over by this key", tracked.key)

    def not_ours(self, tracked: TrackedJob) -> None:
        """The service did not give this key that job: leave it for the others, ask no more."""
        self._not_ours.add(tracked.key)

    # -- the file --------------------------------------------------------

    def load(self) -> None:
        """Read this key's jobs (and an earlier version's); a missing file is empty."""
        self._jobs = {}
        self._changed.clear()
        self._removed.clear()
        self._legacy = {}
        self._legacy_done.clear()
        if self.path is not None:
            document = self.store.read_json(self.path, jobs_document, empty_jobs)
            for tracked in self._parse(reversed(service_records(document, self.service_key))):
                self._jobs[tracked.key] = tracked
        if self.earlier_path is not None:
            records = earlier_job_records(self.store, self.earlier_path, self.service_key)
            for tracked in self._parse(reversed(records)):
                if tracked.key not in self._jobs:  # taken before a crash removed it there
                    tracked.legacy = True
                    self._legacy[tracked.key] = tracked

    def save(self) -> bool:
        """Merge our changes into the file under its lock (see the module docstring)."""
        if not self._save_own():
            return False  # kept as unsaved: the next save tries again
        done = set(self._legacy_done)
        # Only once the key's own file has them: never in neither file.
        if (
            done
            and self.earlier_path is not None
            and not forget_earlier_jobs(self.store, self.earlier_path, self.service_key, done)
        ):
            return False
        self._legacy_done -= done
        return True

    def _save_own(self) -> bool:
        if self.path is None:
            self._changed.clear()
            self._removed.clear()
            return True
        changed = {key: self._jobs[key].to_record() for key in self._changed if key in self._jobs}
        removed = set(self._removed)

        def merge(document: dict[str, Any]) -> dict[str, Any]:
            # Oldest tracked first, as in memory; the file lists newest first.
            records: dict[str, Any] = {}
            for tracked in self._parse(reversed(service_records(document, self.service_key))):
                records[tracked.key] = tracked.to_record()
            for key in removed:
                records.pop(key, None)
            records.update(changed)
            kept = _prune([TrackedJob.from_record(record) for record in records.values()])
            newest_first = _newest_first(kept)
            services = dict(document["services"])
            services[self.service_key] = [job.to_record() for job in newest_first]
            return {"version": FILE_VERSION, "api_key": self.api_key, "services": services}

        result = self.store.update_json(self.path, merge, jobs_document, empty_jobs)
        if result is None:
            return False
        self._changed -= set(changed)
        self._removed -= removed
        on_disk = {
            t.key: t for t in self._parse(reversed(service_records(result, self.service_key)))
        }
        for key, tracked in on_disk.items():
            mine = self._jobs.get(key)
            if mine is None:
                self._jobs[key] = tracked  # another app's new job: ours too now
            elif mine.elsewhere and key not in self._changed:
                tracked.elsewhere = True  # polled by the other window: as it last saved it
                self._jobs[key] = tracked
            self._legacy.pop(key, None)  # ... taken over there
        for key in [key for key in self._jobs if key not in on_disk and key not in self._changed]:
            del self._jobs[key]  # pruned, or cleared by another app
        return True

    def _look_elsewhere(self) -> None:
        # Another window's embedded sandbox that still runs polls its own jobs.
        if self.sandboxes is not None and self.unknown_means_gone:
            self.sandboxes.mark_elsewhere(self._jobs.values())

    def _parse(self, records: Iterable[Any]) -> list[TrackedJob]:
        parsed = []
        for record in records:
            try:
                parsed.append(TrackedJob.from_record(record))
            except (KeyError, TypeError, ValueError) as error:
                log.warning("skipping a bad job record in %s: %s", self.path, error)
        return parsed


def _newest_first(tracked_in_order: list[TrackedJob]) -> list[TrackedJob]:
    """Newest first; among equal times, the later tracked first."""
    ranked = sorted(
        enumerate(tracked_in_order), key=lambda pair: (pair[1].created_at, pair[0]), reverse=True
    )
    return [job for _, job in ranked]


def _prune(jobs: list[TrackedJob]) -> list[TrackedJob]:
    if len(jobs) <= MAX_JOBS_PER_SERVICE:
        return jobs
    finished = sorted((job for job in jobs if not job.is_pollable), key=lambda job: job.created_at)
    drop = {job.key for job in finished[: len(jobs) - MAX_JOBS_PER_SERVICE]}
    return [job for job in jobs if job.key not in drop]
