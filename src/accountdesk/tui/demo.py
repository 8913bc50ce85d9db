"""The app's part for demos: guided tours and the sandbox panel (a base of the app).

:class:`DemoHost` is the Textual app the dashboard builds on. It adds:

- the constructor option ``tour``: a tour to start once the sign-in screen is
  up, or tours to offer in the picker (``accountdesk demo``);
- the tour's keys, bound with priority: Space or Enter (next step), Backspace
  (the last step again), Esc (leave). :func:`~accountdesk.tui.tour.tour_key`
  decides whether a press is the tour's; when it is not (no tour, a dialog
  without a caption, an input that needs the key), the binding steps aside
  and the key reaches the screen as if it were not bound;
- "Guided tours…" in the palette, in the demo app while no tour runs: the
  picker again, to start another tour (from the sign-in screen, on a reset
  sandbox) after one ended or was left;
- F4 and a palette command for the sandbox panel, once signed in to a sandbox
  (the embedded one, or one known over HTTP), never on a live service: its
  calls go through the signed-in client, whose token picks a trainee's own
  world on a multi-tenant sandbox;
- ``tour.tcss`` among the app's own stylesheets: the caption panel may sit on
  any screen, and under a caption the MFA dialog is tightened to fit 80x24.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, ClassVar, TypeAlias

from textual.actions import SkipAction
from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.screen import Screen

from .base import desk_of
from .resources import styles_path

if TYPE_CHECKING:
    from accountdesk.core.tours.tour import Tour

    from .tour import TourRunner

__all__ = ["DemoHost", "DemoStart", "demo_tours"]

#: A tour to start, or the tours to offer in the picker.
DemoStart: TypeAlias = "Tour | Sequence[Tour]"


class DemoHost(App[None]):
    """Guided tours and the sandbox panel (see the module docstring)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        # Tooltips only: the tour's caption shows these keys, so no description
        # puts them in the key bar; the manual's key tables read the tooltips.
        Binding(
            "space,enter",
            "tour('next')",
            show=False,
            priority=True,
            id="tour_next",
            tooltip="During a tour: perform the next step",
        ),
        Binding(
            "backspace",
            "tour('repeat')",
            show=False,
            priority=True,
            id="tour_repeat",
            tooltip="During a tour: perform the last step again",
        ),
        Binding(
            "escape",
            "tour('leave')",
            show=False,
            priority=True,
            id="tour_leave",
            tooltip="During a tour: leave it; the app stays where it is",
        ),
        Binding(
            "f4",
            "sandbox_panel",
            "Sandbox",
            show=False,
            priority=True,
            id="sandbox_panel",
            tooltip="The sandbox's clock, reset and scenarios",
        ),
    ]

    def __init__(self, *, tour: DemoStart | None = None) -> None:
        super().__init__()
        self.demo = tour
        self.css_path = [*self.css_path, styles_path("tour.tcss")]

    def on_mount(self) -> None:
        # Called after the app's own on_mount (Textual walks the classes in
        # order): the sign-in screen is there (the app's default screen),
        # the tour starts over it.
        if self.demo is not None:
            from .tour import begin_demo

            self.call_after_refresh(begin_demo, self, self.demo)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Hidden and disabled while they are not the tour's or the panel's:
        # priority keys that were merely skipped would still take the place of
        # the screen's own Esc, Enter and Space in the key bar and in F1.
        if action == "tour":
            runner = _current_tour(self)
            return runner is not None and runner.handles(str(parameters[0]))
        if action == "sandbox_panel":
            return _sandbox_panel_offered(self)  # also while the panel is open: F4 closes it
        return super().check_action(action, parameters)

    def action_tour(self, command: str) -> None:
        from .tour import tour_key

        if not tour_key(self, command):
            raise SkipAction()

    def action_sandbox_panel(self) -> None:
        """Open the sandbox panel, or close it; nothing on a live service."""
        from .screens.sandbox_panel import SandboxPanel

        if isinstance(self.screen, SandboxPanel):
            self.screen.dismiss()
        elif _sandbox_panel_offered(self):
            self.push_screen(SandboxPanel())

    def action_tours(self) -> None:
        """Offer the tours again (the palette's "Guided tours…"; ``accountdesk demo`` only)."""
        from .tour import offer_tours

        if self.demo is not None and _tours_offered(self):
            tours = demo_tours(self.demo)
            offer_tours(self, tours, again=desk_of(self).signed_in, prepare=self._fresh_start)

    async def _fresh_start(self) -> bool:
        """Back where ``accountdesk demo`` starts: signed out, the sandbox as new; False if refused."""
        from accountdesk.client import AccountDataError

        from .messages import ServiceFailed

        desk = desk_of(self)
        if not desk.signed_in:
            # The sign-in screen is at the bottom: close what is open over it
            # (the error log, help), or the first step found no sign-in screen.
            while len(self.screen_stack) > 1:
                self.pop_screen()
            return True
        # Tours are written for that start: their first step signs in, and their
        # codes assume no earlier block, MFA session or job (the jobs the app
        # tracks then read as gone, as after the sandbox panel's reset).
        try:
            await desk.reset_sandbox()
        except AccountDataError as error:
            self.post_message(ServiceFailed(error, "sandbox_reset"))
            return False
        await self.sign_out()
        return True

    async def sign_out(self) -> None:
        """Back to the sign-in screen (the dashboard's app does it)."""
        raise NotImplementedError

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        # Once a tour ended or was left there was no way to start another one.
        if self.demo is not None and _tours_offered(self):
            yield SystemCommand(
                "Guided tours…",
                "Pick a guided tour; it starts from the sign-in screen on a reset sandbox",
                self.action_tours,
            )
        if _sandbox_panel_offered(self):
            yield SystemCommand(
                "Sandbox panel",
                "The sandbox's clock (+1, +5, +15 min), reset and scenarios (F4)",
                self.action_sandbox_panel,
            )


def demo_tours(demo: DemoStart) -> list[Tour]:
    """The tours to offer again: the shipped ones, and the demo's own tour file if it ran one."""
    from accountdesk.core.tours.tour import Tour, shipped_tours

    started = [demo] if isinstance(demo, Tour) else list(demo)
    # A shipped tour started by its id is offered once, in its place.
    by_id = {tour.id: tour for tour in [*shipped_tours(), *started]}
    return list(by_id.values())


def _current_tour(app: App[None]) -> TourRunner | None:
    # No tour can run before its module is loaded: check without importing it.
    tour = sys.modules.get(f"{__package__}.tour")
    return tour.current_tour(app) if tour is not None else None


def _tours_offered(app: App[None]) -> bool:
    """No tour runs and the picker is not open already."""
    from .screens.tour_picker import TourPickerScreen

    if _current_tour(app) is not None:
        return False
    return not any(isinstance(screen, TourPickerScreen) for screen in app.screen_stack)


def _sandbox_panel_offered(app: App[None]) -> bool:
    desk = desk_of(app)
    return desk.is_sandbox and desk.signed_in
