"""What every screen and dialog of the dashboard shares.

- ``desk``: the one typed way to reach the session's state (and, through it,
  the signed-in client). Checked at run time, so a screen mounted in a
  foreign app fails with a clear message instead of an ``AttributeError``.
- Worker failures: Textual posts a worker's state change to the node that
  started it and does not bubble it, so an unexpected exception in a worker
  (``exit_on_error=False``) would vanish and leave a screen on "Loading…".
  :class:`ForwardsWorkerFailures` turns it into the one failure message,
  :class:`~accountdesk.tui.messages.ServiceFailed` with an
  :class:`~accountdesk.core.errors.log.InternalError`: the screen leaves its
  loading state as for any failure, and the app logs the traceback and shows
  "internal error, details in the log".
- No blinking cursor when the app says so (snapshots, screenshots, demos).
- A terminal below :data:`MIN_SIZE`: every screen hides what it holds
  (``App.-too-small`` in ``app.tcss``) and draws one line saying what it
  needs instead of a crushed layout (a button 0 cells wide crashed rich);
  it draws normally again as soon as the terminal grows. Keys typed
  meanwhile are dropped (they would act unseen), except Ctrl+Q and Ctrl+C.
  The focus comes back where it was, or to a widget given it meanwhile (a
  tour's caption, as a step ends).
  Textual's command palette is not one of our screens and would draw over
  that line: it does not open then (:func:`terminal_too_small`), and a terminal shrinking under
  it closes it (a search half typed is cheap to type again; a palette nobody
  can see would take the keys).
- A screen or dialog removed is let go at once, with everything it drew: it
  leaves the jobs signal (Textual's ``Signal`` kept each subscriber alive,
  whole, until the next publish, and no job changes while a person reads),
  and Textual's cache of removed widgets' rendered lines is emptied
  (:mod:`accountdesk.tui.seams.memory`; the soak's memory grew by both,
  ``tests/tui/test_memory_churn.py``).
"""

from __future__ import annotations

from typing import Any, TypeVar
from weakref import WeakKeyDictionary

from rich.console import RenderableType
from rich.text import Text
from textual import events
from textual.app import App
from textual.command import CommandPalette
from textual.geometry import Size
from textual.screen import ModalScreen, Screen
from textual.signal import Signal
from textual.widget import Widget
from textual.widgets import Input
from textual.worker import Worker, WorkerState

from accountdesk.core.desk import Desk
from accountdesk.tui.messages import ServiceFailed, SettingsUnusable
from accountdesk.tui.seams.frames import FramedScreen
from accountdesk.tui.seams.memory import let_go_of_removed_widgets

__all__ = [
    "MIN_SIZE",
    "DeskModal",
    "DeskScreen",
    "ForwardsWorkerFailures",
    "desk_of",
    "fit_terminal",
    "jobs_signal",
    "settings_usable",
    "terminal_too_small",
]

ResultT = TypeVar("ResultT")

#: The smallest terminal every screen and dialog is laid out for (columns, lines):
#: the MFA dialog's question, answer, attempts and buttons, and the key bar's
#: four app keys, fit at 60x16.
MIN_SIZE = Size(60, 16)
_TOO_SMALL = "-too-small"
#: The keys that still act while a terminal too small shows its one line.
_KEYS_WHEN_TOO_SMALL = frozenset({"ctrl+q", "ctrl+c"})
#: The widget each hidden screen had focused, per screen (gone with the screen).
_focus_kept: WeakKeyDictionary[Screen[Any], Widget | None] = WeakKeyDictionary()


def too_small_text(size: Size, *, presenting: bool = False) -> str:
    """What a screen draws instead of itself in a terminal below :data:`MIN_SIZE`."""
    text = (
        f"accountdesk needs at least {MIN_SIZE.width}x{MIN_SIZE.height}; "
        f"this terminal is {size.width}x{size.height}"
    )
    return f"PRESENTING · {text}" if presenting else text


