"""The bar at the top of every screen: app name, screen title and the service badge.

The badge is the one thing nobody may miss: black on yellow ``SANDBOX`` for
the embedded fake, white on red ``LIVE host`` for a real service.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Static


def badge_text(base_url: str, sandbox: bool) -> str:
    if sandbox:
        return " SANDBOX "
    host = urlsplit(base_url).netloc or base_url
    return f" LIVE {host} "


class AppHeader(Horizontal):
    """Title on the left, who is signed in and the service badge on the right."""

    def __init__(self, title: str) -> None:
        super().__init__(id="app-header")
        self._title = title

    def compose(self) -> ComposeResult:
        app = self.app
        sandbox = bool(getattr(app, "sandbox", True))
        base_url = str(getattr(app, "service_url", ""))
        yield Static("accountdesk", id="app-name", markup=False)
        yield Static(self._title, id="screen-title", markup=False)
        # The footer is full of each screen's own keys, so the two ways to
        # find everything else live up here.
        yield Static("^p commands · F1 help", id="header-hint", markup=False)
        yield Static(getattr(app, "signed_in_as", "") or "", id="signed-in-as", markup=False)
        badge = Static(badge_text(base_url, sandbox), id="service-badge", markup=False)
        badge.add_class("-sandbox" if sandbox else "-live")
        yield badge

    def show_service(self, base_url: str, sandbox: bool) -> None:
        """Repaint the badge after the base URL changed."""
        badge = self.query_one("#service-badge", Static)
        badge.update(badge_text(base_url, sandbox))
        badge.set_class(sandbox, "-sandbox")
        badge.set_class(not sandbox, "-live")
