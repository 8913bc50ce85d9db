"""The desk's timers and background work: Textual timers, plain asyncio tasks.

Polls run as plain tasks on the app's loop, not Textual workers: a worker
posts a state message to the app three times in its life (pending, running,
done), each dispatched through the app's queue; with a thousand tracked jobs
that was ~0.25 ms per poll at 40 polls a second. What a worker gave for free
is kept: a poll that raises reaches the app's one failure path, and the
Driver's settle waits for the tasks as it does for workers.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from textual.app import App
from textual.timer import Timer

from accountdesk.core.jobs.scheduler import AsyncioScheduler, Cancellable
from accountdesk.tui.messages import ServiceFailed

__all__ = ["TextualScheduler"]


class _TimerHandle:
    def __init__(self, timer: Timer) -> None:
        self._timer = timer

    def cancel(self) -> None:
        self._timer.stop()


class TextualScheduler(AsyncioScheduler):
    """A :class:`~accountdesk.core.jobs.poller.Scheduler` for the app: its timers, tasks on its loop."""

    def __init__(self, app: App[Any]) -> None:
        super().__init__()
        self.app = app

    def call_later(self, delay: float, callback: Callable[[], None]) -> Cancellable:
        return _TimerHandle(self.app.set_timer(delay, callback, name="jobs-poll"))

    def spawn(self, work: Callable[[], Awaitable[None]], name: str) -> Cancellable:
        async def reported() -> None:
            try:
                await work()
            except asyncio.CancelledError:
                raise
            except Exception as error:  # noqa: BLE001 (our own bug: shown, never a crash)
                # Imported here: the error catalogue is not needed before the first frame.
                from accountdesk.core.errors.log import InternalError

                self.app.post_message(ServiceFailed(InternalError(error, operation=name), name))

        return super().spawn(reported, name)
