"""Frames paced from the last one painted, not from a fixed grid: a key's answer is not held back.

Textual paints a screen from a repeating timer (``Screen._update_timer``,
``1 / MAX_FPS`` apart) that is paused while nothing changes and resumed on
the screen's next idle. Its ticks keep to a grid fixed when the timer
started, and a tick that comes late skips one grid point too many: a
change made 10 ms after a frame was painted waits for the second grid point
after it, 23-33 ms at 60 frames a second. That is what a filter applied
right behind the frame of the letters typed waited for (a profile of
"coffee" + Enter on 100,000 rows: the rows filtered 10 ms after the key,
painted 30 ms after it, on the grid).

:class:`PacedFrames` keeps Textual's limit (one frame per ``1 / MAX_FPS``)
and measures it from the last frame written: a screen that has something to
paint when it is idle paints at the loop's next turn if a period has passed
since then, and otherwise one period after it. A frame rendered inside an
app batch (thrown away) or an update that drew nothing does not count.
Textual's own timer is then never resumed; everything a frame does is still
Textual's (``_on_timer_update``).
"""

from __future__ import annotations

import asyncio
import time

from textual import events
from textual.screen import UPDATE_PERIOD

__all__ = ["PacedFrames"]


class PacedFrames:
    """Mixin for screens: paint as soon as the frame rate allows (module docstring)."""

    #: When this screen's last frame was rendered (``time.monotonic``).
    _painted_at = float("-inf")
    #: The frame waiting for the loop's next turn or its period (None: none waits).
    _frame_due: asyncio.TimerHandle | asyncio.Handle | None = None

    async def _on_idle(self, event: events.Idle) -> None:
        # Before Textual's own handler (later in the MRO), which would resume
        # its grid timer: the conditions are the ones it checks.
        if not self._wants_frame():
            await super()._on_idle(event)  # type: ignore[misc]
            return
        event.prevent_default()
        if self._frame_due is None:
            # Not painted here and now even when a period has passed: at the
            # loop's next turn, as Textual's resumed timer would, so what other
            # widgets have queued (the letters typed before Enter, then the
            # filter it applies) is in this frame rather than the next.
            # (The callback runs in this handler's context: the app's.)
            loop = asyncio.get_running_loop()
            wait = self._painted_at + UPDATE_PERIOD - time.monotonic()
            if wait > 0:
                self._frame_due = loop.call_later(wait, self._paint_due)
            else:
                self._frame_due = loop.call_soon(self._paint_due)

    def _wants_frame(self) -> bool:
        screen = self
        return bool(
            not screen.app._batch_count  # type: ignore[attr-defined]
            and screen.is_current  # type: ignore[attr-defined]
            and (
                screen._layout_required  # type: ignore[attr-defined]
                or screen._scroll_required  # type: ignore[attr-defined]
                or screen._repaint_required  # type: ignore[attr-defined]
                or screen._recompose_required  # type: ignore[attr-defined]
                or screen._dirty_widgets  # type: ignore[attr-defined]
            )
        )

    def _paint_due(self) -> None:
        self._frame_due = None
        try:
            if self._wants_frame():
                self._on_timer_update()  # type: ignore[attr-defined]
        except Exception as error:  # noqa: BLE001 (as a Textual timer's callback: the app's handler)
            self.app._handle_exception(error)  # type: ignore[attr-defined]

    def _compositor_refresh(self) -> None:
        # A frame written (the top screen, outside an app batch): a frame
        # rendered in a batch is thrown away, and an update with nothing to
        # draw draws nothing; neither may hold the next frame back.
        app = self.app  # type: ignore[attr-defined]
        if not app._batch_count and self is app.screen:
            self._painted_at = time.monotonic()
        super()._compositor_refresh()  # type: ignore[misc]
