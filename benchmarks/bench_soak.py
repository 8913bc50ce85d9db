"""The soak: 30 minutes of the dashboard with 100 jobs polled, a key a second, connection drops.

Only when asked (``python -m benchmarks --only soak``): it takes 30 minutes.
The run is :mod:`benchmarks.soak` in a process of its own; its verdict
(:mod:`benchmarks.soak_checks`) becomes rows: resident memory and Python's
heap at the end against right after the warm-up (ratios), and counts that must be 0
(unexpected toasts and errors, store problems, keys not handled outside a
drop). ``tests/test_soak.py`` runs the same for 2 minutes with the same checks.
"""

from __future__ import annotations

import statistics
from typing import Any

from benchmarks.measure import Result, Target, TargetKind
from benchmarks.processes import run_child
from benchmarks.registry import benchmark
from benchmarks.soak import SoakPlan
from benchmarks.soak_checks import GROWTH_LIMIT, SoakRecord, unexpected_toasts

PLAN = SoakPlan()


def plan_arguments(plan: SoakPlan) -> list[str]:
    """``python -m benchmarks.soak``'s arguments for ``plan``."""
    arguments = []
    names = ("seconds", "warm_up", "drop_every", "first_drop", "drop_seconds", "job_seconds")
    for name in (*names, "jobs"):
        arguments += ["--" + name.replace("_", "-"), str(getattr(plan, name))]
    return arguments


@benchmark(
    "soak",
    "30 min: 100 jobs polled, a key a second on every screen, a connection drop every 5 min",
    rounds=1,
    seconds=1850,
    default=False,
)
def soak(rounds: int) -> list[Result]:
    data, usage = run_child("benchmarks.soak", plan_arguments(PLAN), timeout=PLAN.seconds + 600)
    return results(data, usage.peak_rss_mb)


def results(data: dict[str, Any], peak_mb: float | None) -> list[Result]:
    """The rows of one soak's JSON (record and verdict)."""
    record = SoakRecord.from_json(data["record"])
    verdict = data["verdict"]
    minutes = record.seconds / 60
    heap = verdict["heap_growth"]
    titles: dict[str, int] = {}
    for toast in record.toasts:
        titles[toast.title] = titles.get(toast.title, 0) + 1
    counts = ", ".join(f"{count} {title!r}" for title, count in sorted(titles.items()))
    keys = sorted(record.key_ms)
    heap_baseline, heap_end = record.heap_ends()
    rows = [
        Result(
            "soak_rss",
            f"resident memory at the end of {minutes:.0f} min (median of the last samples)",
            f"the same right after a {record.warm_up / 60:.0f} min warm-up",
            "MB",
            [verdict["rss_end_mb"]],
            [verdict["rss_baseline_mb"]],
            Target(TargetKind.RATIO, 1 + GROWTH_LIMIT),
            path_peak_mb=peak_mb,
            notes=[
                f"growth {verdict['growth']:+.1%}; Python heap blocks where rounds end "
                + ("not compared (too few rounds)" if heap is None else f"{heap:+.1%}"),
                (
                    f"objects the collector tracks: {record.objects[0]:,} after the warm-up, "
                    f"{record.objects[1]:,} at the end"
                ),
                (
                    f"{record.rounds} rounds of keys, {record.jobs_started} jobs started, "
                    f"{record.unfinished_at_end} unfinished at the end, {len(record.drops)} drops"
                ),
            ],
        ),
        Result(
            "soak_heap",
            "Python heap blocks allocated where the last rounds ended, after a collection",
            "the same right after the warm-up",
            "blocks",
            [heap_end],
            [heap_baseline],
            Target(TargetKind.RATIO, 1 + GROWTH_LIMIT),
            notes=[
                (
                    "objects kept alive show here; RSS that grows while this stays level is "
                    "the allocator's high-water mark (memory freed but not given back)"
                )
            ],
        ),
        Result(
            "soak_unexpected",
            "toasts and errors other than the expected ones (see benchmarks.soak_checks)",
            "none",
            "count",
            [float(len(unexpected_toasts(record)))],
            target=Target(TargetKind.ABSOLUTE, 0),
            notes=[f"toasts: {counts}", *unexpected_toasts(record)[:5]],
        ),
        Result(
            "soak_store",
            "problems with jobs.json and recent.json, read back after each drop and at the end",
            "none",
            "count",
            [float(len(record.store_problems))],
            target=Target(TargetKind.ABSOLUTE, 0),
            notes=record.store_problems[:5],
        ),
        Result(
            "soak_keys",
            f"key -> its state painted, {len(keys):,} keys",
            "none",
            "ms",
            keys or [0.0],
            target=Target(TargetKind.REPORT),
            notes=[
                f"p95 {statistics.quantiles(keys, n=20)[-1]:.0f} ms, max {keys[-1]:.0f} ms"
                if len(keys) > 1
                else "no keys",
                f"{len(record.missed)} keys not handled, all within drops"
                if not verdict["problems"]
                else f"{len(record.missed)} keys not handled",
            ],
        ),
    ]
    return rows
