"""Guided tours in the app: the runner that performs each step, and the caption panel.

:class:`TourRunner` performs a tour's steps on the real screens (through the
:class:`~accountdesk.tui.driver.Driver`, see :mod:`.tour_steps`) and shows
each step's caption in a :class:`CaptionPanel`, docked above the key bar of
whatever screen is on top (dialogs included), so the part of the screen the
step is about stays in view; the toasts stand just above it. The words
come from :mod:`accountdesk.core.tours.captions`.

Keys (the app binds them, with priority, and asks :func:`tour_key`): Space
or Enter performs the next step, Backspace performs the last one again, Esc
leaves the tour and keeps the app where it is. After each step the panel
takes the focus, so the keys are the tour's; a widget the presenter moves
the focus to keeps the keys it needs (an input its Space, Enter and
Backspace; a button its Enter). Esc is always the tour's.

A step runs as a task, not a worker (the driver waits for every worker to
finish), with a deadline: a step that fails or hangs says so in the caption
and the presenter goes on, tries again or leaves.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from typing import Any
from weakref import WeakKeyDictionary

from rich.text import Text
from textual.app import App
from textual.content import Content
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Input, Static, TextArea

from accountdesk.client import AccountDataError
from accountdesk.contract import JobStatus
from accountdesk.core.errors.log import InternalError
from accountdesk.core.tours.captions import (
    Caption,
    ServiceAnswer,
    StepOutcome,
    StepState,
    caption_for,
    judge_step,
)
from accountdesk.core.tours.tour import Tour
from accountdesk.tui.base import DeskScreen, desk_of
from accountdesk.tui.driver import Driver
from accountdesk.tui.messages import ServiceFailed
from accountdesk.tui.presenting import PRESENTING, presenting_in
from accountdesk.tui.seams.widgets import binds_any
from accountdesk.tui.tour_steps import StepNotPossible, perform

__all__ = [
    "STEP_TIMEOUT",
    "CaptionPanel",
    "TourRunner",
    "begin_demo",
    "current_tour",
    "offer_tours",
    "tour_key",
]

log = logging.getLogger(__name__)

#: Seconds a step may take before the caption says it did not finish.
STEP_TIMEOUT = 60.0
#: Seconds a step that has finished waits for the reads it caused before it is judged.
QUIET_TIMEOUT = 10.0
#: The keys each tour command takes by default (a focused widget may need them).
_KEYS = {"next": ("space", "enter"), "repeat": ("backspace",), "leave": ("escape",)}

_RUNNERS: WeakKeyDictionary[App[Any], TourRunner] = WeakKeyDictionary()


def current_tour(app: App[Any]) -> TourRunner | None:
    """The tour running in ``app``, if any."""
    return _RUNNERS.get(app)


class CaptionPanel(Static, can_focus=True):
    """What the audience sees and why: the caption of the tour's current step."""

    # Styled by styles/tour.tcss, one of the app's own sheets (the app's constructor): it
    # also tightens the MFA dialog under a caption, which a widget's default
    # sheet could not (the screen's own sheet would win).

    def on_resize(self) -> None:
        # Toasts stand at the bottom right (app.tcss), where this panel is:
        # there they would hide its words. They stand just above it instead,
        # however tall the step's caption (its height changes step by step).
        for rack in self.screen.query("ToastRack"):
            rack.styles.margin = (0, 0, self.outer_size.height + 1, 0)

    def on_unmount(self) -> None:
        for rack in self.screen.query("ToastRack"):
            rack.styles.clear_rule("margin")  # back to app.tcss's place

    def show_caption(self, caption: Caption) -> None:
        # Tour files are a person's text, catalogue texts are ours: all of it
        # is drawn as plain text (Text, Content parts), never parsed as markup.
        heading = f"{caption.heading} · {caption.position}"
        if presenting_in(self):
            heading = f"{PRESENTING} · {heading}"
        self.border_title = Text(heading)
        self.border_subtitle = Text(" · ".join(p for p in (caption.clock, caption.keys) if p))
        self.set_class(caption.failed, "-failed")
        parts: list[str | tuple[str, str]] = [caption.say]
        if caption.look:
            parts += [("\n▸ Look at: ", "bold"), (caption.look, "bold $accent")]
        for code in caption.codes:
            parts += [(f"\n{code.code} · {code.status}  ", "bold"), (code.message, "italic")]
            parts += [("\nMeans: ", "bold $text-muted"), (code.meaning, "$text-muted")]
            if code.next_step:
                parts += [("\nNext: ", "bold"), (code.next_step, "")]
        if caption.status:
            parts.append((f"\n{caption.status}", "bold $error" if caption.failed else "dim"))
        self.update(Content.assemble(*parts))


def _takes_caption(screen: Screen[Any]) -> bool:
    # The dashboard's screens and the MFA dialog; not help, the palette or the sandbox panel.
    from accountdesk.tui.screens.mfa import MfaDialog

    return isinstance(screen, DeskScreen | MfaDialog)


