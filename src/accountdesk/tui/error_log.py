"""The session's error log and how each client error is shown.

Every :class:`~accountdesk.client.AccountDataError` the app meets becomes an
:class:`ErrorRecord`: a toast title and body, a severity, and the row of the
error log screen. Only :class:`~accountdesk.client.ApiError` gets an ``AC-``
title; transport and malformed answers have their own titles, so the app
never pretends the service said something it did not.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from accountdesk.client import (
    AccountDataError,
    ApiError,
    MalformedResponseError,
    TransportError,
)
from accountdesk.contract import ErrorFamily

Severity = Literal["information", "warning", "error"]

#: Families that are the service's ordinary "no" for this user, not a fault.
_WARNING_FAMILIES = frozenset({ErrorFamily.MANUAL_USER, ErrorFamily.CONFLICT, ErrorFamily.USER})


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
    def from_error(cls, error: AccountDataError, time: datetime) -> ErrorRecord:
        status = getattr(error, "status", None)
        if isinstance(error, ApiError):
            title = f"{error.code} · {error.status}"
            message = error.message  # verbatim, as the service sent it
            severity: Severity = "warning" if error.family in _WARNING_FAMILIES else "error"
        elif isinstance(error, MalformedResponseError):
            title = (
                f"Unexpected response · {status}" if status is not None else "Unexpected response"
            )
            message = error.detail
            severity = "error"
        elif isinstance(error, TransportError):
            title = error.title or "Connection failed"
            message = error.detail
            severity = "error"
        else:
            title = error.title
            message = error.detail
            severity = "warning"
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

    def ticket_text(self, *, base_url_key: str = "") -> str:
        """Plain text for a support ticket (what the copy key puts on the clipboard)."""
        lines = [
            f"accountdesk error report: {self.title}",
            f"Time:     {self.time.isoformat()}",
        ]
        if base_url_key:
            lines.append(f"Service:  {base_url_key}")
        if self.method or self.path:
            lines.append(f"Request:  {self.method} {self.path}".rstrip())
        lines.append(f"Status:   {self.status if self.status is not None else '—'}")
        lines.append(f"Code:     {self.code or '— (no service code)'}")
        lines.append(f"Kind:     {self.kind}")
        lines.append(f"Message:  {self.message}")
        return "\n".join(lines)


def failure_line(prefix: str, error: AccountDataError) -> str:
    """``"<prefix> (AC-nnn): <message>"``: what a panel says in place of data it could not read.

    The service's message verbatim when it sent one (as the toast shows it),
    else the error's own detail; no code part for errors that have none.
    """
    message = getattr(error, "message", None) or error.detail
    return f"{prefix} ({error.code}): {message}" if error.code else f"{prefix}: {message}"


class ErrorLog:
    """Every error of the session, oldest first."""

    def __init__(self) -> None:
        self._records: list[ErrorRecord] = []

    def append(self, record: ErrorRecord) -> None:
        self._records.append(record)

    @property
    def records(self) -> list[ErrorRecord]:
        return list(self._records)

    def __len__(self) -> int:
        return len(self._records)
