"""Reads and the AC-112 check cost the same at 30 jobs and at 30,000.

Cost is counted, not timed: the number of Python lines the sandbox's own
modules execute for one call (``sys.settrace``), which a scan over every job
makes grow with the number of jobs.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any

import pytest
from sandbox_helpers import GOOD

from accountdesk.sandbox import FrozenClock
from accountdesk.sandbox.engine import SandboxEngine, SandboxError

SANDBOX = str(Path(SandboxEngine.__module__.replace(".", "/")).parent)


def lines_executed(call: Callable[[], Any]) -> int:
    """How many lines of the sandbox's modules ``call`` runs."""
    count = 0

    def local(frame: FrameType, event: str, arg: Any) -> Any:
        nonlocal count
        if event == "line":
            count += 1
        return local

    def tracer(frame: FrameType, event: str, arg: Any) -> Any:
        return local if SANDBOX in frame.f_code.co_filename else None

    sys.settrace(tracer)
    try:
        call()
    except SandboxError:
        pass
    finally:
        sys.settrace(None)
    return count


def _costs(job_count: int) -> dict[str, int]:
    clock = FrozenClock()
    engine = SandboxEngine(clock, ids=1)
    token = engine.issue_token(*GOOD)["access_token"]
    users = ("user_good", "user_bulk", "user_mfa")
    for index in range(job_count):
        user = users[index % 3]
        engine.refresh_balance(token, user)
        if user != "user_mfa" and index % 30 == 0:
            clock.advance(2)  # let the identity job end so the next may start
            engine.start_identity(token, user)
    clock.advance(2)
    engine.get_balance(token, "user_good")  # the first read after completions settles them
    engine.start_identity(token, "user_good")  # running: the next start is AC-112
    return {
        "balance": lines_executed(lambda: engine.get_balance(token, "user_good")),
        "conflict": lines_executed(lambda: engine.start_identity(token, "user_good")),
        "job": lines_executed(lambda: engine.get_job(token, "user_good", "job_0001")),
    }


@pytest.mark.slow
def test_reads_and_the_conflict_check_do_not_grow_with_the_jobs() -> None:
    assert _costs(30_000) == _costs(30)