class TourRunner:
    """Runs one tour in one app (see the module docstring)."""

    def __init__(
        self,
        app: App[Any],
        tour: Tour,
        *,
        driver: Driver | None = None,
        step_timeout: float = STEP_TIMEOUT,
    ) -> None:
        self.app = app
        self.tour = tour
        #: Performs the steps; Pilot tests and screenshots give one that waits their way.
        self.driver = driver or Driver(app, _short_pause)
        self.step_timeout = step_timeout
        self.index = -1
        self.outcome = StepOutcome(StepState.DONE)
        #: How the last run of each step ended, by step index.
        self.outcomes: dict[int, StepOutcome] = {}
        self.sandbox_now: dt.datetime | None = None
        self.active = False
        self._task: asyncio.Task[None] | None = None
        self._panels: WeakKeyDictionary[Screen[Any], CaptionPanel] = WeakKeyDictionary()
        self._focus_before: WeakKeyDictionary[Screen[Any], Widget] = WeakKeyDictionary()

    # -- state -------------------------------------------------------------------

    @property
    def busy(self) -> bool:
        """A step is being performed."""
        return self._task is not None and not self._task.done()

    @property
    def at_end(self) -> bool:
        return self.index == len(self.tour.steps) - 1

    @property
    def caption(self) -> Caption:
        caption = caption_for(
            self.tour, max(self.index, 0), self.outcome, sandbox_now=self.sandbox_now
        )
        if self.active and not _takes_caption(self.app.screen):
            # A window without a caption is on top (the sandbox panel, help, the
            # palette): Space and Esc are its own until it closes, so the
            # caption below names no keys rather than wrong ones.
            caption = replace(caption, keys="")
        return caption

    async def wait_idle(self) -> None:
        """Until the step being performed (if any) has ended."""
        if self._task is not None:
            await asyncio.wait({self._task})

    # -- the presenter's keys -------------------------------------------------------

    def start(self) -> None:
        """Show the tour on the app and perform its first step."""
        if current_tour(self.app) is not None:
            raise RuntimeError("a tour is already running")
        _RUNNERS[self.app] = self
        self.active = True
        self.app.screen_change_signal.subscribe(self.app, self._screen_changed)
        self._perform(0)

    def next(self) -> None:
        """Perform the next step; after the last one, end the tour."""
        if self.busy:
            return  # one step at a time: the caption says "Working…"
        if self.at_end:
            self._end("Tour finished: the app is yours. F4 opens the sandbox panel.")
        else:
            self._perform(self.index + 1)

    def repeat(self) -> None:
        """Perform the last step again."""
        if not self.busy and self.index >= 0:
            self._perform(self.index)

    def leave(self) -> None:
        """Stop the tour; the app stays where it is."""
        if self._task is not None:
            self._task.cancel()
        self._end(f"Left the tour at step {self.index + 1} of {len(self.tour.steps)}.")

    def handles(self, command: str) -> bool:
        """Whether a tour key pressed now is the tour's (see the module docstring)."""
        screen = self.app.screen
        if not self.active or screen not in self._panels:
            return False
        focused = self.app.focused
        if command == "leave" or focused is None or isinstance(focused, CaptionPanel):
            return True
        if isinstance(focused, Input | TextArea):
            return False
        return not binds_any(focused, _KEYS[command])

    # -- performing ------------------------------------------------------------------

    def _perform(self, index: int) -> None:
        self.index = index
        self.outcome = StepOutcome(StepState.RUNNING)
        # The audience looks at this step's toasts only (the error log keeps all).
        self.app.clear_notifications()
        self._show()
        self._task = asyncio.create_task(self._run_step(index), name=f"tour step {index + 1}")

    async def _run_step(self, index: int) -> None:
        step = self.tour.steps[index]
        desk = desk_of(self.app)
        errors_before = len(desk.error_log)
        failed_before = {job.key for job in desk.tracker.jobs if job.status is JobStatus.FAILED}
        try:
            await asyncio.wait_for(perform(self.driver, step), self.step_timeout)
        except StepNotPossible as problem:
            outcome = StepOutcome.failed(str(problem))
        except TimeoutError:
            outcome = StepOutcome.failed(f"It did not finish within {self.step_timeout:g} s.")
        except AccountDataError as error:  # the sandbox's control endpoints
            self.app.post_message(ServiceFailed(error, f"tour step {index + 1}"))
            outcome = StepOutcome.failed(f"The sandbox answered: {error.title}.")
        except Exception as error:  # noqa: BLE001 - our bug: the one failure path reports it
            self.app.post_message(ServiceFailed(InternalError(error), f"tour step {index + 1}"))
            outcome = StepOutcome.failed("It could not run (details are in the log).")
        else:
            # The step's action has returned, but a screen it opened may not
            # have read yet: judged now, its error would not be in the log.
            await self._until_quiet(index)
            if step.point_at is not None:  # below the fold at 80x24: scrolled to
                await self.driver.point_at(step.point_at)
            answers = [
                ServiceAnswer(record.code, record.title, record.message)
                for record in desk.error_log.records[errors_before:]
            ]
            answers += [
                ServiceAnswer(
                    job.last_error_code,
                    f"Job failed · {job.last_error_code or 'no code'}",
                    job.last_error_message or "",
                )
                for job in desk.tracker.jobs
                if job.status is JobStatus.FAILED and job.key not in failed_before
            ]
            outcome = judge_step(step, answers)
        self.sandbox_now = await self._read_sandbox_clock()
        if self.active and self.index == index:
            self.outcome = self.outcomes[index] = outcome
            self._show()
            self._take_focus()

    async def _until_quiet(self, index: int) -> None:
        try:
            async with asyncio.timeout(QUIET_TIMEOUT):
                await self.driver.until_quiet()
        except TimeoutError:
            log.warning("tour: step %d judged while the app was still busy", index + 1)

    async def _read_sandbox_clock(self) -> dt.datetime | None:
        desk = desk_of(self.app)
        if not desk.signed_in:  # the sandbox is asked through the signed-in client
            return None
        try:
            return await desk.sandbox_clock()
        except AccountDataError as error:
            log.warning("tour: the sandbox clock could not be read: %s", error)
            return None

    # -- the caption panels ----------------------------------------------------------

    def _show(self) -> None:
        caption = self.caption
        for panel in list(self._panels.values()):
            panel.show_caption(caption)
        self._attach(self.app.screen)

    def _screen_changed(self, screen: Screen[Any]) -> None:
        if self.active:
            self._show()  # the keys shown depend on the screen on top

    def _attach(self, screen: Screen[Any], tries: int = 0) -> None:
        if not self.active or not _takes_caption(screen):
            return
        if not screen.is_mounted:  # pushed a moment ago: mount once it is
            if tries < 20:
                self.app.call_after_refresh(self._attach, screen, tries + 1)
            return
        panel = self._panels.get(screen)
        if panel is None:  # one panel per screen, kept until the tour ends
            panel = self._panels[screen] = CaptionPanel(id="tour-caption")
            screen.add_class("-touring")
            screen.mount(panel)
        panel.show_caption(self.caption)
        if screen is self.app.screen:
            self.app.call_after_refresh(self._take_focus)

    def _take_focus(self) -> None:
        """Focus the caption of the top screen, so Space and Enter are the tour's."""
        screen = self.app.screen
        panel = self._panels.get(screen)
        if not self.active or panel is None or not panel.is_mounted or self.busy:
            return
        focused = screen.focused
        if focused is not None and focused is not panel and screen not in self._focus_before:
            self._focus_before[screen] = focused
        screen.set_focus(panel)

    def _end(self, farewell: str) -> None:
        self.active = False
        _RUNNERS.pop(self.app, None)
        for screen, panel in list(self._panels.items()):
            screen.remove_class("-touring")
            if panel.is_mounted:
                panel.remove()
            before = self._focus_before.get(screen)
            if before is not None and before.is_mounted:
                screen.set_focus(before)
        self._panels.clear()
        self.app.notify(farewell, title="Tour", markup=False)


