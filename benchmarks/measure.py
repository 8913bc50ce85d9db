"""Figures of a benchmark: samples of the path and its floor, taken in turns, and what they mean.

A :class:`Result` is one row of the table: the measured path, its floor
measured in the same run, both as lists of samples (one per round), the
target, and what else is worth knowing (peak memory, notes). Everything is
plain data so a child process can hand it to the runner as JSON.

:func:`alternate` and :func:`alternate_async` take the samples A/B/A/B: path,
floor, path, floor... so a machine that gets busier (other engineers share
it) weighs on both alike.
"""

from __future__ import annotations

import gc
import statistics
import time
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass, field
from enum import StrEnum
from typing import Any

__all__ = [
    "Result",
    "Target",
    "TargetKind",
    "alternate",
    "alternate_async",
    "timed",
]


class TargetKind(StrEnum):
    """What a target bounds."""

    #: median(path) / median(floor) <= limit
    RATIO = "ratio"
    #: median(path) <= limit, in the path's unit (a latency, a CPU share)
    ABSOLUTE = "absolute"
    #: median(path) - median(floor) <= limit (CPU above idle)
    ABOVE_FLOOR = "above floor"
    #: nothing to pass or fail: figures to report
    REPORT = "report"


@dataclass(frozen=True, slots=True)
class Target:
    kind: TargetKind
    limit: float = 0.0

    def describe(self, unit: str) -> str:
        if self.kind is TargetKind.RATIO:
            return f"<= {self.limit:g}x"
        if self.kind is TargetKind.ABSOLUTE:
            return f"<= {self.limit:g} {unit}"
        if self.kind is TargetKind.ABOVE_FLOOR:
            return f"<= +{self.limit:g} {unit}"
        return "report"


@dataclass
class Result:
    """One row of the table (see the module docstring).

    ``higher_is_better`` (throughput): the ratio is floor over path, so a
    ratio above 1 still means "the path is slower than its floor".
    """

    name: str
    path: str
    floor: str
    unit: str
    path_samples: list[float]
    floor_samples: list[float] = field(default_factory=list)
    target: Target = field(default_factory=lambda: Target(TargetKind.REPORT))
    higher_is_better: bool = False
    #: Peak RSS in MB of the process(es) measured, path and floor.
    path_peak_mb: float | None = None
    floor_peak_mb: float | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def path_median(self) -> float:
        return statistics.median(self.path_samples)

    @property
    def floor_median(self) -> float | None:
        return statistics.median(self.floor_samples) if self.floor_samples else None

    @property
    def ratio(self) -> float | None:
        floor = self.floor_median
        if floor is None or floor <= 0 or self.path_median <= 0:
            return None
        if self.higher_is_better:
            return floor / self.path_median
        return self.path_median / floor

    @property
    def passed(self) -> bool | None:
        """True (PASS), False (OVER) or None (nothing to judge)."""
        kind, limit = self.target.kind, self.target.limit
        if kind is TargetKind.RATIO:
            return None if self.ratio is None else self.ratio <= limit
        if kind is TargetKind.ABSOLUTE:
            return self.path_median <= limit
        if kind is TargetKind.ABOVE_FLOOR:
            floor = self.floor_median
            return None if floor is None else self.path_median - floor <= limit
        return None

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["target"] = {"kind": self.target.kind.value, "limit": self.target.limit}
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Result:
        target = data.pop("target")
        return cls(**data, target=Target(TargetKind(target["kind"]), target["limit"]))


def timed(function: Callable[[], object]) -> float:
    """Seconds ``function()`` takes (a collection first, so garbage of the last round is not billed)."""
    gc.collect()
    started = time.perf_counter()
    function()
    return time.perf_counter() - started


def alternate(
    path: Callable[[], float], floor: Callable[[], float], rounds: int
) -> tuple[list[float], list[float]]:
    """``rounds`` samples of each, taken path, floor, path, floor..."""
    path_samples: list[float] = []
    floor_samples: list[float] = []
    for _ in range(rounds):
        path_samples.append(path())
        floor_samples.append(floor())
    return path_samples, floor_samples


async def alternate_async(
    path: Callable[[], Awaitable[float]], floor: Callable[[], Awaitable[float]], rounds: int
) -> tuple[list[float], list[float]]:
    """:func:`alternate` for coroutines."""
    path_samples: list[float] = []
    floor_samples: list[float] = []
    for _ in range(rounds):
        gc.collect()
        path_samples.append(await path())
        gc.collect()
        floor_samples.append(await floor())
    return path_samples, floor_samples
