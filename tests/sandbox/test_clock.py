from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta, timezone

import pytest

from accountdesk.sandbox import FrozenClock, SystemClock


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


def test_a_step_past_the_year_9999_leaves_the_clock_usable() -> None:
    for clock in (FrozenClock(), SystemClock()):
        before = clock.now()
        with pytest.raises(OverflowError):
            clock.advance(10**13)  # inside timedelta's range, past datetime's
        assert clock.now() >= before
