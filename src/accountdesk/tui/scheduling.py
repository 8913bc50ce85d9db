"""The desk's timers and background work, as Textual timers and workers."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.app import App
from textual.timer import Timer
from textual.worker import Worker

from accountdesk.core.scheduler import Cancellable

__all__ = ["TextualScheduler"]


class _TimerHandle:
    def __init__(self, timer: Timer) -> None:
        self._timer = timer

    def cancel(self) -> None:
        self._timer.stop()


class TextualScheduler:
    """A :class:`~accountdesk.core.poller.Scheduler` for the app: its timers, its workers."""

    def __init__(self, app: App[Any]) -> None:
        self.app = app

    def call_later(self, delay: float, callback: Callable[[], None]) -> Cancellable:
        return _TimerHandle(self.app.set_timer(delay, callback, name="jobs-poll"))

    def spawn(self, work: Callable[[], object], name: str) -> Cancellable:
        worker: Worker[object] = self.app.run_worker(
            work(),  # type: ignore[arg-type]
            name=name,
            group="jobs",
            exit_on_error=False,
        )
        return worker
