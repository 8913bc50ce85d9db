"""A screen's frames: when one is painted, and that none is painted at a size or in a batch it must not be.

:class:`FramedScreen` is a base of every screen and dialog of ours
(``DeskScreen``, ``DeskModal``). It reaches into Textual's frame machinery
(``Screen._on_timer_update``, ``Screen._compositor_refresh`` and the flags
they read) for three things:

**Frames paced from the last one painted, not from a fixed grid.** Textual
paints a screen from a repeating timer (``Screen._update_timer``, ``1 /
MAX_FPS`` apart) that is paused while nothing changes and resumed on the
screen's next idle. Its ticks keep to a grid fixed when the timer started,
and a tick that comes late skips one grid point too many (``Timer._run``:
after a skip, ``count`` already names the next point and the loop adds one
more): a change made 10 ms after a frame was painted waits for the second
grid point after it, 23-33 ms at 60 frames a second. That is what a filter
applied right behind the frame of the letters typed waited for ("coffee" +
Enter on 100,000 rows: filtered 10 ms after the key, painted 30 ms after
it). Here a screen that has something to paint when it is idle paints at
the loop's next turn if a period has passed since its last frame was
written, and otherwise one period after it; Textual's limit (one frame per
``1 / MAX_FPS``) holds, its grid timer is never resumed, and everything a
frame does is still Textual's own (``_on_timer_update``). A frame rendered
inside an app batch (thrown away) or an update that drew nothing does not
count. Gain: the filter key at 1,000,000 rows 47.5 -> 36.7 ms, keys the
moment rows appear 33-37 -> 21-27 ms (docs/developer/streaming.md, seventh
round). ``TEXTUAL_FPS`` only makes the grid finer (240: 48 -> 23 ms, at four
times the frames). Upstream: the skip came with Textualize/textual#5465
(which fixed #5464); the off-by-one itself is not reported (the draft is in
docs/developer/seams.md).

**No frame while the app holds a size the screens have not been given.**
Textual hands a new terminal size to the screens 1/120 s after the app gets
it (Textualize/textual#6471); the app shows or hides every screen's widgets
for the new size at once (``base.fit_terminal``). A frame painted in
between was laid out at the old size with the new size's widgets (grown
from 20x6: a label 0 cells wide crashed rich). What waits is drawn at the
new size. No upstream report of the crash.

**A screen's first frame is not rendered and thrown away inside a batch.**
Textual renders the top screen's frame in ``_compositor_refresh`` even while
an app batch is open, and ``App._display`` throws it away: the sign-in
screen was rendered whole inside the start-up batch, then again (~15 ms
before the first frame). A screen's first frame is marked for a whole
repaint instead, which its next update after the batch does. No upstream
report.
"""

from __future__ import annotations

import asyncio
import time

from textual import events
from textual.screen import UPDATE_PERIOD

__all__ = ["FramedScreen"]


class FramedScreen:
    """A base of our screens and dialogs: their frames (see the module docstring)."""

    #: When this screen's last frame was rendered (``time.monotonic``).
    _painted_at = float("-inf")
    #: The frame waiting for the loop's next turn or its period (None: none waits).
    _frame_due: asyncio.TimerHandle | asyncio.Handle | None = None
    #: A frame of this screen was rendered outside a batch (so it was written).
    _drawn = False

    def on_idle(self, event: events.Idle) -> None:
        # Before Textual's own handler (Screen._on_idle, later in the MRO),
        # which would resume its grid timer: the conditions are the ones it
        # checks. With a frame to paint, Textual's handler is skipped.
        if not self._wants_frame():
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
                or screen._repaint_required
                or screen._recompose_required  # type: ignore[attr-defined]
                or screen._dirty_widgets  # type: ignore[attr-defined]
            )
        )

    def _paint_due(self) -> None:
        self._frame_due = None
        try:
            if self._wants_frame():
                self._on_timer_update()
        except Exception as error:  # noqa: BLE001 (as a Textual timer's callback: the app's handler)
            self.app._handle_exception(error)  # type: ignore[attr-defined]

    def _on_timer_update(self) -> None:
        # Not while the app has a new size the screens have not been given
        # (module docstring): what waits is drawn at the new size.
        if self.app._resize_event is not None:  # type: ignore[attr-defined]
            return
        super()._on_timer_update()  # type: ignore[misc]

    def _compositor_refresh(self) -> None:
        app = self.app  # type: ignore[attr-defined]
        in_batch = app._batch_count
        if not in_batch and self is app.screen:
            # A frame written: the one the next is paced from. A frame
            # rendered in a batch is thrown away, and an update with nothing
            # to draw draws nothing; neither may hold the next frame back.
            self._painted_at = time.monotonic()
        if in_batch and not self._drawn and self is app.screen and not app.is_inline:
            # The first frame, inside a batch: repainted whole after it (a
            # screen's first frame only; later batches are Textual's as they were).
            self._repaint_required = True
            return
        if not in_batch:
            self._drawn = True
        super()._compositor_refresh()  # type: ignore[misc]
