"""Every job started in this app: the tracker and its file.

:class:`JobTracker` knows nothing of Textual. It keeps one :class:`TrackedJob`
per job started here, per service (``base_url_key``), in ``jobs.json`` under the
app's data dir, written atomically (temporary file + ``os.replace``). A corrupt
file is moved aside to ``jobs.json.bak`` and the tracker starts empty; a bad
file must never stop the dashboard from starting. No secret is ever stored: a
job record holds ids, kind, status, times and the last error's code and title.

Live polling, which drives the tracker, is :class:`~accountdesk.tui.poller.JobsMixin`.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from accountdesk.client.models import TERMINAL_STATUSES, Job, MfaChallenge

__all__ = [
    "GONE_CODE",
    "JobTracker",
    "TrackedJob",
    "backoff_delay",
]

log = logging.getLogger(__name__)

JOBS_FILE = "jobs.json"
FILE_VERSION = 1
#: Oldest finished jobs beyond this many per service are forgotten.
MAX_JOBS_PER_SERVICE = 200
#: The code the service answers for a job it does not know (contract 7.1).
GONE_CODE = "AC-109"

BACKOFF_BASE = 1.0
BACKOFF_CAP = 30.0


def backoff_delay(failures: int, base: float = BACKOFF_BASE, cap: float = BACKOFF_CAP) -> float:
    """Seconds to wait before the next poll after ``failures`` failed polls in a row."""
    if failures <= 0:
        return 0.0
    return min(base * 2 ** (failures - 1), cap)


def job_key(user_id: str, job_id: str) -> str:
    """A job is identified by its user and its id (ids need not be unique across users)."""
    return f"{user_id}/{job_id}"


@dataclass
class TrackedJob:
    """One job started in this app, as last seen.

    The first block of fields is persisted; the rest is runtime state of the
    poller (backoff, which errors were already shown, the MFA challenge).
    """

    user_id: str
    job_id: str
    kind: str
    status: str
    created_at: dt.datetime
    #: When this app started tracking the job, on the app's clock: ages count from it, as
    #: ``created_at`` is on the service's clock (skewed, or a sandbox moved ahead). None in
    #: records saved before it existed.
    tracked_at: dt.datetime | None = None
    last_poll_at: dt.datetime | None = None
    last_error_code: str | None = None
    last_error_title: str | None = None
    stale: bool = False
    gone: bool = False

    failures: int = field(default=0, repr=False)
    next_poll_at: dt.datetime | None = field(default=None, repr=False)
    reported_errors: set[str] = field(default_factory=set, repr=False)
    mfa: MfaChallenge | None = field(default=None, repr=False)
    mfa_offered: bool = field(default=False, repr=False)

    PERSISTED = (
        "user_id",
        "job_id",
        "kind",
        "status",
        "created_at",
        "tracked_at",
        "last_poll_at",
        "last_error_code",
        "last_error_title",
        "stale",
        "gone",
    )

    @property
    def key(self) -> str:
        return job_key(self.user_id, self.job_id)

    @property
    def is_terminal(self) -> bool:
        return self.status in TERMINAL_STATUSES

    @property
    def needs_mfa(self) -> bool:
        return self.status == "mfa_required" and not self.gone

    @property
    def is_pollable(self) -> bool:
        """Polling stops for finished jobs and for jobs the service no longer knows."""
        return not self.is_terminal and not self.gone

    @property
    def age_from(self) -> dt.datetime:
        """The instant the job's age counts from (on the app's clock when known)."""
        return self.tracked_at or self.created_at

    @property
    def note(self) -> str:
        """Short text for the jobs table's note column."""
        if self.gone:
            # Short: the column must not cut it; the details line explains it.
            return f"gone ({GONE_CODE})"
        parts = []
        if self.stale:
            parts.append("stale")
        if self.last_error_code or self.last_error_title:
            parts.append(self.last_error_code or self.last_error_title or "")
        return " · ".join(parts)

    def to_dict(self) -> dict[str, Any]:
        record: dict[str, Any] = {}
        for name in self.PERSISTED:
            value = getattr(self, name)
            record[name] = value.isoformat() if isinstance(value, dt.datetime) else value
        return record

    @classmethod
    def from_dict(cls, record: dict[str, Any]) -> TrackedJob:
        """Rebuild a job from ``jobs.json``; raises ``ValueError``/``TypeError``/``KeyError`` if bad."""
        last_poll = record.get("last_poll_at")
        tracked_at = record.get("tracked_at")
        job = cls(
            user_id=_text(record["user_id"]),
            job_id=_text(record["job_id"]),
            kind=_text(record.get("kind") or "unknown"),
            status=_text(record.get("status") or "pending"),
            created_at=_parse_time(record["created_at"]),
            tracked_at=_parse_time(tracked_at) if tracked_at else None,
            last_poll_at=_parse_time(last_poll) if last_poll else None,
            last_error_code=_optional_text(record.get("last_error_code")),
            last_error_title=_optional_text(record.get("last_error_title")),
            stale=bool(record.get("stale", False)),
            gone=bool(record.get("gone", False)),
        )
        return job


