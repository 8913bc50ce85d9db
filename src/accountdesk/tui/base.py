"""What every screen and dialog of the dashboard shares.

- ``desk``: the one typed way to reach the session's state (and, through it,
  the signed-in client). Checked at run time, so a screen mounted in a
  foreign app fails with a clear message instead of an ``AttributeError``.
- Worker failures: Textual posts a worker's state change to the node that
  started it and does not bubble it, so an unexpected exception in a worker
  (``exit_on_error=False``) would vanish and leave a screen on "Loading…".
  :class:`ForwardsWorkerFailures` turns it into the one failure message,
  :class:`~accountdesk.tui.messages.ServiceFailed` with an
  :class:`~accountdesk.core.errors.InternalError`: the screen leaves its
  loading state as for any failure, and the app logs the traceback and shows
  "internal error, details in the log".
- No blinking cursor when the app says so (snapshots, screenshots, demos).
"""

from __future__ import annotations

from typing import Any, TypeVar

from textual.app import App
from textual.screen import ModalScreen, Screen
from textual.signal import Signal
from textual.widgets import Input
from textual.worker import Worker, WorkerState

from accountdesk.core.desk import Desk
from accountdesk.core.errors import InternalError

from .messages import ServiceFailed

__all__ = ["DeskModal", "DeskScreen", "ForwardsWorkerFailures", "desk_of", "jobs_signal"]

ResultT = TypeVar("ResultT")


def desk_of(app: App[Any]) -> Desk:
    """The desk of the app a widget runs in."""
    desk = getattr(app, "desk", None)
    if not isinstance(desk, Desk):
        raise RuntimeError(f"{type(app).__name__} has no accountdesk Desk")
    return desk


def jobs_signal(app: App[Any]) -> Signal[None]:
    """Published (with no value) whenever a tracked job changes."""
    signal = getattr(app, "jobs_changed_signal", None)
    if not isinstance(signal, Signal):
        raise RuntimeError(f"{type(app).__name__} publishes no jobs signal")
    return signal


class ForwardsWorkerFailures:
    """Mixin for screens and the app: a worker that raised becomes a ServiceFailed."""

    # A plain handler name, not @on: Textual collects decorated handlers only
    # from a message pump's own class body, but finds on_* methods on mixins.
    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        worker = event.worker
        if event.state is not WorkerState.ERROR or worker.error is None:
            return
        error = worker.error
        if isinstance(error, Exception):
            failure = InternalError(error, operation=worker.name)
            self.post_message(ServiceFailed(failure, worker.name))  # type: ignore[attr-defined]


def _steady_cursors(screen: Screen[Any]) -> None:
    if not getattr(screen.app, "cursor_blink", True):
        for field in screen.query(Input):
            field.cursor_blink = False


class DeskScreen(ForwardsWorkerFailures, Screen[ResultT]):
    """Base of every full screen."""

    @property
    def desk(self) -> Desk:
        return desk_of(self.app)

    @property
    def jobs_changed_signal(self) -> Signal[None]:
        return jobs_signal(self.app)

    def on_mount(self) -> None:
        _steady_cursors(self)


class DeskModal(ForwardsWorkerFailures, ModalScreen[ResultT]):
    """Base of every dialog: live job polling is held while one is open."""

    @property
    def desk(self) -> Desk:
        return desk_of(self.app)

    _held = False

    def on_mount(self) -> None:
        _steady_cursors(self)
        desk = self.desk
        # Textual calls on_mount of every class in the MRO, so a subclass that
        # also calls super().on_mount() runs this twice: hold once per dialog,
        # or closing it leaves polling held for the rest of the session.
        if desk.signed_in and not self._held:
            self._held = True
            desk.poller.hold()

    def on_unmount(self) -> None:
        if self._held:
            self._held = False
            self.desk.poller.release()
