"""What a soak saw, and its verdict: memory after warm-up, toasts, the store's files, keys.

:class:`SoakRecord` is plain data (a child process hands it over as JSON);
:func:`verdict` judges it against the plan:

- **memory**: the resident set at the end against the one right after the
  warm-up (each the median of a few samples, so one busy moment does not
  decide): at most 5 % more; and the same for Python's heap (blocks
  allocated) where rounds of keys end, once the collector ran, when enough
  rounds ended after the warm-up to tell (the 30-minute soak; not the
  two-minute one);
- **toasts**: only the expected ones. "Job started" and "Job completed" at
  any time; an error toast only while the connection was dropped (or
  within :data:`DROP_GRACE` seconds after: requests in flight and polls in
  backoff fail then), and only of an error that says the connection failed
  (connect, network, time-out). Any other toast or error record is named;
- **the store's files**: read back independently (``json``, not the
  store) after each drop and at the end; they must parse, hold every job
  the app tracks and the user looked up, and nothing may have been set
  aside as unreadable;
- **keys**: every key's awaited state was painted, except while the
  connection was down;
- **jobs**: as many were polled at least once as were kept unfinished.
"""

from __future__ import annotations

import json
import statistics
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

__all__ = [
    "DROP_GRACE",
    "EXPECTED_TITLES",
    "GROWTH_LIMIT",
    "TRANSPORT_FAILURES",
    "SoakRecord",
    "Toast",
    "store_problems",
    "verdict",
]

#: The most the resident set may grow after the warm-up (a share).
GROWTH_LIMIT = 0.05
#: Toasts any moment of the soak may show (jobs are started and finish all the time).
EXPECTED_TITLES = frozenset({"Job started", "Job completed"})
#: Failures a dropped connection causes (core.errors' FailureKind values).
TRANSPORT_FAILURES = frozenset({"connect", "network", "timeout"})
#: Seconds after a drop ends in which its failures may still be reported: an
#: attempt's whole-request deadline (10 s) plus a poll's longest backoff (30 s).
DROP_GRACE = 40.0
#: Samples at each end of the measured span whose median is compared.
ENDS = 3


@dataclass(slots=True)  # one per toast of the run: ~2,000 in 30 minutes, in the measured process
class Toast:
    at: float
    title: str
    severity: str
    #: For an error toast: the failure kind of its record ("" for a coded answer).
    failure: str | None = None


@dataclass
class SoakRecord:
    """Everything a soak observed; times are seconds since it started."""

    seconds: float
    warm_up: float
    #: Jobs kept unfinished and polled.
    jobs: int = 0
    rss_mb: list[tuple[float, float]] = field(default_factory=list)
    #: Python's heap at the same moments: blocks allocated (``sys.getallocatedblocks``).
    #: RSS that steps up while these stay level is the allocator's high-water
    #: mark, not objects kept alive.
    heap_blocks: list[tuple[float, int]] = field(default_factory=list)
    #: The same where each round of keys ends (the lookup screen), after a
    #: collection: what the memory check on the heap compares.
    round_heap: list[tuple[float, int]] = field(default_factory=list)
    toasts: list[Toast] = field(default_factory=list)
    #: Error records of the session: (time, failure kind or "", title).
    errors: list[tuple[float, str, str]] = field(default_factory=list)
    drops: list[tuple[float, float]] = field(default_factory=list)
    key_ms: list[float] = field(default_factory=list)
    #: Keys whose awaited state never came: (time, key, what).
    missed: list[tuple[float, str, str]] = field(default_factory=list)
    store_problems: list[str] = field(default_factory=list)
    rounds: int = 0
    jobs_started: int = 0
    jobs_polled: int = 0
    unfinished_at_end: int = 0
    #: Objects the collector tracks, after the warm-up and at the end.
    objects: tuple[int, int] = (0, 0)
    #: A part of the soak itself that failed (its drops, its jobs): no verdict can stand.
    harness_errors: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SoakRecord:
        data = dict(data)
        toasts = [Toast(**toast) for toast in data.pop("toasts")]
        objects = tuple(data.pop("objects"))
        return cls(**data, toasts=toasts, objects=objects)

    def in_drop(self, at: float) -> bool:
        return any(start <= at <= end + DROP_GRACE for start, end in self.drops)

    def heap_ends(self) -> tuple[float, float]:
        """The median heap blocks where rounds end, just after the warm-up and at the end
        ((0, 0) when too few rounds ended after it to tell)."""
        measured = [blocks for at, blocks in self.round_heap if at >= self.warm_up]
        if len(measured) < 2 * ENDS:
            return (0.0, 0.0)
        return statistics.median(measured[:ENDS]), statistics.median(measured[-ENDS:])

    def rss_ends(self) -> tuple[float, float]:
        """The median RSS (MB) just after the warm-up and at the end."""
        measured = [mb for at, mb in self.rss_mb if at >= self.warm_up]
        if len(measured) < 2 * ENDS:
            raise ValueError(f"only {len(measured)} RSS samples after the warm-up")
        return statistics.median(measured[:ENDS]), statistics.median(measured[-ENDS:])


