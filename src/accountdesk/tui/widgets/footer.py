"""The key bar at the bottom of every screen."""

from __future__ import annotations

from textual.widgets import Footer


class AppFooter(Footer):
    """Compact, so a screen's own keys fit at 100 columns.

    The command palette's hint moves to the header: beside a full footer
    Textual draws it over the last key.
    """

    def __init__(self) -> None:
        super().__init__(compact=True, show_command_palette=False)