def too_small(size: Size) -> bool:
    """A terminal of ``size`` is below :data:`MIN_SIZE` (in either direction)."""
    return size.width < MIN_SIZE.width or size.height < MIN_SIZE.height


def terminal_too_small(app: App[Any]) -> bool:
    """The terminal is below :data:`MIN_SIZE`: every screen shows the one line."""
    return app.has_class(_TOO_SMALL)


def fit_terminal(app: App[Any], size: Size) -> None:
    """Show every screen, or the one line, for a terminal of ``size``.

    The class goes on each screen of the stack, not only on the app: Textual
    restyles the active screen alone when the app's classes change, and a
    screen below keeps its old layout rules until it is laid out again,
    at the new size.
    """
    small = too_small(size)
    app.set_class(small, _TOO_SMALL)
    for screen in app.screen_stack:
        if small and isinstance(screen, CommandPalette):
            # Its own Escape: its search is cancelled and the screen below
            # gets its focus back (module docstring).
            app.call_later(screen.run_action, "escape")
        if screen.has_class(_TOO_SMALL) == small:
            continue
        if small:
            # Hidden widgets lose focus: give it back where the person left it.
            _focus_kept[screen] = screen.focused
        screen.set_class(small, _TOO_SMALL)
        # Now, not when the app is next idle: Textual lays the screen out at
        # the new size as soon as the resize is handled.
        app.stylesheet.update_nodes(screen.walk_children(with_self=True), animate=False)
        if not small:
            kept = _focus_kept.pop(screen, None)
            if kept is not None and kept.is_attached:
                # Now, not after the next frame: keys typed as the terminal
                # grew back went nowhere until then. Given back as the app's
                # focus is (from_app_focus), so a box does not select its
                # text and the next key does not type over it.
                screen.set_focus(kept, scroll_visible=False, from_app_focus=True)
        screen.refresh()


def height_class(breakpoints: list[tuple[int, str]] | None, height: int) -> str | None:
    """The class of ``VERTICAL_BREAKPOINTS`` for ``height``, as Textual picks it."""
    for breakpoint, name in sorted(breakpoints or [], reverse=True):
        if height >= breakpoint:
            return name
    return None


def _height_class_now(screen: Screen[Any], height: int) -> None:
    # Textual lays a screen out at its new size and paints it, then sets the
    # height class for that size: the first frame after growing from 20x6
    # drew the layout for short terminals (one-line fields and buttons).
    # Set and styled here, before Textual's handler; it then finds nothing
    # to change.
    breakpoints = screen.VERTICAL_BREAKPOINTS
    if breakpoints is None:
        breakpoints = screen.app.VERTICAL_BREAKPOINTS
    wanted = height_class(breakpoints, height)
    names = {name for _, name in breakpoints or []}
    if wanted is None or {name for name in names if screen.has_class(name)} == {wanted}:
        return
    for name in names:
        screen.set_class(name == wanted, name, update=False)
    screen.app.stylesheet.update_nodes(screen.walk_children(with_self=True), animate=False)


