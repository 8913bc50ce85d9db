"""Timers and background work for the poller, as the host provides them.

The core runs on asyncio in its tests (:class:`AsyncioScheduler`) and on
Textual timers and workers in the app (``tui.scheduling``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Protocol

__all__ = ["AsyncioScheduler", "Cancellable", "Scheduler"]


class Cancellable(Protocol):
    def cancel(self) -> None: ...


class Scheduler(Protocol):
    """Timers and background work, as the host provides them."""

    def call_later(self, delay: float, callback: Callable[[], None]) -> Cancellable: ...

    def spawn(self, work: Callable[[], Awaitable[None]], name: str) -> Cancellable: ...


class _TaskHandle:
    def __init__(self, task: asyncio.Task[None]) -> None:
        self._task = task

    def cancel(self) -> None:
        self._task.cancel()


class AsyncioScheduler:
    """A :class:`Scheduler` on the running asyncio loop (tests, headless use)."""

    def __init__(self) -> None:
        self.tasks: set[asyncio.Task[None]] = set()

    def call_later(self, delay: float, callback: Callable[[], None]) -> Cancellable:
        return asyncio.get_running_loop().call_later(delay, callback)

    def spawn(self, work: Callable[[], Awaitable[None]], name: str) -> Cancellable:
        async def run() -> None:
            await work()

        task = asyncio.get_running_loop().create_task(run(), name=name)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return _TaskHandle(task)

    async def wait(self) -> None:
        """Wait until every spawned piece of work has ended (tests)."""
        while self.tasks:
            await asyncio.gather(*self.tasks, return_exceptions=True)
