"""How values read to a person: ages, amounts, times, job kinds and statuses.

Shared by every screen and by the notices, so one value never reads two ways.
"""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal
from pathlib import Path

from accountdesk.contract import JobKind, JobStatus

__all__ = [
    "describe_age",
    "fold_paths",
    "format_amount",
    "format_time",
    "home_path",
    "kind_label",
    "status_label",
]

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


def fold_paths(text: str, width: int) -> str:
    """``text`` with every path longer than ``width`` broken into lines at its separators.

    A toast wraps at spaces and folds a long word wherever the width ends:
    "…/exports/errors-202" then "61126-094626.md". Broken at "/" instead, a
    file name stays whole on its line (a part longer than the width is
    left for the toast to fold).
    """
    if width < 8:
        return text
    lines = []
    for line in text.split("\n"):
        words = []
        for word in line.split(" "):
            if len(word) <= width or "/" not in word:
                words.append(word)
                continue
            parts, current = [], ""
            for piece in re.split(r"(?<=/)", word):
                if current and len(current) + len(piece) > width:
                    parts.append(current)
                    current = ""
                current += piece
            parts.append(current)
            words.append("\n".join(parts))
        lines.append(" ".join(words))
    return "\n".join(lines)


def home_path(path: Path) -> str:
    """``path`` with the home folder as ``~`` (shorter; a shell expands it back)."""
    home = Path.home()
    return f"~/{path.relative_to(home)}" if path.is_relative_to(home) else str(path)
