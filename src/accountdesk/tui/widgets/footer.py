"""The key bar at the bottom of every screen: the app's four keys first, always.

Quit, Help, Jobs and Errors must show at 80 and 100 columns on every screen
(issue "Daily use"). Textual lays keys out in binding order and the screen's
come first, so a busy screen pushed the app's off the right edge. This footer
puts the app's keys first; a screen's keys that do not fit are cut at the
right and are still in F1 help and the command palette.

It is also cheaper than Textual's: it composes its keys again only when the
keys shown change (Textual's does at every focus change), and its keys do
not restyle themselves one by one once mounted.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.app import ComposeResult
from textual.widgets import Footer
from textual.widgets._footer import FooterKey  # not exported; Textual is pinned

if TYPE_CHECKING:
    from textual.screen import Screen

__all__ = ["GLOBAL_ACTIONS", "AppFooter"]

#: The app's keys, in the order they show (an action, whichever node binds it).
GLOBAL_ACTIONS = ("quit", "help", "show_jobs", "show_error_log")


def _rank(widget: object) -> int:
    action = str(getattr(widget, "action", "")).removeprefix("app.")
    return GLOBAL_ACTIONS.index(action) if action in GLOBAL_ACTIONS else len(GLOBAL_ACTIONS)


def _shown_bindings(screen: Screen[Any]) -> tuple[Any, ...]:
    """Everything the footer draws its keys from, comparable."""
    return tuple(
        (key, binding, enabled, tooltip)
        for key, (_, binding, enabled, tooltip) in screen.active_bindings.items()
        if binding.show
    )


class AppFooter(Footer):
    """Compact, the app's keys first.

    The command palette's hint lives in the header: beside a full footer
    Textual draws it over the last key.
    """

    def __init__(self) -> None:
        super().__init__(compact=True, show_command_palette=False)
        #: What the keys shown were composed from (None: not composed yet).
        self._shown: tuple[Any, ...] | None = None

    def bindings_changed(self, screen: Screen[Any]) -> None:
        # Textual composes the footer again at every focus change, once per
        # change even when several come before a refresh: a dozen times
        # while the transactions screen opens. Most changes
        # leave the keys shown as they were; then there is nothing to do.
        if screen.app.app_focus and self.is_attached and screen is self.screen:
            shown = _shown_bindings(screen)
            if shown == self._shown:
                return
            self._shown = shown
        super().bindings_changed(screen)

    def compose(self) -> ComposeResult:
        keys = list(super().compose())
        for key in keys:
            if isinstance(key, FooterKey):
                # Each key's compact watcher adds this class once mounted, and
                # that is a style pass per key, a dozen keys each time the footer
                # is composed. Already there, the watcher changes nothing.
                key.add_class("-compact", update=False)
        # sorted() is stable: the screen's keys keep their own order after the app's.
        yield from sorted(keys, key=_rank)
