"""Clocks for the sandbox: every expiry and job step is read from one of these.

The engine never calls ``datetime.now()`` itself, so tests (and the
``/_sandbox/clock/advance`` control endpoint) can move time forward instead of
sleeping. Standard library only.
"""

from __future__ import annotations

import datetime as dt
import math
import threading
from typing import Protocol, runtime_checkable

__all__ = ["DEFAULT_START", "Clock", "FrozenClock", "SystemClock", "wire_time"]

#: Where a :class:`FrozenClock` starts when no start is given: a fixed
#: Monday morning, so snapshot tests see the same dates on every run.
DEFAULT_START = dt.datetime(2025, 1, 6, 9, 0, tzinfo=dt.UTC)


@runtime_checkable
class Clock(Protocol):
    """What the engine needs from a clock."""

    def now(self) -> dt.datetime:
        """The current time, timezone-aware, in UTC."""
        ...

    def advance(self, seconds: float) -> None:
        """Move the clock forward by ``seconds`` (never backwards).

        Raises TypeError, ValueError or OverflowError, leaving the time as it
        was, for a step that is not a finite number >= 0 or that would pass
        the year 9999: the engine answers those with ``AC-100``.
        """
        ...


def wire_time(moment: dt.datetime) -> str:
    """A timestamp as the sandbox sends it: ISO-8601, milliseconds, UTC offset."""
    return moment.isoformat(timespec="milliseconds")


def _checked_seconds(seconds: float) -> float:
    # Time only moves forward: a negative or non-finite step would let expired
    # tokens and MFA sessions come back to life.
    if isinstance(seconds, bool) or not isinstance(seconds, int | float):
        raise TypeError("seconds must be a number")
    if not math.isfinite(seconds) or seconds < 0:
        raise ValueError("seconds must be a finite number >= 0")
    return float(seconds)


class SystemClock:
    """Real UTC time plus an offset that :meth:`advance` grows."""

    def __init__(self) -> None:
        self._offset = dt.timedelta()
        self._lock = threading.Lock()

    def now(self) -> dt.datetime:
        """Wall-clock UTC time, shifted by everything advanced so far."""
        return dt.datetime.now(dt.UTC) + self._offset

    def advance(self, seconds: float) -> None:
        """Jump ``seconds`` ahead of the wall clock (cumulative)."""
        step = dt.timedelta(seconds=_checked_seconds(seconds))
        with self._lock:
            offset = self._offset + step
            # Raises OverflowError before the offset is kept: kept, an offset
            # past the year 9999 would make every later now() fail.
            _ = dt.datetime.now(dt.UTC) + offset
            self._offset = offset

    def __repr__(self) -> str:
        return f"SystemClock(offset={self._offset.total_seconds()}s)"


class FrozenClock:
    """A clock that stands still until advanced; for deterministic tests."""

    def __init__(self, start: dt.datetime | None = None) -> None:
        start = DEFAULT_START if start is None else start
        if start.tzinfo is None or start.utcoffset() is None:
            raise ValueError("FrozenClock needs a timezone-aware start")
        self._now = start.astimezone(dt.UTC)
        self._lock = threading.Lock()

    def now(self) -> dt.datetime:
        """The frozen time."""
        return self._now

    def advance(self, seconds: float) -> None:
        """Move the frozen time forward by ``seconds``."""
        step = dt.timedelta(seconds=_checked_seconds(seconds))
        with self._lock:
            self._now += step

    def __repr__(self) -> str:
        return f"FrozenClock({self._now.isoformat()})"
