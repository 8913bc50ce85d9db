"""The session's error log, and how every failure is described to a person.

Every failure the app meets, the service's refusals and our own bugs alike,
becomes an :class:`ErrorRecord`: a toast title and body, a severity, and a
row of the error log. Only an :class:`~accountdesk.client.ApiError` gets an
``AC-`` title; connection failures, malformed answers and internal errors
have their own titles, so the app never pretends the service said something
it did not.
"""

from __future__ import annotations

import traceback
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Literal

from accountdesk.contract import ErrorFamily

if TYPE_CHECKING:
    from accountdesk.client import AccountDataError

__all__ = ["ErrorLog", "ErrorRecord", "InternalError", "Severity", "failure_line"]

Severity = Literal["information", "warning", "error"]

#: Families that are the service's ordinary "no" for this user, not a fault.
_WARNING_FAMILIES = frozenset({ErrorFamily.MANUAL_USER, ErrorFamily.CONFLICT, ErrorFamily.USER})

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


@dataclass(frozen=True, slots=True)
class ErrorRecord:
    """One error of the session, as shown in a toast and the error log."""

    time: datetime
    title: str
    message: str
    severity: Severity
    method: str = ""
    path: str = ""
    status: int | None = None
    code: str | None = None
    kind: str = ""

    @classmethod
    def from_error(cls, error: AccountDataError | InternalError, time: datetime) -> ErrorRecord:
        from accountdesk.client import ApiError, MalformedResponseError, TransportError

        status = getattr(error, "status", None)
        severity: Severity = "error"
        if isinstance(error, InternalError):
            return cls(
                time, INTERNAL_TITLE, INTERNAL_MESSAGE, "error", kind=type(error.cause).__name__
            )
        if isinstance(error, ApiError):
            title = f"{error.code} · {error.status}"
            message = error.message  # the service's words (sanitised by the client)
            if error.family in _WARNING_FAMILIES:
                severity = "warning"
        elif isinstance(error, MalformedResponseError):
            title = (
                f"Unexpected response · {status}" if status is not None else "Unexpected response"
            )
            message = error.detail
        else:
            title = error.title
            message = error.detail
            if not isinstance(error, TransportError):
                severity = "warning"  # refused before sending (bad id, bad URL): the user's to fix
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
        )

    def ticket_text(self, *, service: str = "") -> str:
        """Plain text for a support ticket (what the copy key puts on the clipboard)."""
        lines = [f"accountdesk error report: {self.title}", f"Time:     {self.time.isoformat()}"]
        if service:
            lines.append(f"Service:  {service}")
        if self.method or self.path:
            lines.append(f"Request:  {self.method} {self.path}".rstrip())
        lines.append(f"Status:   {self.status if self.status is not None else '—'}")
        lines.append(f"Code:     {self.code or '— (no service code)'}")
        lines.append(f"Kind:     {self.kind}")
        lines.append(f"Message:  {self.message}")
        return "\n".join(lines)


def failure_line(prefix: str, error: AccountDataError | InternalError) -> str:
    """``"<prefix> (AC-nnn): <message>"``: what a panel says in place of data it could not read."""
    message = getattr(error, "message", None) or error.detail
    return f"{prefix} ({error.code}): {message}" if error.code else f"{prefix}: {message}"


class ErrorLog:
    """Every error of the session, oldest first (bounded: a flapping service must not eat memory)."""

    def __init__(self, limit: int = 1000) -> None:
        self._records: list[ErrorRecord] = []
        self.limit = limit

    def append(self, record: ErrorRecord) -> None:
        self._records.append(record)
        if len(self._records) > self.limit:
            del self._records[: len(self._records) - self.limit]

    @property
    def records(self) -> list[ErrorRecord]:
        return list(self._records)

    def __len__(self) -> int:
        return len(self._records)
