"""The app's seams: a screen told when its first frame is written, a crash as a few lines, the default screen switched away from.

Installed on the app instance (:func:`install_app_seams`, from the app's constructor)
rather than overridden in a base class: Textual calls ``self._display`` and
``self._handle_exception`` by attribute, so an instance's own function is
the one it calls, and the app needs no base class that only carries these.

**A screen's first frame written is said to it**
(:class:`~accountdesk.tui.messages.ScreenShown`,
posted from ``App._display``, where a frame goes to the terminal unless a
batch holds it back). The sign-in screen starts the embedded sandbox's build
and the preload of the transactions screen only then: before, they took GIL
turns from the first frame. ``App.on_ready`` is no substitute: it is the
app's, once, and when ``on_mount`` awaits it comes before the first frame
is written (the start-up batch throws that one away). No upstream report.

**A crash is a few lines, not Textual's report.** ``App._handle_exception``
prints the traceback with its locals, as wide as the terminal, and writes
nothing to the log. Ours logs the traceback (redacted) and leaves the app's
``crash_report`` to print once the terminal is restored: the secret typed
in the sign-in form was in the locals Textual printed. Textual has no public
hook (Textualize/textual#2818, closed).

**The default screen can be switched away from.** Textual gives a screen a
result callback when it pushes it; switching away pops one, so the default
screen (the sign-in screen, the bottom of the stack) needs one too
(``Screen._push_result_callback``), or the first sign-in fails with an
``IndexError``. Textual's ``MODES`` would do without it, at the cost of a
mode per screen stack. Related: Textualize/textual#2650 (open).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from weakref import WeakSet

from textual.app import App
from textual.screen import Screen

from accountdesk.tui.messages import ScreenShown

__all__ = ["as_default_screen", "install_app_seams"]


def install_app_seams(app: App[Any], crashed: Callable[[Exception], None]) -> None:
    """The app's seams: first frames said to their screens, and ``crashed(error)`` for a crash."""
    shown: WeakSet[Screen[Any]] = WeakSet()
    display = app._display

    def _display(screen: Screen[Any], renderable: Any) -> None:
        display(screen, renderable)
        if renderable is not None and not app._batch_count and screen not in shown:
            shown.add(screen)
            screen.post_message(ScreenShown())

    def _handle_exception(error: Exception) -> None:
        if app._exception is None:  # Pilot re-raises the first one in tests
            app._exception = error
            app._exception_event.set()
        app._return_code = 1
        crashed(error)
        app.bell()
        app.panic()  # ends the app, with nothing of Textual's to print

    app._display = _display  # type: ignore[method-assign]
    app._handle_exception = _handle_exception  # type: ignore[method-assign]


def as_default_screen(screen: Screen[Any]) -> Screen[Any]:
    """``screen`` made fit to be the app's default screen (see the module docstring)."""
    screen._push_result_callback(screen, None)
    return screen
