"""The app's toasts: a capped stack, repeats counted, held while a dialog is open.

The rules live in :class:`~accountdesk.core.toasts.ToastStack` (no Textual);
this mixin of the app draws the stack with Textual's own toasts, and
redraws it when a toast comes, a dialog opens or closes, a screen is
shown again, or the terminal shrinks below the minimum size or grows back
(toasts wait while it is too small: crushed to a few columns they would
cover the one line the screens show then).
"""

from __future__ import annotations

import time

from textual import events
from textual.app import App
from textual.notifications import SeverityLevel

from accountdesk.core.toasts import ToastStack

from .base import DeskModal, too_small
from .messages import RedrawToasts, StackToast

__all__ = ["StackedToasts"]


class StackedToasts(App[None]):
    """Every toast of the app goes through the stack (see the module docstring)."""

    NOTIFICATION_TIMEOUT = 8

    def __init__(self, *args: object, **options: object) -> None:
        super().__init__(*args, **options)  # type: ignore[arg-type]
        self._toasts = ToastStack()
        self._toast_generation = 0
        #: The terminal was below the minimum size when last resized.
        self._toasts_too_small = False

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        """Every toast of the app: a repeat is counted, not stacked; at most three show.

        Thread-safe like Textual's: the stack changes on the app's loop.
        """
        wait = self.NOTIFICATION_TIMEOUT if timeout is None else timeout
        self.post_message(StackToast(title, message, severity, wait, markup))

    def on_stack_toast(self, message: StackToast) -> None:
        self._toasts.add(
            message.title,
            message.message,
            message.severity,
            timeout=message.timeout,
            now=time.monotonic(),
            markup=message.markup,
        )
        self.redraw_toasts()

    def on_resize(self, event: events.Resize) -> None:
        # Below the minimum the screens draw one line; toasts wait until it grows.
        small = too_small(event.size)
        if small != self._toasts_too_small:
            self._toasts_too_small = small
            if small:
                # Now, before a frame at this size: Textual shows a rack with
                # an inline style, over app.tcss's rule that hides the
                # screen's widgets, and the redraw below clears it only after
                # the next refresh (a toast drawn over the one line, ~60 ms).
                # Textual shows it again when toasts come back.
                for screen in self.screen_stack:
                    for rack in screen.query("ToastRack"):
                        rack.display = False
            self.redraw_toasts()

    def redraw_toasts(self) -> None:
        """Draw the stack again soon (a toast came, a dialog opened or closed)."""
        # Behind the redraws queued before (Textual adds a toast through a
        # message, but clears at once): only the newest counts.
        self._toast_generation += 1
        self.post_message(RedrawToasts(self._toast_generation))

    def on_redraw_toasts(self, message: RedrawToasts) -> None:
        if message.generation != self._toast_generation:
            return
        # After the pending mounts: a screen shown again (a dialog closed)
        # mounts its toasts then, and one still mounting would survive the
        # clearing below and be drawn twice.
        self.call_after_refresh(self._redraw_toasts, message.generation)

    def _redraw_toasts(self, generation: int) -> None:
        if generation != self._toast_generation:
            return
        super().clear_notifications()
        # Textual redraws toasts on the top screen only: one that landed on
        # the screen below a dialog would stay there, a ghost. Toasts live on
        # the top screen; a screen shown again gets them back from the app.
        for screen in self.screen_stack[:-1]:
            for rack in screen.query("ToastRack"):
                rack.remove_children()
        now = time.monotonic()
        # A dialog's text is never covered: while one is open the toasts wait,
        # keeping the time they have left (core.toasts); so does the one line
        # of a terminal too small.
        if too_small(self.size) or any(
            isinstance(screen, DeskModal) for screen in self.screen_stack
        ):
            self._toasts.hold(now)
        else:
            self._toasts.release(now)
        # Textual's toast: 60 wide at most and half the screen, less its
        # padding and edge. A path is broken at its separators to fit.
        width = min(60, self.size.width // 2) - 3
        # Here, not at start-up: formatting imports the contract's tables.
        from accountdesk.core.formatting import fold_paths

        for toast in self._toasts.visible(now):
            super().notify(
                fold_paths(toast.message, width),
                title=toast.display_title,
                severity=toast.severity,
                timeout=max(toast.remaining(now), 0.1),
                markup=toast.markup,
            )

    def clear_notifications(self) -> None:
        self._toasts.clear()
        self._toast_generation += 1
        super().clear_notifications()
