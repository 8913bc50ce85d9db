"""The identity screen: who owns the account (names, emails, phones, addresses).

Read with ``GET .../identity`` in a worker; a refusal (``AC-113`` for a user
whose authentication failed) is a toast and the screen says so.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.message import Message
from textual.widgets import Static

from accountdesk.client import AccountDataError, Identity
from accountdesk.tui.base import DeskScreen
from accountdesk.tui.messages import ServiceFailed
from accountdesk.tui.resources import styles_path
from accountdesk.tui.widgets.footer import AppFooter
from accountdesk.tui.widgets.header import AppHeader

SECTIONS = ("names", "emails", "phones", "addresses")


class IdentityLoaded(Message):
    def __init__(self, identity: Identity) -> None:
        super().__init__()
        self.identity = identity


class IdentityScreen(DeskScreen[None]):
    """Identity data of one user."""

    CSS_PATH = styles_path("identity.tcss")
    HELP_TITLE = "Identity"
    HELP = """\
Identity data the service holds for the user: names, emails, phone numbers
and addresses.

The service fills it in with an **identity job** (`i` on the account screen).
If nothing is shown, start one and reload here with `l` once it completed.
"""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back", id="back", tooltip="Back to the account"),
        Binding("l", "reload", "Reload", id="reload", tooltip="Read identity data again"),
    ]

    def __init__(self, user_id: str) -> None:
        super().__init__()
        self.user_id = user_id
        self.identity: Identity | None = None

    def compose(self) -> ComposeResult:
        self.desk.presenter.learn_user_ids([self.user_id])  # the title names it
        yield AppHeader(f"Identity · {self.user_id}")
        with VerticalScroll(id="identity-body"):
            # One line when the service refuses: four sections each saying
            # "not available" would only repeat it.
            yield Static("", id="identity-problem", markup=False)
            for section in SECTIONS:
                yield Static(section.capitalize(), classes="section-title")
                yield Static("Loading…", id=f"identity-{section}", classes="section-body")
        yield AppFooter()

    def on_mount(self) -> None:
        self.query_one("#identity-problem").display = False
        self.action_reload()

    def action_reload(self) -> None:
        self._load()

    def action_back(self) -> None:
        self.app.pop_screen()

    @work(exclusive=True, exit_on_error=False, group="identity", name="get_identity")
    async def _load(self) -> None:
        desk = self.desk
        try:
            identity = await desk.client.get_identity(self.user_id)
        except AccountDataError as error:
            desk.presenter.tried(self.user_id, "identity")
            await desk.learn_customer(self.user_id)  # the error may name the customer
            self.post_message(ServiceFailed(error, "get_identity"))
            return
        # Presenting: what the identity holds is learnt before any of it is drawn.
        desk.learn_from_read(self.user_id, identity=identity)
        await desk.learn_customer(self.user_id)
        self.post_message(IdentityLoaded(identity))

    def on_identity_loaded(self, message: IdentityLoaded) -> None:
        identity = self.identity = message.identity
        self._show_sections(True)
        self._fill("names", identity.names)
        self._fill("emails", identity.emails)
        self._fill("phones", identity.phone_numbers)
        self._fill("addresses", [address.one_line() for address in identity.addresses])

    def on_service_failed(self, message: ServiceFailed) -> None:
        error = message.error
        code = getattr(error, "code", None)
        text = f"Identity not available ({code})" if code else "Identity not available"
        # The service's words stay after the toast is gone (network text: a Text, no markup).
        detail = getattr(error, "message", None) or error.detail
        problem = Text(f"{text}: ", style="bold red") + Text(str(detail))
        self.query_one("#identity-problem", Static).update(problem)
        self._show_sections(False)

    def _show_sections(self, shown: bool) -> None:
        self.query_one("#identity-problem").display = not shown
        for widget in self.query(".section-title, .section-body"):
            widget.display = shown

    def _fill(self, section: str, values: list[str]) -> None:
        body = Text("\n".join(values)) if values else Text("none on record", style="dim")
        self.query_one(f"#identity-{section}", Static).update(body)