def unexpected_toasts(record: SoakRecord) -> list[str]:
    found = []
    for toast in record.toasts:
        if toast.title in EXPECTED_TITLES:
            continue
        if toast.failure in TRANSPORT_FAILURES and record.in_drop(toast.at):
            continue
        found.append(f"{toast.at:.0f} s: {toast.severity} toast {toast.title!r}")
    for at, failure, title in record.errors:
        if failure not in TRANSPORT_FAILURES or not record.in_drop(at):
            found.append(f"{at:.0f} s: error {title!r} ({failure or 'a coded answer'})")
    return found


def verdict(record: SoakRecord) -> dict[str, Any]:
    """The soak's figures and every check that failed (``problems``, empty when all passed)."""
    baseline, end = record.rss_ends()
    growth = end / baseline - 1
    problems = []
    if growth > GROWTH_LIMIT:
        problems.append(
            f"RSS grew {growth:.1%} after the warm-up ({baseline:.1f} -> {end:.1f} MB), "
            f"over {GROWTH_LIMIT:.0%}"
        )
    unexpected = unexpected_toasts(record)
    problems += unexpected
    problems += [f"store: {problem}" for problem in record.store_problems]
    problems += [
        f"{at:.0f} s: {key!r} ({what}) was not handled"
        for at, key, what in record.missed
        if not record.in_drop(at)
    ]
    if not record.drops:
        problems.append("the connection was never dropped")
    if record.jobs_polled < record.jobs:
        problems.append(f"{record.jobs_polled} jobs polled, fewer than the {record.jobs} kept")
    problems += [f"the soak failed: {error}" for error in record.harness_errors]
    heap_baseline, heap_end = record.heap_ends()
    heap_growth = heap_end / heap_baseline - 1 if heap_baseline else None
    if heap_growth is not None and heap_growth > GROWTH_LIMIT:
        problems.append(
            f"Python's heap grew {heap_growth:.1%} after the warm-up "
            f"({heap_baseline:,.0f} -> {heap_end:,.0f} blocks where rounds end), "
            f"over {GROWTH_LIMIT:.0%}"
        )
    return {
        "rss_baseline_mb": baseline,
        "rss_end_mb": end,
        "growth": growth,
        "heap_growth": heap_growth,
        "unexpected": unexpected,
        "problems": problems,
    }


def store_problems(data_dir: Path, service_key: str, tracked: set[str], user_id: str) -> list[str]:
    """What is wrong with the files in ``data_dir`` (one service and key's state folder),
    read back without the store."""
    problems = [f"{aside.name} was set aside" for aside in data_dir.rglob("*.unreadable-*")]
    try:
        jobs = json.loads((data_dir / "jobs.json").read_text(encoding="utf-8"))
        records = jobs["services"][service_key]
        on_disk = {f"{record['user_id']}/{record['job_id']}" for record in records}
    except (OSError, ValueError, KeyError, TypeError) as error:
        problems.append(f"jobs.json cannot be read back: {type(error).__name__}: {error}")
    else:
        if on_disk != tracked:
            problems.append(
                f"jobs.json holds {len(on_disk)} jobs, the app tracks {len(tracked)} "
                f"({len(on_disk ^ tracked)} differ)"
            )
    try:
        recent = json.loads((data_dir / "recent.json").read_text(encoding="utf-8"))
        if user_id not in recent[service_key]:
            problems.append(f"recent.json does not hold {user_id}")
    except (OSError, ValueError, KeyError, TypeError) as error:
        problems.append(f"recent.json cannot be read back: {type(error).__name__}: {error}")
    return problems
