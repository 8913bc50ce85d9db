"""The session's error log, and how every failure is described to a person.

Every failure the app meets, the service's refusals and our own bugs alike,
becomes an :class:`ErrorRecord` (in :meth:`ErrorRecord.from_error`, the one
place): a toast title and body, a severity, the contract's guidance (what it
means, what to do next), and what a ticket or a replayed request needs (the
request, the status, the time, the service's URL; never a token or a
secret). Only an :class:`~accountdesk.client.ApiError` gets an ``AC-``
title; connection failures, malformed answers and internal errors have their
own titles and a :class:`~accountdesk.contract.FailureKind`, so the app never
pretends the service said something it did not.
"""

from __future__ import annotations

import math
import traceback
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any, Literal

from accountdesk.contract import (
    FAILURE_GUIDANCE,
    ErrorFamily,
    FailureKind,
    Guidance,
    guidance_for_code,
)

if TYPE_CHECKING:
    from accountdesk.client import AccountDataError

__all__ = [
    "ErrorLog",
    "ErrorRecord",
    "InternalError",
    "Severity",
    "block_lifts",
    "failure_line",
]

Severity = Literal["information", "warning", "error"]

#: Families that are the service's ordinary "no" for this user, not a fault.
_WARNING_FAMILIES = frozenset({ErrorFamily.MANUAL_USER, ErrorFamily.CONFLICT, ErrorFamily.USER})

#: Starts the last line of an error toast: the next step, set apart from the service's words.
NEXT_STEP_PREFIX = "Next: "

INTERNAL_TITLE = "Internal error"
INTERNAL_MESSAGE = "Something went wrong inside accountdesk; details are in the log."


class InternalError(Exception):
    """An unexpected exception in the app itself, wrapped for the one failure path.

    ``title`` and ``detail`` mirror :class:`~accountdesk.client.AccountDataError`
    so screens handle both alike; the original exception is ``cause`` and its
    traceback goes to the log only (never to the screen: it may hold data).
    """

    title = INTERNAL_TITLE
    code: str | None = None
    method = ""
    path = ""

    def __init__(self, cause: BaseException, operation: str = "") -> None:
        super().__init__(INTERNAL_MESSAGE)
        self.cause = cause
        self.operation = operation
        self.detail = INTERNAL_MESSAGE

    def log_text(self) -> str:
        """The traceback for the log (redaction runs on every log record)."""
        return "".join(traceback.format_exception(self.cause)).rstrip()


def block_lifts(lifts_at: datetime, now: datetime | None = None) -> str:
    """``"The block lifts at 09:45:00 UTC (in 15 min)."``: when an ``AC-108`` block ends.

    The part in brackets only when ``now`` is known.
    """
    return f"The block lifts at {lift_time(lifts_at, now)}."


def lift_time(lifts_at: datetime, now: datetime | None = None) -> str:
    """``"09:45:00 UTC (in 15 min)"``; the part in brackets only when ``now`` is known."""
    when = f"{lifts_at.astimezone(UTC):%H:%M:%S} UTC"
    if now is None:
        return when
    seconds = max(0.0, (lifts_at - now).total_seconds())
    # Minutes to the nearest, not up: our clock follows the service's a few ms
    # late, and a 15-minute block read at once is 900.01 s away ("16 min").
    # The time itself is exact; seconds only in the last minute.
    left = f"{math.ceil(seconds)} s" if seconds < 60 else f"{math.floor(seconds / 60 + 0.5)} min"
    return f"{when} (in {left})"


def _failure_of(error: AccountDataError) -> FailureKind:
    """The kind of a failure that carries no service code."""
    from accountdesk.client import JobWatchTimeout, MalformedResponseError, TransportError

    if isinstance(error, MalformedResponseError):
        return FailureKind.MALFORMED
    if isinstance(error, TransportError):
        kinds = {"connect": FailureKind.CONNECT, "timeout": FailureKind.TIMEOUT}
        return kinds.get(error.reason, FailureKind.NETWORK)
    if isinstance(error, JobWatchTimeout):
        return FailureKind.STILL_RUNNING
    return FailureKind.REFUSED  # checked before sending: a bad id or URL


#: Text fields a ticket or an export shows (each redacted and sanitised there).
_TEXT_FIELDS = (
    "title",
    "message",
    "method",
    "path",
    "code",
    "kind",
    "meaning",
    "next_step",
    "service_url",
)