def tour_key(app: App[Any], command: str) -> bool:
    """Do a tour command (``next``, ``repeat``, ``leave``); False when the key is not the tour's."""
    runner = current_tour(app)
    if runner is None or not runner.handles(command):
        return False
    {"next": runner.next, "repeat": runner.repeat, "leave": runner.leave}[command]()
    return True


def begin_demo(app: App[Any], demo: Tour | Sequence[Tour]) -> None:
    """Start ``demo`` in ``app``: one tour at once, or a picker of several."""
    if isinstance(demo, Tour):
        app.call_later(start_tour, app, demo)
    else:
        offer_tours(app, list(demo))


async def start_tour(app: App[Any], tour: Tour) -> None:
    """Start ``tour`` on a sandbox that serves its scenario packs (signed out: tours sign in)."""
    await desk_of(app).serve_scenarios(tour.scenario_files)
    TourRunner(app, tour).start()


def offer_tours(
    app: App[Any],
    tours: list[Tour],
    *,
    again: bool = False,
    prepare: Callable[[], Awaitable[bool]] | None = None,
) -> None:
    """The tour picker; the tour picked starts once ``prepare`` (if any) says it may."""
    from accountdesk.tui.screens.tour_picker import TourPickerScreen

    async def picked(tour: Tour | None) -> None:
        if tour is not None and (prepare is None or await prepare()):
            await start_tour(app, tour)

    app.push_screen(TourPickerScreen(tours, again=again), callback=picked)


async def _short_pause() -> None:
    # A live app: let the screens take in what a step did before the next part.
    await asyncio.sleep(0.05)
