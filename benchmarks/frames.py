"""When did the app paint? A watch on the frames a Textual app sends to its terminal.

Textual paints by handing each compositor update to ``App._display``, which
turns it into terminal bytes and writes them. :class:`FrameWatch` wraps that
one method on one app instance (nothing in the product changes): after
every frame it notes the time and checks the conditions benchmarks wait on
("the transactions table shows rows"). In headless mode (``run_test``)
Textual skips the conversion to bytes; the watch does it itself, so a frame
costs what it costs on a real terminal except the final ``write``.

A key press is timed from the moment it is handed to the driver's queue (as
the terminal driver does) to the end of the first frame that satisfies the
condition: :meth:`FrameWatch.press`.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

from textual import events
from textual._compositor import CompositorUpdate
from textual.app import App

__all__ = ["FrameWatch"]

Condition = Callable[[], bool]


class FrameWatch:
    """Frames of ``app``: count, last time, and waiters on conditions (see the module docstring)."""

    def __init__(self, app: App[Any]) -> None:
        self.app = app
        self.frames = 0
        self.last_frame = 0.0
        self._waiters: list[tuple[Condition, asyncio.Future[float]]] = []
        original = app._display

        def display(screen: Any, renderable: Any) -> None:
            if renderable is None:
                original(screen, renderable)
                return
            if app.is_headless and isinstance(renderable, CompositorUpdate):
                renderable.render_segments(app.console)
            original(screen, renderable)
            self._frame_done()

        # An instance attribute: only this app, only while the benchmark runs.
        app._display = display  # type: ignore[method-assign]

    def _frame_done(self) -> None:
        now = time.perf_counter()
        self.frames += 1
        self.last_frame = now
        for waiter in list(self._waiters):
            condition, future = waiter
            if future.done():
                self._waiters.remove(waiter)
            elif condition():
                self._waiters.remove(waiter)
                future.set_result(now)

    async def next_frame(self, condition: Condition = lambda: True, within: float = 60) -> float:
        """The end time (``perf_counter``) of the next frame painted while ``condition()`` holds."""
        future: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        self._waiters.append((condition, future))
        try:
            return await asyncio.wait_for(future, within)
        except TimeoutError:
            raise TimeoutError(f"no frame with the awaited state within {within} s") from None

    async def press(
        self, key: str, condition: Condition = lambda: True, within: float = 60
    ) -> float:
        """Seconds from handing ``key`` to the driver to the first frame where ``condition()`` holds."""
        future: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        self._waiters.append((condition, future))
        started = time.perf_counter()
        send_key(self.app, key)
        try:
            painted = await asyncio.wait_for(future, within)
        except TimeoutError:
            raise TimeoutError(f"{key!r}: no frame with the awaited state in {within} s") from None
        return painted - started

    async def press_each(self, key: str, *conditions: Condition, within: float = 60) -> list[float]:
        """Seconds from handing ``key`` to the driver to the first frame where each condition holds.

        One press, several moments of it (first rows, then the complete table).
        """
        loop = asyncio.get_running_loop()
        futures: list[asyncio.Future[float]] = []
        for condition in conditions:
            future: asyncio.Future[float] = loop.create_future()
            self._waiters.append((condition, future))
            futures.append(future)
        started = time.perf_counter()
        send_key(self.app, key)
        try:
            painted = await asyncio.wait_for(asyncio.gather(*futures), within)
        except TimeoutError:
            raise TimeoutError(f"{key!r}: no frame with the awaited state in {within} s") from None
        return [moment - started for moment in painted]

    async def quiet(self, seconds: float = 0.1, within: float = 30) -> None:
        """Wait until no frame has been painted for ``seconds`` (the app is idle)."""
        deadline = time.perf_counter() + within
        while time.perf_counter() < deadline:
            await asyncio.sleep(seconds / 2)
            if time.perf_counter() - self.last_frame >= seconds:
                return


def send_key(app: App[Any], key: str) -> None:
    """Queue a key press exactly as the terminal driver does (what ``Pilot.press`` does, minus its waits)."""
    character = key if len(key) == 1 else {"enter": "\r", "escape": "\x1b"}.get(key)
    event = events.Key(key, character)
    event.set_sender(app)
    assert app._driver is not None
    app._driver.send_message(event)
