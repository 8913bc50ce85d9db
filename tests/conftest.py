"""Shared test configuration.

Async tests use anyio's pytest plugin (it ships with httpx's dependency anyio),
so no extra plugin is needed: mark a test ``@pytest.mark.anyio``.
"""

from __future__ import annotations

import gc
import subprocess

import pytest

# The dashboard's tests make and drop many Textual apps: hundreds of
# thousands of objects that live the length of a test. Python's default
# thresholds start a collection every 700 allocations and walk them again and
# again; collecting less often is what a test run needs (memory is not what it
# measures: the soak and the benchmarks run in processes of their own).
gc.set_threshold(50_000, 20, 20)


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


_SOAK = pytest.StashKey[subprocess.Popen[bytes] | None]()


def pytest_configure(config: pytest.Config) -> None:
    # The two-minute soak runs beside the suite, not in a worker's time (soak_early).
    from soak_early import start

    config.stash[_SOAK] = start(config)


def pytest_unconfigure(config: pytest.Config) -> None:
    from soak_early import stop

    stop(config.stash.get(_SOAK, None))  # the run ended before its test read it (-x, Ctrl+C)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # The soak started with the run (soak_early): its test goes last, when the
    # soak has long ended, rather than waiting for it in a worker's time. A
    # stable sort: every other test keeps its place.
    items.sort(key=lambda item: item.nodeid.startswith("tests/test_soak.py::test_two_minutes"))
