"""The bar at the top of every screen: app name, screen title and the service badge.

While presenting (presenter mode), ``PRESENTING`` stands before the service
badge: it never gives way for anything else.

The badge is the one thing nobody may miss: black on yellow ``SANDBOX`` for
the embedded fake (``SANDBOX host`` for one served over HTTP), white on red
``LIVE host`` for a real service, ``LIVE host · not encrypted`` when that is
plain HTTP to another machine, and a neutral ``? host`` until the app knows
which (core.service_identity: asked right after the first frame).
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from rich.cells import cell_len
from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Static

from accountdesk.core.service_identity import ServiceKind
from accountdesk.tui.base import desk_of
from accountdesk.tui.presenting import presenting_badge

if TYPE_CHECKING:
    from accountdesk.core.desk import Desk

#: Cells of horizontal padding around each header part (``padding: 0 1``).
_PADDING = 2
#: Parts that give way, in this order, when the title would not fit.
_OPTIONAL_PARTS = ("#header-hint", "#signed-in-as")
#: The two ways to find everything; the short form stands in before the hint gives
#: way: the key bar leaves its Help out first, as the header says F1 help.
HINT, SHORT_HINT = "^p commands · F1 help", "F1 help"


def badge_text(base_url: str, kind: ServiceKind, embedded: bool, *, not_encrypted: bool) -> str:
    """The badge's words (see the module docstring)."""
    if embedded:
        return " SANDBOX "
    host = urlsplit(base_url).netloc or base_url
    if kind is ServiceKind.UNKNOWN:
        return f" ? {host} "
    word = "SANDBOX" if kind is ServiceKind.SANDBOX else "LIVE"
    warning = " · not encrypted" if not_encrypted and kind is ServiceKind.LIVE else ""
    return f" {word} {host}{warning} "


def _badge(desk: Desk) -> tuple[str, ServiceKind]:
    kind = desk.identity.kind(
        embedded=desk.embedded, is_sandbox=desk.is_sandbox, signed_in=desk.signed_in
    )
    plain = desk.identity.not_encrypted(desk.service_url, embedded=desk.embedded)
    return badge_text(desk.service_url, kind, desk.embedded, not_encrypted=plain), kind


class AppHeader(Horizontal):
    """Title on the left, who is signed in and the service badge on the right.

    The title (which names the user a screen is about) matters more than the
    hints beside it: when the terminal is too narrow for everything, the
    key hint goes first, then the signed-in key, and only then is the title
    shortened (with an ellipsis).
    """

    def __init__(self, title: str) -> None:
        super().__init__(id="app-header")
        self._title = title

    def compose(self) -> ComposeResult:
        desk = desk_of(self.app)
        yield Static("accountdesk", id="app-name", markup=False)
        yield Static(self._title, id="screen-title", markup=False)
        # The footer is full of each screen's own keys, so the two ways to
        # find everything else live up here.
        yield Static(HINT, id="header-hint", markup=False)
        yield Static(desk.signed_in_as, id="signed-in-as", markup=False)
        yield Static(self._reachability(), id="reachability", markup=False)
        presenting = Static(presenting_badge(), id="presenting", markup=False)
        presenting.display = desk.presenting
        yield presenting
        text, kind = _badge(desk)
        badge = Static(text, id="service-badge", markup=False)
        badge.add_class(f"-{kind}")
        yield badge

    def on_resize(self, event: events.Resize) -> None:
        self.fit(event.size.width)

    def fit(self, width: int | None = None) -> None:
        """Hide the optional parts that would squeeze the title, least useful first."""
        width = self.size.width if width is None else width
        if width <= 0:
            return

        def cells(selector: str) -> int:
            text = str(self.query_one(selector, Static).content)
            text = HINT if selector == "#header-hint" else text  # the whole hint, whichever shows
            return cell_len(text) + (_PADDING if selector != "#service-badge" else 0)

        needed = cells("#app-name") + cells("#screen-title") + cells("#service-badge")
        if self.query_one("#presenting", Static).display:  # never given up either
            needed += cell_len(presenting_badge().plain) + 1  # and its margin (app.tcss)
        reachability = self.query_one("#reachability", Static)
        reachability.display = self._has_text("#reachability")
        if reachability.display:  # never given up for hints: it is where you are
            needed += cells("#reachability")
        optional = [(selector, cells(selector)) for selector in _OPTIONAL_PARTS]
        # Show the most useful optional parts that still leave the title whole.
        extra = sum(size for selector, size in optional if self._has_text(selector))
        for selector, size in optional:
            part = self.query_one(selector, Static)
            if not self._has_text(selector):
                part.display = False
                continue
            part.display = needed + extra <= width
            text = HINT
            if not part.display and selector == "#header-hint":
                short = cell_len(SHORT_HINT) + _PADDING
                part.display = needed + extra - size + short <= width
                text, size, extra = SHORT_HINT, short, extra - size + short
            if not part.display:
                extra -= size
            elif selector == "#header-hint" and str(part.content) != text:
                part.update(text)

    def _has_text(self, selector: str) -> bool:
        return bool(str(self.query_one(selector, Static).content))

    def _reachability(self) -> str:
        since = desk_of(self.app).unreachable_since
        return "" if since is None else f"no answer since {since:%H:%M:%S}"

    def show_presenting(self) -> None:
        """Show or hide ``PRESENTING`` (presenter mode turned on or off)."""
        self.query_one("#presenting", Static).display = desk_of(self.app).presenting
        self.fit()

    def show_reachability(self) -> None:
        """Repaint the unreachable note (the desk's state changed)."""
        self.query_one("#reachability", Static).update(self._reachability())
        self.fit()

    def show_service(self) -> None:
        """Repaint the badge (the base URL changed, or the app learnt what the service is)."""
        text, kind = _badge(desk_of(self.app))
        badge = self.query_one("#service-badge", Static)
        badge.update(text)
        for each in ServiceKind:
            badge.set_class(each is kind, f"-{each}")
        self.fit()
