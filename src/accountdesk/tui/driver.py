"""Drive the dashboard by script: sign in, look a user up, run a screen's action, answer MFA.

One set of steps for everything that operates the real screens without a
person: the Pilot tests, ``accountdesk screenshots`` and the guided tours.
Each step does what a person would (fills the same fields, runs the same
action a key runs) and then waits until the app is idle again: every worker
finished and every posted message handled.

``pause`` is how to wait for the screen: Pilot's ``pause`` in tests, a short
sleep in a live app.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import Any

from textual.app import App
from textual.message_pump import MessagePump
from textual.widgets import Button, Input, OptionList
from textual.worker import WorkerCancelled, WorkerFailed, WorkerState

from accountdesk.tui.base import desk_of

__all__ = ["Driver"]


_BUSY = (WorkerState.PENDING, WorkerState.RUNNING)
#: Longest a pressed button's flash is waited out (Textual's is 0.2 s).
_FLASH_BOUND = 1.0


async def _handled(node: MessagePump, *, after_refresh: bool = False) -> None:
    """Until ``node`` has handled every message posted to it before this call."""
    done: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def mark() -> None:
        if not done.done():
            done.set_result(None)

    # Messages are handled in order: a callback posted now runs after them.
    posted = node.call_after_refresh(mark) if after_refresh else node.call_later(mark)
    if posted:
        await done


async def _polls_over(app: App[Any]) -> bool:
    """Wait for the polls in flight (plain tasks, not workers); whether there were any."""
    scheduler = getattr(getattr(app, "desk", None), "scheduler", None)
    wait, tasks = getattr(scheduler, "wait", None), getattr(scheduler, "tasks", None)
    if wait is None or not tasks:
        return False
    await wait()
    return True


async def _yield_to_app() -> None:
    for _ in range(3):
        await asyncio.sleep(0)


class Driver:
    """Scripted steps over a running :class:`~accountdesk.tui.app.AccountDeskApp`."""

    def __init__(self, app: App[Any], pause: Callable[[], Awaitable[None]] | None = None) -> None:
        self.app = app
        self._pause = pause or _yield_to_app

    async def settle(self, rounds: int = 3) -> None:
        """Let every worker finish and every posted message be handled."""
        for _ in range(rounds):
            # A failed worker was reported by the app's one failure path; a
            # cancelled one belonged to a screen that went away (a probe at sign-in).
            with contextlib.suppress(WorkerFailed, WorkerCancelled):
                await self.app.workers.wait_for_complete()
            await _polls_over(self.app)
            await self._pause()
        await self._redraws_over()
        await self._flashes_over()

    async def _redraws_over(self) -> None:
        # A screen that spaces its redraws out (the jobs screen, REDRAW_EVERY)
        # says so with ``redraw_due``: what it owes is shown before a step ends.
        loop = asyncio.get_running_loop()
        until, waited = loop.time() + _FLASH_BOUND, False
        while loop.time() < until and any(
            getattr(screen, "redraw_due", False) for screen in self.app.screen_stack
        ):
            waited = True
            await asyncio.sleep(0.02)
        if waited:
            await self._pause()  # the screen redrawn

    async def _flashes_over(self) -> None:
        # A pressed button flashes on a real-time timer: a screen read within it
        # (a snapshot, a screenshot) would depend on how fast the machine is.
        loop = asyncio.get_running_loop()
        until, waited = loop.time() + _FLASH_BOUND, False
        while loop.time() < until and any(
            button.has_class("-active")
            for screen in self.app.screen_stack
            for button in screen.query(Button)
        ):
            waited = True
            await asyncio.sleep(0.02)
        if waited:
            await self._pause()  # the screen redrawn without the flash

    async def until_quiet(self) -> None:
        """Until the top screen has mounted and read, and every answer was handled.

        :meth:`settle` waits for the workers there are; a screen just pushed
        may not have started its read yet (it mounts first, and some read only
        after their first paint), which in a live app can take longer than a
        few pauses. This waits on the app's state instead. Unbounded (a job
        polled every moment keeps the app busy): callers set a deadline.
        """
        app = self.app
        while True:
            screen = app.screen
            # What was posted to the app so far: a screen to push, a failure
            # bubbled up from a screen (the app records it in the error log).
            await _handled(app)
            if screen.is_mounted:
                # Its queue, then its after-refresh callbacks: a read that
                # starts after the first paint has started once these ran.
                await _handled(screen, after_refresh=True)
            busy = any(worker.state in _BUSY for worker in app.workers)
            with contextlib.suppress(WorkerFailed, WorkerCancelled):
                await app.workers.wait_for_complete()
            busy = await _polls_over(app) or busy
            await _handled(app)
            if not busy and screen.is_mounted and app.screen is screen:
                return
            await self._pause()

    async def _fill(self, selector: str, value: str) -> None:
        await self._screen_built()
        self.app.screen.query_one(selector, Input).value = value

    async def _screen_built(self) -> None:
        """Until the top screen has built its widgets (bounded: then the query says what is missing).

        A screen switched to a moment ago has not: picking a tour from the
        palette signs out, and the tour's first step filled the new sign-in
        screen's secret box before it had one (an internal error, one time
        in two). Polled, not waited for through the app's queue: a script may
        drive the app from one of its own callbacks (the crash tests do).
        """
        for _ in range(50):
            if self.app.screen.is_mounted:
                return
            await self._pause()

    async def sign_in(self, *, api_key: str | None = None, api_secret: str | None = None) -> None:
        """Sign in from the sign-in screen (pre-filled on the sandbox; pass values to type others)."""
        if api_key is not None:
            await self._fill("#api-key", api_key)
        if api_secret is not None:
            await self._fill("#api-secret", api_secret)
        await self._pause()
        await self.app.screen.run_action("sign_in")
        await self.settle()

    async def open_account(self, user_id: str) -> None:
        """From the lookup screen, look ``user_id`` up and wait for the account screen to load."""
        await self._fill("#user-id", user_id)
        await self._pause()
        await self.app.screen.run_action("lookup")
        await self.settle()

    async def run(self, action: str) -> None:
        """Run an action of the current screen (``"refresh_balance"``) or the app (``"app.show_jobs"``)."""
        await self.app.screen.run_action(action)
        await self.settle()

    async def answer_mfa(self, answer: str) -> None:
        """Type ``answer`` in the open MFA dialog and submit it."""
        await self._fill("#mfa-answer", answer)
        await self.app.screen.run_action("submit")
        await self.settle()

    async def advance_sandbox_clock(self, seconds: float) -> None:
        """Move the sandbox's clock (control endpoint), then poll every job at once."""
        desk = desk_of(self.app)
        await desk.advance_sandbox_clock(seconds)
        desk.poller.poll_now(force=True)
        await self.settle()

    async def point_at(self, option_id: str) -> bool:
        """Highlight the option ``option_id`` in a list on the top screen, scrolled into view.

        False when no list there holds it (the step pointed at nothing shown).
        """
        for options in self.app.screen.query(OptionList):
            index = next(
                (
                    i
                    for i in range(options.option_count)
                    if options.get_option_at_index(i).id == option_id
                ),
                None,
            )
            if index is not None:
                options.highlighted = index
                options.scroll_to_highlight()
                await self.settle()
                return True
        return False

    async def back(self) -> None:
        """Close the top screen (Escape on most screens)."""
        self.app.pop_screen()
        await self.settle()
