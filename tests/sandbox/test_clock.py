from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta, timezone

import pytest

from accountdesk.sandbox import FrozenClock, SystemClock
from accountdesk.sandbox.clock import MAX_OFFSET, MAX_STEP


def test_frozen_clock_moves_only_when_advanced() -> None:
    start = datetime(2026, 1, 1, tzinfo=UTC)
    clock = FrozenClock(start)
    assert clock.now() == start
    assert clock.now() == start
    clock.advance(90.5)
    assert clock.now() == start + timedelta(seconds=90.5)


def test_frozen_clock_reports_utc_and_refuses_naive_start() -> None:
    eastern = timezone(timedelta(hours=-5))
    clock = FrozenClock(datetime(2026, 1, 1, 7, tzinfo=eastern))
    assert clock.now().utcoffset() == timedelta(0)
    assert clock.now().hour == 12
    with pytest.raises(ValueError):
        FrozenClock(datetime(2026, 1, 1))


def test_system_clock_follows_real_time_plus_offset() -> None:
    clock = SystemClock()
    before = datetime.now(UTC)
    clock.advance(3600)
    now = clock.now()
    assert now.tzinfo is not None and now.utcoffset() == timedelta(0)
    assert before + timedelta(seconds=3600) <= now < datetime.now(UTC) + timedelta(seconds=3601)


@pytest.mark.parametrize("step", [-1, math.inf, math.nan])
def test_clocks_never_go_backwards(step: float) -> None:
    for clock in (FrozenClock(), SystemClock()):
        with pytest.raises(ValueError):
            clock.advance(step)


@pytest.mark.parametrize("step", [10**13, 10**400, 1e300])
def test_a_step_past_the_calendar_leaves_the_clock_usable(step: float) -> None:
    for clock in (FrozenClock(), SystemClock()):
        before = clock.now()
        with pytest.raises(ValueError):
            clock.advance(step)  # 10**13 fits a timedelta, not a datetime
        assert clock.now() >= before
        clock.advance(1)


def test_a_step_is_at_most_366_days() -> None:
    for clock in (FrozenClock(), SystemClock()):
        before = clock.now()
        clock.advance(MAX_STEP.total_seconds())
        with pytest.raises(ValueError):
            clock.advance(MAX_STEP.total_seconds() + 1)
        assert clock.now() - before >= MAX_STEP


def test_the_clock_never_gets_more_than_100_years_ahead() -> None:
    for clock in (FrozenClock(), SystemClock()):
        steps = int(MAX_OFFSET / MAX_STEP)
        for _ in range(steps):
            clock.advance(MAX_STEP.total_seconds())
        left = (MAX_OFFSET - steps * MAX_STEP).total_seconds()
        with pytest.raises(ValueError):
            clock.advance(left + 1)
        clock.advance(left)
        assert clock.offset == MAX_OFFSET
        with pytest.raises(ValueError):
            clock.advance(0.001)


def test_reset_returns_a_clock_to_its_start() -> None:
    start = datetime(2026, 1, 1, tzinfo=UTC)
    frozen = FrozenClock(start)
    frozen.advance(86_400)
    frozen.reset()
    assert frozen.now() == start and frozen.offset == timedelta(0)
    system = SystemClock()
    system.advance(86_400)
    system.reset()
    assert system.offset == timedelta(0)
    assert system.now() < datetime.now(UTC) + timedelta(seconds=60)


def test_a_frozen_clock_cannot_start_where_the_bounds_would_overflow() -> None:
    with pytest.raises(ValueError):
        FrozenClock(datetime(9990, 1, 1, tzinfo=UTC))
