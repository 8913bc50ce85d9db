"""The key bar at the bottom of every screen: the app's four keys first, always.

Quit, Help, Jobs and Errors must show at 80 and 100 columns on every screen
(issue "Daily use"). Textual lays keys out in binding order and the screen's
come first, so a busy screen pushed the app's off the right edge. This footer
puts the app's keys first; a screen's keys that do not fit are cut at the
right and are still in F1 help and the command palette.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.widgets import Footer

__all__ = ["GLOBAL_ACTIONS", "AppFooter"]

#: The app's keys, in the order they show (an action, whichever node binds it).
GLOBAL_ACTIONS = ("quit", "help", "show_jobs", "show_error_log")


def _rank(widget: object) -> int:
    action = str(getattr(widget, "action", "")).removeprefix("app.")
    return GLOBAL_ACTIONS.index(action) if action in GLOBAL_ACTIONS else len(GLOBAL_ACTIONS)


class AppFooter(Footer):
    """Compact, the app's keys first.

    The command palette's hint lives in the header: beside a full footer
    Textual draws it over the last key.
    """

    def __init__(self) -> None:
        super().__init__(compact=True, show_command_palette=False)

    def compose(self) -> ComposeResult:
        keys = list(super().compose())
        # sorted() is stable: the screen's keys keep their own order after the app's.
        yield from sorted(keys, key=_rank)
