"""The date range typed on the transactions screen: ``FROM..TO`` in one short field.

Forms (spaces around the dots are allowed):

- ``2026-11-01..2026-11-30``: both ends, inclusive;
- ``2026-11-01..`` or ``..2026-11-30``: one end open;
- ``2026-11-01``: that one day;
- empty (or ``..``): no range.

Dates are ``YYYY-MM-DD`` exactly: ``1/11/2026`` is ambiguous, ``20261101``
is hard to read back, and the service's dates are ISO. A wrong entry raises
:class:`DateRangeProblem` whose text says what is wrong, for the screen to show.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import NamedTuple

__all__ = ["SEPARATOR", "DateRange", "DateRangeProblem", "parse_date_range"]

SEPARATOR = ".."
_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


class DateRangeProblem(ValueError):
    """What is wrong with a typed date range (the message is for the user)."""


class DateRange(NamedTuple):
    """Inclusive ends; None is open."""

    start: dt.date | None = None
    end: dt.date | None = None

    @property
    def iso(self) -> tuple[str | None, str | None]:
        """Both ends as ``YYYY-MM-DD`` (what the view compares the service's dates with)."""
        return (
            self.start.isoformat() if self.start else None,
            self.end.isoformat() if self.end else None,
        )

    def __str__(self) -> str:
        start, end = self.iso
        if start is not None and start == end:
            return start
        return f"{start or ''}{SEPARATOR}{end or ''}" if start or end else ""


def _date(text: str) -> dt.date | None:
    text = text.strip()
    if not text:
        return None
    if _ISO_DATE.fullmatch(text):
        try:
            return dt.date.fromisoformat(text)
        except ValueError:
            pass  # 2026-13-01, 2026-02-30
    raise DateRangeProblem(f"“{text}” is not a date: use YYYY-MM-DD")


def parse_date_range(text: str) -> DateRange:
    """The range ``text`` stands for (see the module docstring); DateRangeProblem if none."""
    text = text.strip()
    if SEPARATOR not in text:
        day = _date(text)
        return DateRange(day, day)
    start_text, _, end_text = text.partition(SEPARATOR)
    if SEPARATOR in end_text:
        raise DateRangeProblem(f"Use one “{SEPARATOR}” between the dates: FROM{SEPARATOR}TO")
    start, end = _date(start_text), _date(end_text)
    if start is not None and end is not None and end < start:
        raise DateRangeProblem(f"The range ends ({end}) before it starts ({start})")
    return DateRange(start, end)
