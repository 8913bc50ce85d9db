"""Frames are paced from the last one painted: a change is painted at most one period after it.

Textual's own pacing keeps to a grid and, after a late tick, skips one grid
point too many: a change made just after a frame waited up to two periods
(the filter's Enter, 30 ms on 100,000 rows, for a frame that took 10). The
clock is the module's, set by the test; the frames are the app's.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from types import SimpleNamespace
from typing import Any

import pytest
from textual.app import App, ComposeResult
from textual.screen import UPDATE_PERIOD, Screen
from textual.widgets import Static

from accountdesk.tui.base import DeskModal, DeskScreen
from accountdesk.tui.seams import frames as frame_pacing
from accountdesk.tui.seams.frames import FramedScreen

pytestmark = pytest.mark.anyio


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now


class Paced(FramedScreen, Screen[None]):
    def compose(self) -> ComposeResult:
        yield Static("0", id="count")


class PacedApp(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.frames: list[float] = []

    def on_mount(self) -> None:
        self.push_screen(Paced())

    def _display(self, screen: Any, renderable: Any) -> None:
        if renderable is not None:
            self.frames.append(frame_pacing.time.monotonic())  # type: ignore[attr-defined]
        super()._display(screen, renderable)


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    clock = Clock()
    monkeypatch.setattr(frame_pacing, "time", SimpleNamespace(monotonic=clock.monotonic))
    return clock


@contextlib.asynccontextmanager
async def started(clock: Clock) -> AsyncIterator[tuple[PacedApp, Static]]:
    """The app, its first frames painted, a second later (the last frame long ago)."""
    app = PacedApp()
    async with app.run_test(size=(40, 10)) as pilot:
        await pilot.pause(0.05)
        clock.now += 1
        yield app, app.screen.query_one("#count", Static)


async def quiet() -> None:
    # Not pilot.pause: it paints a frame itself, whatever the pacing.
    for _ in range(20):
        await asyncio.sleep(0)


async def test_a_change_long_after_the_last_frame_is_painted_on_the_screen_s_next_idle(
    clock: Clock,
) -> None:
    async with started(clock) as (app, count):
        before = len(app.frames)
        count.update("1")
        await quiet()
        assert app.frames[before:] == [clock.now]


async def test_a_change_just_after_a_frame_waits_for_the_rest_of_the_period_only(
    clock: Clock,
) -> None:
    async with started(clock) as (app, count):
        count.update("1")
        await quiet()
        painted = app.frames[-1]
        clock.now = painted + UPDATE_PERIOD * 0.4
        frames = len(app.frames)
        loop = asyncio.get_running_loop()
        changed = loop.time()
        count.update("2")
        await quiet()
        idle = loop.time()
        assert len(app.frames) == frames  # not yet: one frame per period
        due = app.screen._frame_due
        assert isinstance(due, asyncio.TimerHandle)
        # The rest of the period after the screen went idle (between the two readings).
        rest = UPDATE_PERIOD * 0.6
        assert changed + rest - 1e-6 <= due.when() <= idle + rest + 1e-6
        # A second change while it waits adds no second frame.
        count.update("3")
        await quiet()
        assert app.screen._frame_due is due
        await asyncio.sleep(UPDATE_PERIOD * 3)
        assert len(app.frames) == frames + 1
        assert app.screen._frame_due is None
        assert "3" in str(app.screen._compositor.render_strips()[0].text)


def test_every_screen_and_dialog_of_the_dashboard_is_paced() -> None:
    assert issubclass(DeskScreen, FramedScreen)
    assert issubclass(DeskModal, FramedScreen)


async def test_a_frame_thrown_away_in_a_batch_does_not_hold_the_next_one_back(
    clock: Clock,
) -> None:
    """Textual renders the top screen inside an app batch and throws it away (start-up)."""
    async with started(clock) as (app, count):
        frames = len(app.frames)
        with app.batch_update():
            count.update("1")
            app.screen._on_timer_update()  # what Textual's timer may do meanwhile
        assert len(app.frames) == frames  # nothing was written in the batch
        clock.now += UPDATE_PERIOD * 0.1
        count.update("2")
        await quiet()
        assert app.frames[frames:] == [clock.now]  # at once, not a period later
