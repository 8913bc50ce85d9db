"""The app's toasts: a capped stack, repeats counted, held while a dialog is open.

The rules live in :class:`~accountdesk.core.toasts.ToastStack` (no Textual);
:class:`Toasts`, held by the app (``app.toasts``), draws the stack with
Textual's own toasts, and draws it again when a toast comes, a dialog opens
or closes, a screen is shown again, or the terminal shrinks below the
minimum size or grows back (toasts wait while it is too small: crushed to a
few columns they would cover the one line the screens show then). Every
``app.notify`` comes here.
"""

from __future__ import annotations

import time
from typing import Any

from textual.app import App
from textual.geometry import Size
from textual.notifications import SeverityLevel

from accountdesk.core.toasts import ToastStack
from accountdesk.tui.base import DeskModal, too_small
from accountdesk.tui.seams.memory import let_go_of_removed_widgets

__all__ = ["Toasts"]


class Toasts:
    """The toasts of ``app`` (see the module docstring)."""

    def __init__(self, app: App[Any]) -> None:
        self.app = app
        self._stack = ToastStack()
        #: Each redraw asked for; only the newest is done.
        self._generation = 0
        #: The terminal was below the minimum size when last resized.
        self._too_small = False

    def add(
        self,
        message: str,
        *,
        title: str,
        severity: SeverityLevel,
        timeout: float,
        markup: bool,
    ) -> None:
        """A toast: a repeat is counted, not stacked; at most three show.

        Thread-safe like Textual's ``notify``: the stack changes on the app's loop.
        """
        self.app.call_later(self._add, title, message, severity, timeout, markup)

    def _add(
        self, title: str, message: str, severity: SeverityLevel, timeout: float, markup: bool
    ) -> None:
        self._stack.add(
            title, message, severity, timeout=timeout, now=time.monotonic(), markup=markup
        )
        self.redraw()

    def resized(self, size: Size) -> None:
        """The terminal has a new size: below the minimum, the toasts wait until it grows."""
        small = too_small(size)
        if small == self._too_small:
            return
        self._too_small = small
        if small:
            # Now, before a frame at this size: Textual shows a rack with an
            # inline style, over app.tcss's rule that hides the screen's
            # widgets, and the redraw below clears it only after the next
            # refresh (a toast drawn over the one line, ~60 ms). Textual
            # shows it again when toasts come back.
            for screen in self.app.screen_stack:
                for rack in screen.query("ToastRack"):
                    rack.display = False
        self.redraw()

    def redraw(self) -> None:
        """Draw the stack again soon (a toast came, a dialog opened or closed)."""
        # Behind the redraws queued before (Textual adds a toast through a
        # message, but clears at once): only the newest counts.
        self._generation += 1
        self.app.call_later(self._after_pending, self._generation)

    def _after_pending(self, generation: int) -> None:
        if generation != self._generation:
            return
        # After the pending mounts: a screen shown again (a dialog closed)
        # mounts its toasts then, and one still mounting would survive the
        # clearing below and be drawn twice.
        self.app.call_after_refresh(self._redraw, generation)

    def _redraw(self, generation: int) -> None:
        if generation != self._generation:
            return
        app = self.app
        App.clear_notifications(app)  # Textual's own, not the app's (which empties the stack)
        # Textual redraws toasts on the top screen only: one that landed on
        # the screen below a dialog would stay there, a ghost. Toasts live on
        # the top screen; a screen shown again gets them back from the app.
        # On the top screen too, each holder goes with its toast: Textual
        # removes a toast it no longer shows but not its holder, and every
        # toast that came left the ones it redrew behind (textual 8.2.8,
        # ToastRack.show), a burst of dozens each laid out with every frame.
        for screen in app.screen_stack:
            for rack in screen.query("ToastRack"):
                rack.remove_children()
        let_go_of_removed_widgets()
        now = time.monotonic()
        # A dialog's text is never covered: while one is open the toasts wait,
        # keeping the time they have left (core.toasts); so does the one line
        # of a terminal too small.
        if too_small(app.size) or any(isinstance(screen, DeskModal) for screen in app.screen_stack):
            self._stack.hold(now)
        else:
            self._stack.release(now)
        # Textual's toast: 60 wide at most and half the screen, less its
        # padding and edge. A path is broken at its separators to fit.
        width = min(60, app.size.width // 2) - 3
        # Here, not at start-up: formatting imports the contract's tables.
        from accountdesk.core.formatting import fold_paths

        for toast in self._stack.visible(now):
            App.notify(
                app,
                fold_paths(toast.message, width),
                title=toast.display_title,
                severity=toast.severity,
                timeout=max(toast.remaining(now), 0.1),
                markup=toast.markup,
            )

    def clear(self) -> None:
        """Every toast gone, those waiting too."""
        self._stack.clear()
        self._generation += 1
        App.clear_notifications(self.app)
