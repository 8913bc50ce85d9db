"""One tracked job as the app knows it, and its record in ``jobs.json``.

Statuses and kinds are the contract's enums; one this version does not know
stays a plain string, shown as sent (the real service may add some). No
secret is kept: ids, kind, status, times and the last error.
"""

from __future__ import annotations

import datetime as dt
import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from accountdesk.contract import TERMINAL_STATUSES, JobKind, JobStatus
from accountdesk.core.jobs.sandbox_instance import valid_sandbox_id
from accountdesk.core.store import CorruptFile

if TYPE_CHECKING:
    from accountdesk.client import MfaChallenge

__all__ = [
    "TrackedJob",
    "aware",
    "empty_jobs",
    "job_key",
    "jobs_document",
    "parse_kind",
    "parse_status",
    "service_records",
]

FILE_VERSION = 1


def jobs_document(data: Any) -> dict[str, Any]:
    """A jobs file: ``{"version": 1, "services": {service: [records]}}``; else CorruptFile."""
    if not isinstance(data, dict) or not isinstance(data.get("services"), dict):
        raise CorruptFile("not a jobs document")
    return data


def empty_jobs() -> dict[str, Any]:
    return {"version": FILE_VERSION, "services": {}}


def service_records(document: dict[str, Any], service_key: str) -> list[Any]:
    """One service's records in a jobs document ([] when it has none, or not a list)."""
    records = document["services"].get(service_key)
    return records if isinstance(records, list) else []


def job_key(user_id: str, job_id: str) -> str:
    """A job is identified by its user and its id (ids need not be unique across users)."""
    return f"{user_id}/{job_id}"


def parse_status(value: object) -> JobStatus | str:
    text = str(value) if value is not None else JobStatus.PENDING.value
    try:
        return JobStatus(text)
    except ValueError:
        return text  # a status this version does not know: shown as sent


def parse_kind(value: object) -> JobKind | str:
    text = str(value) if value else "unknown"
    try:
        return JobKind(text)
    except ValueError:
        return text


