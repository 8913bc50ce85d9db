"""Clocks for the sandbox: every expiry and job step is read from one of these.

The engine never calls ``datetime.now()`` itself, so tests (and the
``/_sandbox/clock/advance`` control endpoint) can move time forward instead of
sleeping. Standard library only.

Bounds: one step is at most :data:`MAX_STEP` (366 days) and a clock is never
more than :data:`MAX_OFFSET` (100 years) ahead of where it started. Every
duration the engine adds to "now" is itself capped (:data:`MAX_DURATION`), so
no later arithmetic (a token's expiry, an MFA deadline, a block) can pass the
year 9999: an unauthenticated caller cannot push the sandbox off the calendar.
"""

from __future__ import annotations

import datetime as dt
import math
import threading
from typing import Protocol, runtime_checkable

__all__ = [
    "DEFAULT_START",
    "MAX_DURATION",
    "MAX_OFFSET",
    "MAX_STEP",
    "Clock",
    "FrozenClock",
    "OffsetClock",
    "SystemClock",
    "wire_time",
]

#: Where a :class:`FrozenClock` starts when no start is given: a fixed
#: Monday morning, so snapshot tests see the same dates on every run.
DEFAULT_START = dt.datetime(2025, 1, 6, 9, 0, tzinfo=dt.UTC)

#: The largest single step of :meth:`Clock.advance`: a year, leap day included.
MAX_STEP = dt.timedelta(days=366)
#: How far ahead of its start a clock may ever be (all steps together).
MAX_OFFSET = dt.timedelta(days=36_525)
#: The longest duration the engine adds to a time (job, MFA session, token, block).
MAX_DURATION = dt.timedelta(days=366)
# Room kept free above a clock's furthest time: two offsets (a tenant clock
# runs ahead of a base clock that may itself be ahead) and several durations.
_HEADROOM = 2 * MAX_OFFSET + 4 * MAX_DURATION
_LATEST_START = dt.datetime.max.replace(tzinfo=dt.UTC) - _HEADROOM


@runtime_checkable
class Clock(Protocol):
    """What the engine needs from a clock."""

    def now(self) -> dt.datetime:
        """The current time, timezone-aware, in UTC."""
        ...

    def advance(self, seconds: float) -> None:
        """Move the clock forward by ``seconds`` (never backwards).

        Raises TypeError or ValueError, leaving the time as it was, for a step
        that is not a number >= 0, is over :data:`MAX_STEP`, or would take the
        clock more than :data:`MAX_OFFSET` past its start: the engine answers
        those with ``AC-100``.
        """
        ...

    def reset(self) -> None:
        """Go back to the start: undo every :meth:`advance`."""
        ...


def wire_time(moment: dt.datetime) -> str:
    """A timestamp as the sandbox sends it: ISO-8601, milliseconds, UTC offset."""
    return moment.isoformat(timespec="milliseconds")


def _checked_step(seconds: float) -> dt.timedelta:
    # Time only moves forward: a negative or non-finite step would let expired
    # tokens and MFA sessions come back to life.
    if isinstance(seconds, bool) or not isinstance(seconds, int | float):
        raise TypeError("seconds must be a number")
    # Compared before any conversion: a 400-digit int does not fit a float.
    if not (0 <= seconds <= MAX_STEP.total_seconds()) or not math.isfinite(seconds):
        raise ValueError(f"seconds must be a number from 0 to {MAX_STEP.total_seconds():.0f}")
    return dt.timedelta(seconds=seconds)


def _checked_start(start: dt.datetime) -> dt.datetime:
    """``start`` in UTC; ValueError when it is naive or too late to leave room for the bounds."""
    if start.tzinfo is None or start.utcoffset() is None:
        raise ValueError("a clock needs a timezone-aware start")
    if start > _LATEST_START:
        raise ValueError(f"a clock must start before {_LATEST_START.date()}")
    return start.astimezone(dt.UTC)


#: The latest start a scenario pack may give (room left for every bound).
LATEST_START = _LATEST_START


class _Offset:
    """An offset that only grows, up to :data:`MAX_OFFSET`; shared by the clocks."""

    def __init__(self) -> None:
        self.value = dt.timedelta()
        self._lock = threading.Lock()

    def grow(self, seconds: float) -> None:
        step = _checked_step(seconds)
        with self._lock:
            if self.value + step > MAX_OFFSET:
                raise ValueError("the sandbox clock is never more than 100 years ahead")
            self.value += step

    def clear(self) -> None:
        with self._lock:
            self.value = dt.timedelta()


class SystemClock:
    """Real UTC time plus an offset that :meth:`advance` grows.

    ``start`` (aware): the clock reads that time now and runs on from it at
    the wall clock's pace (a scenario pack's ``[clock] start``); a reset goes
    back to that running time, not to the wall clock's.
    """

    def __init__(self, start: dt.datetime | None = None) -> None:
        self._offset = _Offset()
        self._shift = dt.timedelta()
        if start is not None:
            self._shift = _checked_start(start) - dt.datetime.now(dt.UTC)

    @property
    def offset(self) -> dt.timedelta:
        """How far ahead of the wall clock (or of its running start) this clock runs."""
        return self._offset.value

    def now(self) -> dt.datetime:
        """Wall-clock UTC time, shifted by its start and everything advanced so far."""
        return dt.datetime.now(dt.UTC) + self._shift + self._offset.value

    def advance(self, seconds: float) -> None:
        """Jump ``seconds`` ahead of the wall clock (cumulative, bounded)."""
        self._offset.grow(seconds)

    def reset(self) -> None:
        """Back to the wall clock (or to the running start)."""
        self._offset.clear()

    def __repr__(self) -> str:
        return f"SystemClock(offset={self.offset.total_seconds()}s)"


class FrozenClock:
    """A clock that stands still until advanced; for deterministic tests."""

    def __init__(self, start: dt.datetime | None = None) -> None:
        self._start = _checked_start(DEFAULT_START if start is None else start)
        self._offset = _Offset()

    @property
    def offset(self) -> dt.timedelta:
        """How far this clock has been advanced since its start."""
        return self._offset.value

    def now(self) -> dt.datetime:
        """The frozen time."""
        return self._start + self._offset.value

    def advance(self, seconds: float) -> None:
        """Move the frozen time forward by ``seconds`` (bounded)."""
        self._offset.grow(seconds)

    def reset(self) -> None:
        """Back to the start."""
        self._offset.clear()

    def __repr__(self) -> str:
        return f"FrozenClock({self.now().isoformat()})"


class OffsetClock:
    """Another clock's time plus an offset of its own: a tenant's clock.

    Advancing it moves only this clock; the base clock (the app's) still moves
    every tenant clock with it, so a test can drive them all from one
    :class:`FrozenClock`.
    """

    def __init__(self, base: Clock) -> None:
        self.base = base
        self._offset = _Offset()

    @property
    def offset(self) -> dt.timedelta:
        """How far ahead of the base clock this clock runs."""
        return self._offset.value

    def now(self) -> dt.datetime:
        """The base clock's time plus this clock's offset."""
        return self.base.now() + self._offset.value

    def advance(self, seconds: float) -> None:
        """Move this clock (not the base) forward by ``seconds`` (bounded)."""
        self._offset.grow(seconds)

    def reset(self) -> None:
        """Back to the base clock's time."""
        self._offset.clear()

    def __repr__(self) -> str:
        return f"OffsetClock({self.base!r} + {self.offset.total_seconds()}s)"