def _text(value: Any) -> str:
    if not isinstance(value, str) or not value:
        raise ValueError(f"expected a non-empty string, got {type(value).__name__}")
    return value


def _optional_text(value: Any) -> str | None:
    return value if isinstance(value, str) else None


class JobTracker:
    """Jobs of one service (``service_key``), persisted in ``path`` beside other services' jobs."""

    def __init__(self, path: Path, service_key: str) -> None:
        self.path = path
        self.service_key = service_key
        self._jobs: dict[str, TrackedJob] = {}
        # Other services' records are kept verbatim so saving never loses them.
        self._other_services: dict[str, Any] = {}

    # -- reading ---------------------------------------------------------

    @property
    def jobs(self) -> list[TrackedJob]:
        """All tracked jobs, newest first (the later tracked first among equal times)."""
        tracked_last_first = reversed(list(self._jobs.values()))
        return sorted(tracked_last_first, key=lambda job: job.created_at, reverse=True)

    def get(self, key: str) -> TrackedJob | None:
        return self._jobs.get(key)

    def __len__(self) -> int:
        return len(self._jobs)

    def due(self, now: dt.datetime) -> list[TrackedJob]:
        """Pollable jobs whose backoff (if any) has run out, oldest first."""
        due = [
            job
            for job in self._jobs.values()
            if job.is_pollable and (job.next_poll_at is None or job.next_poll_at <= now)
        ]
        return sorted(due, key=lambda job: job.created_at)

    def pollable(self) -> list[TrackedJob]:
        return [job for job in self._jobs.values() if job.is_pollable]

    # -- changes ---------------------------------------------------------

    def track(self, job: Job, user_id: str, now: dt.datetime) -> TrackedJob:
        """Start tracking ``job`` (or refresh it if already tracked)."""
        key = job_key(user_id, job.job_id)
        tracked = self._jobs.get(key)
        if tracked is None:
            tracked = TrackedJob(
                user_id=user_id,
                job_id=job.job_id,
                kind=str(job.kind or "unknown"),
                status=str(job.status),
                created_at=_aware(job.created_at) or now,
                tracked_at=now,
            )
            self._jobs[key] = tracked
        self.record_poll(tracked, job, now, polled=False)
        self._prune()
        return tracked

    def record_poll(
        self, tracked: TrackedJob, job: Job, now: dt.datetime, *, polled: bool = True
    ) -> TrackedJob:
        """Store a fresh state of ``tracked``; a success clears backoff and staleness."""
        previous_status = tracked.status
        tracked.status = str(job.status)
        if job.kind:
            tracked.kind = str(job.kind)
        if polled:
            tracked.last_poll_at = now
        tracked.failures = 0
        tracked.next_poll_at = None
        tracked.stale = False
        tracked.gone = False
        tracked.mfa = job.mfa if job.needs_mfa else None
        if job.error is not None and (job.error.code or job.error.message):
            tracked.last_error_code = job.error.code
            tracked.last_error_title = "job failed"
        elif not job.is_terminal:
            tracked.last_error_code = None
            tracked.last_error_title = None
        if previous_status == "mfa_required" and tracked.status != "mfa_required":
            # A later MFA challenge on the same job is offered again.
            tracked.mfa_offered = False
        return tracked

    def record_failure(
        self, tracked: TrackedJob, error_key: str, title: str, code: str | None, now: dt.datetime
    ) -> bool:
        """Note a failed poll, arm the backoff; True when this error is new for the job.

        The caller shows a toast only for new errors: a job that keeps failing
        the same way is marked stale instead of repeating the toast.
        """
        tracked.failures += 1
        tracked.next_poll_at = now + dt.timedelta(seconds=backoff_delay(tracked.failures))
        tracked.last_poll_at = now
        tracked.last_error_code = code
        tracked.last_error_title = title
        tracked.stale = True
        first = error_key not in tracked.reported_errors
        tracked.reported_errors.add(error_key)
        return first

    def mark_gone(self, tracked: TrackedJob, now: dt.datetime) -> None:
        """The service does not know this job (``AC-109``): stop polling it for good."""
        tracked.gone = True
        tracked.stale = True
        tracked.last_poll_at = now
        tracked.last_error_code = GONE_CODE
        tracked.last_error_title = "job not found"

    def _prune(self) -> None:
        if len(self._jobs) <= MAX_JOBS_PER_SERVICE:
            return
        finished = sorted(
            (job for job in self._jobs.values() if not job.is_pollable),
            key=lambda job: job.created_at,
        )
        for job in finished[: len(self._jobs) - MAX_JOBS_PER_SERVICE]:
            del self._jobs[job.key]

    # -- the file --------------------------------------------------------

    def load(self) -> None:
        """Read this service's jobs; a missing file is empty, a corrupt one is set aside."""
        self._jobs.clear()
        self._other_services = {}
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return
        except OSError as error:
            log.warning("cannot read %s: %s; starting with no jobs", self.path, error)
            return
        try:
            document = json.loads(text)
            if not isinstance(document, dict) or not isinstance(document.get("services"), dict):
                raise ValueError("not a jobs document")
        except ValueError as error:
            self._set_aside(f"corrupt ({error})")
            return
        services: dict[str, Any] = document["services"]
        self._other_services = {k: v for k, v in services.items() if k != self.service_key}
        records = services.get(self.service_key) or []
        if not isinstance(records, list):
            self._set_aside("records are not a list")
            return
        for record in reversed(records):  # saved newest first; tracked oldest first
            try:
                tracked = TrackedJob.from_dict(record)
            except (KeyError, TypeError, ValueError, AttributeError) as error:
                log.warning("skipping a bad job record in %s: %s", self.path, error)
                continue
            self._jobs[tracked.key] = tracked

    def save(self) -> None:
        """Write every service's jobs atomically; failures are logged, never raised.

        The file is read again first: another accountdesk on the same data
        dir may have saved since we loaded, and a blind write would drop the
        jobs it tracked (ours win where both know a job).
        """
        services = self._services_on_disk()
        records = services.get(self.service_key)
        for record in records if isinstance(records, list) else []:
            try:
                tracked = TrackedJob.from_dict(record)
            except (KeyError, TypeError, ValueError, AttributeError):
                continue
            self._jobs.setdefault(tracked.key, tracked)
        self._prune()
        services[self.service_key] = [job.to_dict() for job in self.jobs]
        document = {"version": FILE_VERSION, "services": services}
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            handle, temporary = tempfile.mkstemp(
                dir=self.path.parent, prefix=".jobs-", suffix=".tmp"
            )
            try:
                with os.fdopen(handle, "w", encoding="utf-8") as stream:
                    json.dump(document, stream, indent=1)
                os.replace(temporary, self.path)
            except BaseException:
                Path(temporary).unlink(missing_ok=True)
                raise
        except OSError as error:
            log.warning("cannot save jobs to %s: %s", self.path, error)

    def _services_on_disk(self) -> dict[str, Any]:
        """The file's services table as it is now, or what we loaded if it is unreadable."""
        try:
            document = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return dict(self._other_services)
        services = document.get("services") if isinstance(document, dict) else None
        return dict(services) if isinstance(services, dict) else dict(self._other_services)

    def _set_aside(self, reason: str) -> None:
        backup = self.path.with_name(self.path.name + ".bak")
        log.warning("%s is %s; moved to %s, starting with no jobs", self.path, reason, backup)
        try:
            os.replace(self.path, backup)
        except OSError as error:
            log.warning("cannot move %s aside: %s", self.path, error)


def _parse_time(text: Any) -> dt.datetime:
    if not isinstance(text, str):
        raise TypeError("a time must be an ISO-8601 string")
    moment = dt.datetime.fromisoformat(text)
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=dt.UTC)


def _aware(moment: dt.datetime | None) -> dt.datetime | None:
    """Ages are computed against an aware clock; treat naive times as UTC."""
    if moment is None:
        return None
    if moment.tzinfo is None:
        return moment.replace(tzinfo=dt.UTC)
    return moment


def describe_age(moment: dt.datetime | None, now: dt.datetime) -> str:
    """``"12s"``, ``"4m 05s"``, ``"3h 02m"``, ``"2d"`` ago, or ``"—"``."""
    if moment is None:
        return "—"
    seconds = max(0, int((now - moment).total_seconds()))
    if seconds < 60:
        return f"{seconds}s"
    if seconds < 3600:
        return f"{seconds // 60}m {seconds % 60:02d}s"
    if seconds < 86400:
        return f"{seconds // 3600}h {seconds % 3600 // 60:02d}m"
    return f"{seconds // 86400}d"
