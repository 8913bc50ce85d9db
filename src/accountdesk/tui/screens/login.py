"""The sign-in screen: base URL, API key, secret, sign in.

On the embedded sandbox the base URL is fixed and the sandbox credentials are
filled in, so Enter signs in. A refused sign-in (``AC-100``, ``AC-101``) or
a network failure is a toast; what was typed stays where it was. The secret
leaves its input only wrapped in a ``SecretStr``: a crash report's local
variables never show it.
"""

from __future__ import annotations

import logging
from typing import ClassVar

from pydantic import SecretStr
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Button, Checkbox, Input, Label, Static

from accountdesk.client import AccountDataError, InvalidBaseUrlError, normalise_base_url
from accountdesk.tui.base import DeskScreen
from accountdesk.tui.messages import ServiceFailed, SignedIn
from accountdesk.tui.resources import styles_path
from accountdesk.tui.widgets.footer import AppFooter
from accountdesk.tui.widgets.header import AppHeader

__all__ = ["LoginScreen"]

log = logging.getLogger(__name__)


class LoginScreen(DeskScreen[None]):
    """Sign in with an API key and secret."""

    CSS_PATH = styles_path("login.tcss")
    HELP_TITLE = "Sign in"
    HELP = """\
Sign in to the Account Data Service with an API key and secret.

On the **embedded sandbox** (yellow SANDBOX badge) the credentials are filled
in: press **Enter**. `limited_key` / `limited_secret` only reach `user_good`.
A red **LIVE** badge means a real service; point the app at one with
`accountdesk --base-url URL`, `ACCOUNTDESK_BASE_URL` or the config file.

*Remember* stores the key **and the secret in plain text** in the config
file (readable by you only), and on a live service its URL too. It is off
unless you tick it.
"""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "ctrl+s", "sign_in", "Sign in", id="sign_in", tooltip="Sign in with these credentials"
        ),
    ]

    def compose(self) -> ComposeResult:
        desk = self.desk
        settings = desk.settings
        yield AppHeader("Sign in")
        with Vertical(id="login-form"):
            yield Static("Sign in to the Account Data Service", id="login-title")
            yield Label("Base URL", classes="field-label")
            if desk.embedded:
                yield Input(
                    "embedded sandbox (in-process, no network)", id="base-url", disabled=True
                )
            else:
                yield Input(desk.service_url, id="base-url", placeholder="https://api.example.com")
                yield Static("", id="base-url-problem", markup=False)
            yield Label("API key", classes="field-label")
            yield Input(settings.api_key, id="api-key", placeholder="API key")
            yield Label("API secret", classes="field-label")
            yield Input(
                settings.api_secret.get_secret_value(),
                id="api-secret",
                password=True,
                placeholder="API secret",
            )
            # Say everything that is written: on a live service that includes the URL.
            remembered = "key and secret" if desk.embedded else "URL, key and secret"
            yield Checkbox(f"Remember {remembered} in the config file", False, id="remember-secret")
            yield Static(
                f"The secret will be stored in plain text in {desk.dirs.config_path} (mode 0600).",
                id="remember-warning",
                markup=False,
            )
            yield Button("Sign in", id="sign-in", variant="primary")
            yield Static("", id="login-status", markup=False)
        yield AppFooter()

    def on_mount(self) -> None:
        self.query_one("#remember-warning").display = False
        self._show_url_problem(None)
        self.query_one("#login-status", Static).update(self._idle_hint())
        self.query_one("#api-key" if self.desk.embedded else "#base-url", Input).focus()
        if self.desk.embedded:
            # Build the embedded sandbox (FastAPI import) only after the first
            # frame has painted, so start-up stays instant.
            self.call_after_refresh(self._warm_up)

    def _warm_up(self) -> None:
        self.run_worker(
            self.desk.connection.warm_up(), name="warm_up", group="warm-up", exit_on_error=False
        )

    @on(Checkbox.Changed, "#remember-secret")
    def _remember_toggled(self, event: Checkbox.Changed) -> None:
        self.query_one("#remember-warning").display = event.value

    @on(Input.Changed, "#base-url")
    def _url_edited(self) -> None:
        self._show_url_problem(None)

    def _show_url_problem(self, problem: str | None) -> None:
        if self.desk.embedded:
            return
        label = self.query_one("#base-url-problem", Static)
        label.update(problem or "")
        label.display = problem is not None
        self.query_one("#base-url", Input).set_class(problem is not None, "-invalid")

    @on(Input.Submitted)
    def _submitted(self) -> None:
        self.action_sign_in()

    @on(Button.Pressed, "#sign-in")
    def _pressed(self) -> None:
        self.action_sign_in()

    def action_sign_in(self) -> None:
        desk = self.desk
        if not desk.embedded:
            try:
                # The client's own rule, checked before the badge changes: a URL
                # that passes here is one the client accepts. What was typed
                # stays in the field.
                url = normalise_base_url(self.query_one("#base-url", Input).value)
            except InvalidBaseUrlError as error:
                self._show_url_problem(str(error))
                self.notify(str(error), title="Invalid base URL", severity="error", markup=False)
                return
            desk.use_base_url(url)
            for header in self.query(AppHeader):
                header.show_service()
        api_key = self.query_one("#api-key", Input).value
        self._set_busy(True)
        self._sign_in(api_key, SecretStr(self.query_one("#api-secret", Input).value))

    def _set_busy(self, busy: bool) -> None:
        self.query_one("#sign-in", Button).disabled = busy
        self.query_one("#login-status", Static).update("Signing in…" if busy else self._idle_hint())

    def _idle_hint(self) -> str:
        if self.desk.embedded:
            return "Demo credentials are filled in: press Enter. F1 for help."
        return "F1 for help."

    @work(exclusive=True, exit_on_error=False, group="sign-in", name="sign_in")
    async def _sign_in(self, api_key: str, api_secret: SecretStr) -> None:
        try:
            await self.desk.sign_in(api_key, api_secret)
        except AccountDataError as error:
            self.post_message(ServiceFailed(error, "sign_in"))
            return
        self.post_message(SignedIn(api_key))

    def on_service_failed(self, message: ServiceFailed) -> None:
        # Keep every field as typed; only the button comes back.
        self._set_busy(False)

    def on_signed_in(self, message: SignedIn) -> None:
        if self.query_one("#remember-secret", Checkbox).value:
            secret = self.query_one("#api-secret", Input).value
            if self.desk.remember_credentials(message.api_key, secret or None):
                path = self.desk.dirs.config_path
                log.info("credentials for key %s saved to %s", message.api_key, path)
                self.notify(f"Saved to {path}", title="Credentials remembered", markup=False)