@dataclass(eq=False)
class TrackedJob:
    """One job started in this app, as last seen.

    The first block of fields is persisted; the rest is the poller's runtime
    state (backoff, errors already shown, the MFA challenge, a poll in flight).
    """

    user_id: str
    job_id: str
    kind: JobKind | str
    status: JobStatus | str
    created_at: dt.datetime
    #: When this app started tracking the job, on the app's clock: ages count
    #: from it (``created_at`` is on the service's clock, which may be skewed).
    tracked_at: dt.datetime | None = None
    last_poll_at: dt.datetime | None = None
    last_error_code: str | None = None
    last_error_message: str | None = None
    #: When an AC-108 block lifts, where the service tells us.
    blocked_until: dt.datetime | None = None
    #: A later answer of the service showed that block over (``core.learnt_blocks``).
    block_overruled: bool = False
    #: The service does not know the job (AC-109): never polled again.
    gone: bool = False
    #: It did not finish within the poller's limit: not polled until asked.
    given_up: bool = False
    #: Seconds the clock of the job's service was ahead of ours when last seen
    #: (a sandbox's clock may be moved): its age is read on that clock, even
    #: after a restart follows another one. None: an earlier version's record.
    clock_offset: float | None = None
    #: The embedded sandbox the job was started on (``core.sandbox_instance``);
    #: None: a live service, a sandbox over HTTP, or an earlier version's record.
    sandbox: str | None = None

    failures: int = field(default=0, repr=False)
    next_poll_at: dt.datetime | None = field(default=None, repr=False)
    #: Answers in a row that changed nothing a person sees (this session only, not saved).
    quiet: int = field(default=0, repr=False)
    #: The last poll failed: the row shows what we knew before, marked stale.
    failing: bool = field(default=False, repr=False)
    reported_errors: set[str] = field(default_factory=set, repr=False)
    mfa: MfaChallenge | None = field(default=None, repr=False)
    mfa_offered: bool = field(default=False, repr=False)
    in_flight_since: dt.datetime | None = field(default=None, repr=False)
    #: On the clock this session follows (tracked, or answered a poll, since
    #: sign-in): its offset moves with the sandbox's clock.
    live_clock: bool = field(default=False, repr=False)
    #: Kept by an earlier version for the service, not yet taken by a key
    #: (``core.earlier_files``): shown apart, never answered for MFA.
    legacy: bool = field(default=False, repr=False)
    #: Started on another window's embedded sandbox, which still runs: shown, not
    #: polled or answered here (that window does).
    elsewhere: bool = field(default=False, repr=False)

    @property
    def key(self) -> str:
        return job_key(self.user_id, self.job_id)

    @property
    def is_terminal(self) -> bool:
        return self.status in TERMINAL_STATUSES

    @property
    def is_failed(self) -> bool:
        return self.status is JobStatus.FAILED

    @property
    def needs_mfa(self) -> bool:
        return (
            self.status is JobStatus.MFA_REQUIRED
            and not self.gone
            and not self.legacy
            and not self.elsewhere
        )

    @property
    def is_pollable(self) -> bool:
        """Polling stops for finished jobs, jobs the service no longer knows, and given-up ones
        (and another window's embedded sandbox polls its own)."""
        return not self.is_terminal and not self.gone and not self.given_up and not self.elsewhere

    @property
    def age_from(self) -> dt.datetime:
        return self.tracked_at or self.created_at

    # -- the file --------------------------------------------------------

    def to_record(self) -> dict[str, Any]:
        def when(moment: dt.datetime | None) -> str | None:
            return moment.isoformat() if moment is not None else None

        record = {
            "user_id": self.user_id,
            "job_id": self.job_id,
            "kind": str(self.kind),
            "status": str(self.status),
            "created_at": self.created_at.isoformat(),
            "tracked_at": when(self.tracked_at),
            "last_poll_at": when(self.last_poll_at),
            "last_error_code": self.last_error_code,
            "last_error_message": self.last_error_message,
            "blocked_until": when(self.blocked_until),
            "gone": self.gone,
            "given_up": self.given_up,
            "clock_offset": self.clock_offset,
        }
        if self.sandbox is not None:
            record["sandbox"] = self.sandbox
        if self.block_overruled:
            record["block_overruled"] = True
        return record

    @classmethod
    def from_record(cls, record: Any) -> TrackedJob:
        """Rebuild a job from ``jobs.json``; ValueError/TypeError/KeyError when the record is bad."""
        if not isinstance(record, dict):
            raise TypeError("a job record must be an object")
        return cls(
            user_id=_text(record["user_id"]),
            job_id=_text(record["job_id"]),
            kind=parse_kind(record.get("kind")),
            status=parse_status(record.get("status")),
            created_at=_time(record["created_at"]),
            tracked_at=_optional_time(record.get("tracked_at")),
            last_poll_at=_optional_time(record.get("last_poll_at")),
            last_error_code=_optional_text(record.get("last_error_code")),
            # Files from version 0.1 had a title instead of the message.
            last_error_message=_optional_text(record.get("last_error_message")),
            blocked_until=_optional_time(record.get("blocked_until")),
            block_overruled=record.get("block_overruled") is True,
            gone=record.get("gone") is True,
            given_up=record.get("given_up") is True,
            clock_offset=_optional_offset(record.get("clock_offset")),
            sandbox=valid_sandbox_id(record.get("sandbox")),
        )


def _text(value: Any) -> str:
    if not isinstance(value, str) or not value:
        raise ValueError(f"expected a non-empty string, got {type(value).__name__}")
    return value


def _optional_text(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _time(value: Any) -> dt.datetime:
    if not isinstance(value, str):
        raise TypeError("a time must be an ISO-8601 string")
    moment = dt.datetime.fromisoformat(value)
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=dt.UTC)


#: A clock offset past this (a sandbox moves at most 100 years) is not one of ours.
_MAX_OFFSET_SECONDS = 200 * 366 * 86_400


def _optional_offset(value: Any) -> float | None:
    """A recorded clock offset, or None (missing, or not a sane number: age as before)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    seconds = float(value)
    return seconds if math.isfinite(seconds) and abs(seconds) <= _MAX_OFFSET_SECONDS else None


def _optional_time(value: Any) -> dt.datetime | None:
    return _time(value) if value else None


def aware(moment: dt.datetime | None) -> dt.datetime | None:
    """Ages are computed on an aware clock; a naive time from the service is read as UTC."""
    if moment is None or moment.tzinfo is not None:
        return moment
    return moment.replace(tzinfo=dt.UTC)
