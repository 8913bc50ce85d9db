"""The benchmarks by name: what each measures, how many rounds by default, how to run it."""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from benchmarks.measure import Result

__all__ = ["BENCHMARKS", "Benchmark", "benchmark", "run_benchmark"]


@dataclass(frozen=True, slots=True)
class Benchmark:
    name: str
    title: str
    rounds: int
    function: Callable[..., Any]
    #: Seconds one run takes at the default rounds on an idle 2-core machine (for --list).
    seconds: float
    #: Part of a plain ``python -m benchmarks`` (the long ones are asked for by name).
    default: bool = True


#: Filled by the ``bench_*`` modules as they are imported (see :func:`load_all`).
BENCHMARKS: dict[str, Benchmark] = {}


def benchmark(
    name: str, title: str, *, rounds: int, seconds: float, default: bool = True
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register ``function(rounds) -> list[Result]`` (sync or async) as benchmark ``name``."""

    def register(function: Callable[..., Any]) -> Callable[..., Any]:
        BENCHMARKS[name] = Benchmark(name, title, rounds, function, seconds, default)
        return function

    return register


def load_all() -> dict[str, Benchmark]:
    """Import every benchmark module (in table order) and return the registry."""
    import importlib

    # Importing registers; this order is the order of the table.
    modules = (
        "bench_startup",
        "bench_bulk",
        "bench_stream",
        "bench_process",
        "bench_polling",
        "bench_client",
        "bench_amounts",
        "bench_hostile",
        "bench_sandbox",
        "bench_presenting",
        "bench_error_log",
    )
    for module in (*modules, "bench_soak", "bench_sandbox_cache"):
        importlib.import_module(f"{__package__}.{module}")

    return BENCHMARKS


def run_benchmark(name: str, rounds: int | None = None) -> list[Result]:
    """Run one benchmark in this process."""
    bench = load_all()[name]
    outcome = bench.function(rounds or bench.rounds)
    if inspect.isawaitable(outcome):
        outcome = asyncio.run(outcome)  # type: ignore[arg-type]
    return list(outcome)
