"""Two minutes of the soak (``python -m benchmarks --only soak`` runs thirty), with the same checks.

The real dashboard headless, 100 jobs kept unfinished and polled, a key a
second through every screen, the sandbox's clock moved each round, the
connection dropped twice (the sandbox server stops and listens again on the
same port). Run as a process of its own (``python -m benchmarks.soak``), so
its memory is its own, started as the run starts (``tests/soak_early.py``)
so that it runs beside the suite rather than holding a worker.
The verdict must hold no problem: no toast or error but the expected ones,
the store's files intact, every key handled outside the drops, resident
memory at most 5 % above where it was after the warm-up. Plus the checks
can fail: a record with a leak, a stray toast, a broken file is judged so.
"""

from __future__ import annotations

import gc
import json
import sys
from pathlib import Path

import pytest
from benchmarks.bench_soak import results
from benchmarks.soak_checks import SoakRecord, Toast, store_problems, verdict
from benchmarks.soak_tape import SoakTape

import soak_early

PLAN = soak_early.plan()


@pytest.mark.slow
@pytest.mark.loopback
def test_two_minutes_of_soak_leave_nothing_behind(tmp_path: Path) -> None:
    # Started with the run when it could be (tests/soak_early.py), else here.
    timeout = PLAN.seconds + 240
    done = soak_early.wait_started(timeout) or soak_early.run_here(tmp_path / "soak.json", timeout)
    assert done.returncode == 0 and done.result is not None, done.log
    data = done.result
    record, judged = SoakRecord.from_json(data["record"]), data["verdict"]
    # Memory included: RSS within 5 % of where it was after the warm-up.
    assert judged["problems"] == [], judged
    assert len(record.drops) == 2 and record.rounds >= 2
    assert record.jobs_started >= PLAN.jobs and record.unfinished_at_end >= PLAN.jobs // 2
    assert any(toast.title == "Job completed" for toast in record.toasts)
    # The benchmark's rows come from the same data.
    rows = {row.name: row for row in results(data, None)}
    assert rows["soak_unexpected"].passed and rows["soak_store"].passed
    assert rows["soak_rss"].passed


def _record(**changes: object) -> SoakRecord:
    record = SoakRecord(120, 40, jobs=2, jobs_polled=2, drops=[(50.0, 53.0)])
    record.rss_mb = [(at, 100.0) for at in range(0, 121, 5)]
    for name, value in changes.items():
        setattr(record, name, value)
    return record


def test_the_checks_can_fail(tmp_path: Path) -> None:
    assert verdict(_record())["problems"] == []
    leak = [(at, 100.0 + at / 10) for at in range(0, 121, 5)]
    assert "RSS grew" in verdict(_record(rss_mb=leak))["problems"][0]
    stray = [Toast(10.0, "Internal error", "error", "internal")]
    assert "Internal error" in verdict(_record(toasts=stray))["problems"][0]
    # A connection error outside a drop is unexpected; inside one it is not.
    outside = [(10.0, "connect", "Cannot connect to the service")]
    inside = [(51.0, "connect", "Cannot connect to the service")]
    assert verdict(_record(errors=outside))["problems"]
    assert verdict(_record(errors=inside))["problems"] == []
    assert verdict(_record(drops=[]))["problems"] == ["the connection was never dropped"]
    # Python's heap where rounds end: compared once enough rounds ended after the warm-up.
    level = [(at, 500_000) for at in range(41, 121, 10)]
    grows = [(at, 500_000 + at * 2_000) for at in range(41, 121, 10)]
    assert verdict(_record(round_heap=level))["problems"] == []
    assert "heap grew" in verdict(_record(round_heap=grows))["problems"][0]
    assert verdict(_record(round_heap=grows[:5]))["heap_growth"] is None
    assert verdict(_record(harness_errors=["RuntimeError: x"]))["problems"]
    assert verdict(_record(missed=[(10.0, "x", "transactions")]))["problems"]
    # The store check reads the files back itself.
    (tmp_path / "jobs.json").write_text('{"services": {"s": [{"user_id": "u", "job_id": "j"}]}}')
    (tmp_path / "recent.json").write_text('{"s": ["u"]}')
    assert store_problems(tmp_path, "s", {"u/j"}, "u") == []
    assert store_problems(tmp_path, "s", {"u/j", "u/k"}, "u")
    (tmp_path / "jobs.json").write_text('{"services": ')
    (tmp_path / "jobs.json.unreadable-20261126").write_text("")
    assert len(store_problems(tmp_path, "s", {"u/j"}, "u")) == 2


def test_the_soak_notes_what_it_sees_without_an_object_per_event() -> None:
    # The soak measures its own process: what it keeps is measured too.
    tape = SoakTape(120, 40, jobs=2)
    gc.collect()
    before = sys.getallocatedblocks()
    for n in range(10_000):
        at = n / 100
        tape.sample(at, 100.0 + n, 500_000 + n)
        tape.key(float(n))
        tape.toast(at, "Job completed", "information", None)
        tape.error(at, "connect", "Cannot connect to the service")
        if n % 100 == 0:
            tape.round_ended(at, 500_000 + n)
    gc.collect()
    assert sys.getallocatedblocks() - before < 100
    # Yet the record made from it, once the run is over, holds every event.
    record = tape.record()
    assert len(record.toasts) == len(record.errors) == len(record.key_ms) == 10_000
    assert record.toasts[-1] == Toast(99.99, "Job completed", "information", None)
    assert record.errors[5] == (0.05, "connect", "Cannot connect to the service")
    assert record.rss_mb[3] == (0.03, 103.0) and record.heap_blocks[3] == (0.03, 500_003)
    assert record.rounds == 100 and record.round_heap[1] == (1.0, 500_100)
    assert SoakRecord.from_json(json.loads(json.dumps(record.to_json()))).toasts == record.toasts
