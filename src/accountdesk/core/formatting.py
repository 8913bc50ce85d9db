"""How values read to a person: ages, amounts, times, job kinds and statuses.

Shared by every screen and by the notices, so one value never reads two ways.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from accountdesk.contract import JobKind, JobStatus

__all__ = ["describe_age", "format_amount", "format_time", "kind_label", "status_label"]

_KIND_LABELS: dict[str, str] = {
    JobKind.BALANCE_REFRESH: "balance refresh",
    JobKind.IDENTITY: "identity",
    JobKind.TRANSACTIONS: "transactions",
}


def kind_label(kind: JobKind | str | None) -> str:
    """``balance refresh``, ``identity``, ``transactions`` (an unknown kind as sent)."""
    if kind is None:
        return "job"
    return _KIND_LABELS.get(kind, kind.replace("_", " "))


def status_label(status: JobStatus | str) -> str:
    """``in progress``, ``mfa required``...: the wire value, readable."""
    return str(status).replace("_", " ")


def describe_age(moment: dt.datetime | None, now: dt.datetime) -> str:
    """``"12s"``, ``"4m 05s"``, ``"3h 02m"``, ``"2d"``, or ``"—"``."""
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


def format_amount(amount: Decimal | None, currency: str | None) -> str:
    if amount is None:
        return "—"
    return f"{amount:,.2f} {currency or ''}".rstrip()


def format_time(moment: dt.datetime | None) -> str:
    if moment is None:
        return "—"
    return moment.strftime("%Y-%m-%d %H:%M:%S %Z").rstrip()