@dataclass(frozen=True, slots=True)
class ErrorRecord:
    """One error of the session, as shown in a toast, the error log and its exports.

    ``failure`` names a failure without a service code (None for a coded
    answer). ``meaning`` and ``next_step`` are the contract's guidance for
    it; ``lifts_at`` is when an ``AC-108`` block ends, when the answer said
    (``Retry-After``). ``service_url`` is the base URL the request went to,
    "" on the embedded sandbox (which has none).
    """

    time: datetime
    title: str
    message: str
    severity: Severity
    method: str = ""
    path: str = ""
    status: int | None = None
    code: str | None = None
    kind: str = ""
    failure: FailureKind | None = None
    meaning: str = ""
    next_step: str = ""
    lifts_at: datetime | None = None
    service_url: str = ""

    @classmethod
    def from_error(
        cls, error: AccountDataError | InternalError, time: datetime, *, service_url: str = ""
    ) -> ErrorRecord:
        """The record of ``error``, met at ``time`` on the service at ``service_url``."""
        from accountdesk.client import ApiError, MalformedResponseError, TransportError

        status = getattr(error, "status", None)
        severity: Severity = "error"
        lifts_at = None
        if isinstance(error, InternalError):
            internal = FAILURE_GUIDANCE[FailureKind.INTERNAL]
            return cls(
                time,
                INTERNAL_TITLE,
                INTERNAL_MESSAGE,
                "error",
                kind=type(error.cause).__name__,
                failure=FailureKind.INTERNAL,
                meaning=internal.meaning,
                next_step=internal.next_step,
                service_url=service_url,
            )
        failure: FailureKind | None = None
        if isinstance(error, ApiError):
            title = f"{error.code} · {error.status}"
            message = error.message  # the service's words (sanitised by the client)
            if error.family in _WARNING_FAMILIES:
                severity = "warning"
            guidance: Guidance = guidance_for_code(error.code or "")
            if error.retry_after is not None:
                lifts_at = time + timedelta(seconds=error.retry_after)
        else:
            failure = _failure_of(error)
            guidance = FAILURE_GUIDANCE[failure]
            if isinstance(error, MalformedResponseError):
                title = (
                    f"Unexpected response · {status}"
                    if status is not None
                    else "Unexpected response"
                )
            else:
                title = error.title
                if not isinstance(error, TransportError):
                    severity = (
                        "warning"  # refused before sending (bad id, bad URL): the user's to fix
                    )
            message = error.detail
        return cls(
            time=time,
            title=title,
            message=message,
            severity=severity,
            method=error.method,
            path=error.path,
            status=status,
            code=error.code,
            kind=type(error).__name__,
            failure=failure,
            meaning=guidance.meaning,
            next_step=guidance.next_step,
            lifts_at=lifts_at,
            service_url=service_url,
        )

    @property
    def advice(self) -> str:
        """The next step, preceded by when a block lifts if the service said."""
        if self.lifts_at is None:
            return self.next_step
        return f"{block_lifts(self.lifts_at, self.time)} {self.next_step}"

    @property
    def toast_text(self) -> str:
        """What the toast says: the message, then one line of what to do next."""
        return f"{self.message}\n{NEXT_STEP_PREFIX}{self.advice}" if self.advice else self.message

    def cleaned(self, secrets: Iterable[str | None] = ()) -> ErrorRecord:
        """This record fit for a file or a clipboard: credentials redacted, controls made visible.

        The client's redaction (registered secrets and tokens, ``Authorization``
        values, ``api_secret=``/``access_token`` pairs, plus ``secrets``) and
        its sanitiser, on every text field.
        """
        from accountdesk.client import redact, sanitise_text

        extra = tuple(secrets)
        changes: dict[str, Any] = {}
        for name in _TEXT_FIELDS:
            value = getattr(self, name)
            if value:
                changes[name] = sanitise_text(redact(value, extra))
        return replace(self, **changes)


def failure_line(prefix: str, error: AccountDataError | InternalError) -> str:
    """``"<prefix> (AC-nnn): <message>"``: what a panel says in place of data it could not read."""
    message = getattr(error, "message", None) or error.detail
    return f"{prefix} ({error.code}): {message}" if error.code else f"{prefix}: {message}"


class ErrorLog:
    """Every error of the session, oldest first (bounded: a flapping service must not eat memory)."""

    def __init__(self, limit: int = 1000) -> None:
        self._records: list[ErrorRecord] = []
        self.limit = limit
        #: Records ever appended. Each record's number (0 for the first) stays
        #: its own when the oldest are let go, so a view can add only the new ones.
        self.appended = 0

    def append(self, record: ErrorRecord) -> None:
        self._records.append(record)
        self.appended += 1
        if len(self._records) > self.limit:
            del self._records[: len(self._records) - self.limit]

    @property
    def first_number(self) -> int:
        """The number of the oldest record kept (``appended`` when none is)."""
        return self.appended - len(self._records)

    def numbered(self, number: int) -> ErrorRecord | None:
        """The record numbered ``number``, or None when let go or not yet appended."""
        index = number - self.first_number
        return self._records[index] if 0 <= index < len(self._records) else None

    def since(self, number: int) -> list[ErrorRecord]:
        """The records numbered ``number`` and later that are kept, oldest first."""
        return self._records[max(0, number - self.first_number) :]

    @property
    def records(self) -> list[ErrorRecord]:
        return list(self._records)

    def __len__(self) -> int:
        return len(self._records)
