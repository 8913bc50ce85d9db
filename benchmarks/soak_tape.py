"""What the soak notes while it runs, in flat arrays: the measurer adds no object per event.

The soak measures the memory of its own process, so whatever it keeps of
what it saw is measured too. Kept as a :class:`~benchmarks.soak_checks.SoakRecord`
(lists of tuples, a ``Toast`` per toast), a 30-minute run made ~7,000 small
objects, ~6,000 after the warm-up (toasts, key times, samples): about a quarter of
the heap's growth where rounds end, and each one a block that can keep a
pool of the allocator in use. Here each kind of event is a few
:class:`array.array` columns (one buffer each, outside Python's small-object
heap) and each distinct text is kept once; :meth:`SoakTape.record` makes the
record once the run is over, when nothing is measured any more.
"""

from __future__ import annotations

from array import array
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

from benchmarks.soak_checks import SoakRecord, Toast

__all__ = ["SoakTape"]


@dataclass
class _Distinct:
    """Each distinct value once; an event holds its index."""

    values: list[Any] = field(default_factory=list)
    index: dict[Hashable, int] = field(default_factory=dict)

    def of(self, value: Hashable) -> int:
        found = self.index.get(value)
        if found is None:
            found = self.index[value] = len(self.values)
            self.values.append(value)
        return found


@dataclass
class SoakTape:
    """The soak's notes while it runs (see the module docstring)."""

    seconds: float
    warm_up: float
    jobs: int = 0
    _sample_at: array[float] = field(default_factory=lambda: array("d"))
    _sample_rss: array[float] = field(default_factory=lambda: array("d"))
    _sample_blocks: array[int] = field(default_factory=lambda: array("q"))
    _round_at: array[float] = field(default_factory=lambda: array("d"))
    _round_blocks: array[int] = field(default_factory=lambda: array("q"))
    _key_ms: array[float] = field(default_factory=lambda: array("d"))
    _toast_at: array[float] = field(default_factory=lambda: array("d"))
    _toast_kind: array[int] = field(default_factory=lambda: array("L"))
    _error_at: array[float] = field(default_factory=lambda: array("d"))
    _error_kind: array[int] = field(default_factory=lambda: array("L"))
    _kinds: _Distinct = field(default_factory=_Distinct)
    # Rare events, kept as the record keeps them.
    drops: list[tuple[float, float]] = field(default_factory=list)
    missed: list[tuple[float, str, str]] = field(default_factory=list)
    store_problems: list[str] = field(default_factory=list)
    harness_errors: list[str] = field(default_factory=list)
    rounds: int = 0
    jobs_started: int = 0
    jobs_polled: int = 0
    unfinished_at_end: int = 0
    objects: tuple[int, int] = (0, 0)

    def sample(self, at: float, rss_mb: float, blocks: int) -> None:
        self._sample_at.append(at)
        self._sample_rss.append(rss_mb)
        self._sample_blocks.append(blocks)

    def round_ended(self, at: float, blocks: int) -> None:
        self.rounds += 1
        self._round_at.append(at)
        self._round_blocks.append(blocks)

    def key(self, ms: float) -> None:
        self._key_ms.append(ms)

    def toast(self, at: float, title: str, severity: str, failure: str | None) -> None:
        self._toast_at.append(at)
        self._toast_kind.append(self._kinds.of(("toast", title, severity, failure)))

    def error(self, at: float, failure: str, title: str) -> None:
        self._error_at.append(at)
        self._error_kind.append(self._kinds.of(("error", failure, title)))

    @property
    def toasts(self) -> int:
        return len(self._toast_at)

    @property
    def last_rss_mb(self) -> float:
        return self._sample_rss[-1] if self._sample_rss else 0.0

    def record(self) -> SoakRecord:
        """Everything noted, as the checks read it."""
        kinds = self._kinds.values
        toasts = []
        for at, kind in zip(self._toast_at, self._toast_kind, strict=True):
            _, title, severity, failure = kinds[kind]
            toasts.append(Toast(at, title, severity, failure))
        errors = []
        for at, kind in zip(self._error_at, self._error_kind, strict=True):
            _, failure, title = kinds[kind]
            errors.append((at, failure, title))
        return SoakRecord(
            self.seconds,
            self.warm_up,
            jobs=self.jobs,
            rss_mb=list(zip(self._sample_at, self._sample_rss, strict=True)),
            heap_blocks=list(zip(self._sample_at, self._sample_blocks, strict=True)),
            round_heap=list(zip(self._round_at, self._round_blocks, strict=True)),
            toasts=toasts,
            errors=errors,
            drops=list(self.drops),
            key_ms=list(self._key_ms),
            missed=list(self.missed),
            store_problems=list(self.store_problems),
            rounds=self.rounds,
            jobs_started=self.jobs_started,
            jobs_polled=self.jobs_polled,
            unfinished_at_end=self.unfinished_at_end,
            objects=self.objects,
            harness_errors=list(self.harness_errors),
        )