class _FitsTheTerminal:
    """Screens draw the one line when the terminal is too small (see the module docstring)."""

    def on_mount(self) -> None:
        fit_terminal(self.app, self.app.size)  # type: ignore[attr-defined]

    def on_resize(self, event: events.Resize) -> None:
        # Before Textual's own handler (Screen._on_resize, later in the MRO:
        # Textual calls a class's on_ handler before its bases'), which lays
        # the screen out at the new size at once.
        fit_terminal(self.app, event.size)  # type: ignore[attr-defined]
        _height_class_now(self, event.size.height)  # type: ignore[arg-type]

    def set_focus(
        self, widget: Widget | None, scroll_visible: bool = True, from_app_focus: bool = False
    ) -> None:
        # A widget given the focus while the terminal is too small (hidden,
        # so Textual would refuse it) gets it when the terminal grows back:
        # a tour step that ended then gave its caption the focus, and the
        # focus came back to the button the step had pressed instead.
        screen: Any = self
        if widget is not None and screen.has_class(_TOO_SMALL) and screen in _focus_kept:
            _focus_kept[screen] = widget
            return
        super().set_focus(widget, scroll_visible, from_app_focus)  # type: ignore[misc]

    #: The screen's first resume was handled (see ``_on_screen_resume``).
    _resumed = False

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        # Before Textual's own handler (Screen._on_screen_resume), which restyles
        # every widget of the screen on each resume. The first comes right
        # after the screen's mount, which styled each widget (and every class
        # changed since restyled its own): for the sign-in screen, 26 nodes
        # styled twice before the first frame (~9 ms). Later resumes (back
        # from a screen above) still restyle.
        if not self._resumed:
            self._resumed = True
            event.refresh_styles = False

    def render(self) -> RenderableType:
        if self.has_class(_TOO_SMALL):  # type: ignore[attr-defined]
            app = self.app  # type: ignore[attr-defined]
            presenting = desk_of(app).presenting
            return Text(too_small_text(app.size, presenting=presenting), style="bold")
        return super().render()  # type: ignore[misc, no-any-return]


def settings_usable(app: App[Any]) -> bool:
    """Validate the desk's settings if not yet done (the first check waits for it).

    False when they cannot be used: :class:`SettingsUnusable` is posted and
    the app quits with the problem (started from StartSettings, the desk
    validates after the first frame; nothing may be sent before).
    """
    from accountdesk.core.settings.values import ConfigError

    try:
        desk_of(app).settings  # noqa: B018 (validated on first use)
    except ConfigError as error:
        app.post_message(SettingsUnusable(str(error)))
        return False
    return True


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
            from accountdesk.core.errors.log import InternalError  # only on a failure

            failure = InternalError(error, operation=worker.name)
            self.post_message(ServiceFailed(failure, worker.name))  # type: ignore[attr-defined]


def _let_go(screen: Screen[Any]) -> None:
    # A subscriber's callback holds its screen, kept as the value of a dict
    # weak on the screen: it never dies there (see the module docstring).
    signal = getattr(screen.app, "jobs_changed_signal", None)
    if isinstance(signal, Signal):
        signal.unsubscribe(screen)
    let_go_of_removed_widgets()


def _steady_cursors(screen: Screen[Any]) -> None:
    if not getattr(screen.app, "cursor_blink", True):
        for field in screen.query(Input):
            field.cursor_blink = False


class DeskScreen(FramedScreen, _FitsTheTerminal, ForwardsWorkerFailures, Screen[ResultT]):
    """Base of every full screen."""

    @property
    def desk(self) -> Desk:
        return desk_of(self.app)

    @property
    def jobs_changed_signal(self) -> Signal[None]:
        return jobs_signal(self.app)

    def on_mount(self) -> None:
        _steady_cursors(self)

    def on_unmount(self) -> None:
        _let_go(self)


class DeskModal(FramedScreen, _FitsTheTerminal, ForwardsWorkerFailures, ModalScreen[ResultT]):
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
        self.show_presenting()
        _toasts_follow(self.app)

    def show_presenting(self) -> None:
        """The ``PRESENTING`` badge over the dialog's screen, while presenting (or none)."""
        from accountdesk.tui.presenting import PresentingBadge

        badges = self.query(PresentingBadge)
        if self.desk.presenting and not badges:
            self.mount(PresentingBadge())
        elif not self.desk.presenting:
            badges.remove()

    def on_unmount(self) -> None:
        if self._held:
            self._held = False
            self.desk.poller.release()
        _toasts_follow(self.app)
        _let_go(self)


def _toasts_follow(app: App[Any]) -> None:
    # Toasts wait while a dialog is open (the app holds them): redraw on the change.
    toasts = getattr(app, "toasts", None)
    if toasts is not None:
        toasts.redraw()
