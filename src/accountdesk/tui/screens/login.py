"""The sign-in screen: base URL, API key, secret, sign in.

Focus lands on the first empty field and a prefilled value is never
selected, so typing key, Tab, secret always lands where it should. Empty
fields are named before anything is sent. The secret can be shown and hidden
(``ctrl+t`` or the button), and leaves its input only wrapped in a
``SecretStr``: a crash report's local variables never show it.

"Remember" keeps the key (and a live service's URL) in the config file and
the secret in the system keyring; only when there is no keyring, and the user
ticks the second box, does the secret go into the config file (0600). A
secret the keyring holds for this service and key is filled in after the
first frame.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.css.query import NoMatches
from textual.widgets import Button, Checkbox, Input, Label, Static

from accountdesk.core.settings.start import StartSettings
from accountdesk.tui.base import DeskScreen, settings_usable
from accountdesk.tui.messages import ScreenShown, ServiceFailed, ServiceIdentified, SignedIn
from accountdesk.tui.preload import preload_transactions_modules
from accountdesk.tui.presenting import TypedField
from accountdesk.tui.resources import styles_path
from accountdesk.tui.widgets.footer import AppFooter
from accountdesk.tui.widgets.header import AppHeader
from accountdesk.tui.widgets.tick_box import TickBox

if TYPE_CHECKING:
    from pydantic import SecretStr

    from accountdesk.core.settings.model import Settings
    from accountdesk.core.settings.secrets import Remembered

__all__ = ["LoginScreen"]

log = logging.getLogger(__name__)

#: The fields a person fills in, in tab order, with what to call them.
_FIELDS = (("#base-url", "base URL"), ("#api-key", "API key"), ("#api-secret", "API secret"))


def _first_focus(fields: tuple[tuple[str, bool, str], ...]) -> str:
    """The selector of the first enabled empty field ``(selector, disabled, value)``, else Sign in.

    Made from the settings as the screen is composed (AUTO_FOCUS), and from
    the fields themselves afterwards (``_focus_first_empty``).
    """
    for selector, disabled, value in fields:
        if not disabled and not value:
            return selector
    return "#sign-in"


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

`ctrl+t` (or *Show*) shows the secret while you check it, and hides it again.

*Remember* keeps the key (and a live service's URL) in the config file and
the **secret in the system keyring**. Where this machine has no keyring, a
second box offers the config file instead (plain text, readable by you only);
nothing is written there unless you tick it.
"""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "ctrl+s", "sign_in", "Sign in", id="sign_in", tooltip="Sign in with these credentials"
        ),
        # Two bindings, one id (a keymap moves both): the footer says what ctrl+t does now.
        Binding(
            "ctrl+t", "show_secret", "Show secret", id="toggle_secret", tooltip="Show the secret"
        ),
        Binding(
            "ctrl+t", "hide_secret", "Hide secret", id="toggle_secret", tooltip="Hide the secret"
        ),
    ]

    def compose(self) -> ComposeResult:
        desk = self.desk
        # Before validation, the values the first frame draws (core.start_settings).
        first = desk.start_settings or desk.settings
        # Textual focuses AUTO_FOCUS as the screen is composed, and the key
        # bar is drawn for that focus within the first frame: the field
        # _focus_first_empty picks, so focus moves once (the first input, then
        # Sign in, was two restyles and two key bars; focusing only in
        # on_mount drew the first frame without its keys).
        self.AUTO_FOCUS = _first_focus(  # type: ignore[misc]  # Textual reads it per instance
            (
                ("#base-url", desk.embedded, "" if desk.embedded else desk.service_url),
                ("#api-key", False, first.api_key),
                ("#api-secret", False, _secret_text(first)),
            )
        )
        yield AppHeader("Sign in")
        with Vertical(id="login-form"):
            yield Static("Sign in to the Account Data Service", id="login-title")
            yield Label("Base URL", classes="field-label")
            if desk.embedded:
                yield TypedField(
                    "embedded sandbox (in-process, no network)", id="base-url", disabled=True
                )
            else:
                yield TypedField(
                    desk.service_url,
                    id="base-url",
                    placeholder="https://api.example.com",
                    select_on_focus=False,
                )
                yield Static("", id="base-url-problem", markup=False)
            yield Label("API key", classes="field-label")
            yield TypedField(
                first.api_key, id="api-key", placeholder="API key", select_on_focus=False
            )
            yield Label("API secret", classes="field-label")
            with Horizontal(id="secret-row"):
                yield TypedField(
                    _secret_text(first),
                    id="api-secret",
                    password=True,
                    placeholder="API secret",
                    select_on_focus=False,
                )
                yield Button("Show", id="toggle-secret", compact=True)
            yield TickBox("Remember on this computer", False, id="remember-secret")
            yield TickBox(
                "No keyring here: keep the secret in the config file", False, id="secret-in-file"
            )
            yield Static("", id="remember-warning", markup=False)
            yield Button("Sign in", "primary", id="sign-in")
            yield Static("", id="login-status", markup=False)
        yield AppFooter()

    def on_mount(self) -> None:
        self.query_one("#remember-warning").display = False
        self.query_one("#secret-in-file").display = False
        self._show_url_problem(None)
        self.query_one("#login-status", Static).update(self._idle_hint())
        self._focus_first_empty()

    def on_screen_shown(self, message: ScreenShown) -> None:
        if self.desk.embedded:
            # Build the embedded sandbox (Starlette import, a thread that
            # shares the GIL) only once the first frame is on the terminal.
            self._warm_up()
            return
        # What the service is, for the badge: asked after the first frame.
        self._identify()
        preload_transactions_modules(self)
        if self.desk.settings.api_key and not self._field("#api-secret").value:
            self._fill_remembered_secret()

    @work(exclusive=True, exit_on_error=False, group="identify", name="identify_service")
    async def _identify(self) -> None:
        await self.desk.identity.probe(self.desk.connection)
        self.post_message(ServiceIdentified())

    def on_service_identified(self) -> None:
        for header in self.query(AppHeader):
            header.show_service()

    def _field(self, selector: str) -> Input:
        return self.query_one(selector, Input)

    def _focus_first_empty(self) -> None:
        fields = [self._field(selector) for selector, _name in _FIELDS]
        chosen = _first_focus(
            tuple((f"#{field.id}", field.disabled, field.value) for field in fields)
        )
        self.query_one(chosen).focus()

    def _warm_up(self) -> None:
        self.run_worker(
            self._warm_up_then_preload(), name="warm_up", group="warm-up", exit_on_error=False
        )

    async def _warm_up_then_preload(self) -> None:
        await self.desk.connection.warm_up()
        # Then, not beside it: the transactions screen's modules (NumPy).
        preload_transactions_modules(self)

    @work(thread=True, exit_on_error=False, group="keyring", name="keyring")
    def _fill_remembered_secret(self) -> None:
        secret = self.desk.remembered_secret(self.desk.settings.api_key)
        if secret is not None:
            self.app.call_from_thread(self._secret_found, secret)

    def _secret_found(self, secret: SecretStr) -> None:
        field = self._field("#api-secret")
        if not field.value:  # never over what the user has typed meanwhile
            field.value = secret.get_secret_value()
            self.query_one("#login-status", Static).update(
                "Secret filled in from the system keyring."
            )
            if self.focused is field or self.focused is None:
                self._focus_first_empty()

    # -- the form --------------------------------------------------------------

    @on(Checkbox.Changed, "#remember-secret")
    def _remember_toggled(self, event: Checkbox.Changed) -> None:
        keyring = self.desk.secrets.available
        in_file = self.query_one("#secret-in-file", Checkbox)
        in_file.display = event.value and not keyring
        self._explain_remember()

    @on(Checkbox.Changed, "#secret-in-file")
    def _in_file_toggled(self) -> None:
        self._explain_remember()

    def _explain_remember(self) -> None:
        warning = self.query_one("#remember-warning", Static)
        remember = self.query_one("#remember-secret", Checkbox).value
        what = "key" if self.desk.embedded else "URL and key"
        path = self.desk.dirs.config_path
        if not remember:
            text = ""
        elif self.desk.secrets.available:
            text = f"The {what} go to {path}; the secret to the system keyring ({self.desk.secrets.name})."
        elif self.query_one("#secret-in-file", Checkbox).value:
            text = f"The {what} and the secret (plain text) go to {path}, readable by you only."
        else:
            text = f"The {what} go to {path}; the secret is not kept (no keyring here)."
        warning.update(text)
        warning.display = bool(text)

    @on(Button.Pressed, "#toggle-secret")
    def action_toggle_secret(self) -> None:
        field = self._field("#api-secret")
        field.password = not field.password
        self.query_one("#toggle-secret", Button).label = "Show" if field.password else "Hide"
        self.refresh_bindings()

    def action_show_secret(self) -> None:
        self.action_toggle_secret()

    def action_hide_secret(self) -> None:
        self.action_toggle_secret()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in {"show_secret", "hide_secret"}:
            try:
                hidden = self._field("#api-secret").password
            except NoMatches:
                # Asked as the screen is built (the footer composes its keys
                # with it, so they are in the first frame): the box starts hidden.
                hidden = True
            return hidden if action == "show_secret" else not hidden
        return True

    @on(Input.Changed, "#base-url")
    def _url_edited(self) -> None:
        self._show_url_problem(None)

    def _show_url_problem(self, problem: str | None) -> None:
        if self.desk.embedded:
            return
        label = self.query_one("#base-url-problem", Static)
        label.update(problem or "")
        label.display = problem is not None
        self._field("#base-url").set_class(problem is not None, "-invalid")

    @on(Input.Submitted)
    def _submitted(self) -> None:
        self.action_sign_in()

    @on(Button.Pressed, "#sign-in")
    def _pressed(self) -> None:
        self.action_sign_in()

    def action_sign_in(self) -> None:
        desk = self.desk
        if not settings_usable(self.app):
            return  # the app quits and says why
        for selector, name in _FIELDS:
            field = self._field(selector)
            if not field.disabled and not field.value.strip():
                self.query_one("#login-status", Static).update(f"Enter the {name}.")
                field.focus()
                return
        if not desk.embedded:
            # Imported here, not at the top: the first frame must not wait for httpx.
            from accountdesk.client import InvalidBaseUrlError, normalise_base_url

            try:
                # The client's own rule, checked before the badge changes: a URL
                # that passes here is one the client accepts. What was typed
                # stays in the field.
                url = normalise_base_url(self._field("#base-url").value)
            except InvalidBaseUrlError as error:
                self._show_url_problem(str(error))
                self.notify(str(error), title="Invalid base URL", severity="error", markup=False)
                return
            desk.use_base_url(url)
            for header in self.query(AppHeader):
                header.show_service()
        identity, url = desk.identity, desk.service_url
        if (
            identity.not_encrypted(url, embedded=desk.embedded)
            and not identity.probed  # a sandbox's secret is public
            and not identity.plain_http_confirmed(url)
        ):
            self._ask_before_plain_http(url)
            return
        self._go_sign_in()

    def _ask_before_plain_http(self, url: str) -> None:
        """Once per service on this computer: the secret would cross the network in clear."""
        from accountdesk.core.plain_http import plain_http_warning
        from accountdesk.tui.screens.confirm import ConfirmDialog  # not for the first frame

        def answered(yes: bool | None) -> None:
            if yes:
                self.desk.identity.confirm_plain_http(url)
                self._go_sign_in()

        detail = f"{plain_http_warning(url)}. Asked once for this service on this computer."
        question = "Sign in over plain HTTP, not encrypted?"
        self.app.push_screen(ConfirmDialog(question, detail, "Sign in"), callback=answered)

    def _go_sign_in(self) -> None:
        from pydantic import SecretStr

        api_key = self._field("#api-key").value
        self._set_busy(True)
        self._sign_in(api_key, SecretStr(self._field("#api-secret").value))

    def _set_busy(self, busy: bool) -> None:
        self.query_one("#sign-in", Button).disabled = busy
        self.query_one("#login-status", Static).update("Signing in…" if busy else self._idle_hint())

    def _idle_hint(self) -> str:
        if self.desk.embedded:
            return "Demo credentials are filled in: press Enter. F1 for help."
        return "F1 for help."

    @work(exclusive=True, exit_on_error=False, group="sign-in", name="sign_in")
    async def _sign_in(self, api_key: str, api_secret: SecretStr) -> None:
        from accountdesk.client import AccountDataError

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
        from pydantic import SecretStr

        if self.query_one("#remember-secret", Checkbox).value:
            secret = SecretStr(self._field("#api-secret").value)
            in_file = self.query_one("#secret-in-file", Checkbox).value
            self._remembered(
                self.desk.remember_credentials(message.api_key, secret, secret_in_file=in_file)
            )

    def _remembered(self, result: Remembered | None) -> None:
        from accountdesk.core.settings.secrets import SecretPlace

        if result is None:
            return  # the store said why the config file could not be written
        path = self.desk.dirs.config_path
        where = {
            SecretPlace.KEYRING: f"the secret in the system keyring ({result.detail})",
            SecretPlace.CONFIG_FILE: "the secret in the same file (0600)",
            SecretPlace.NOWHERE: f"the secret was not kept: {result.detail}",
        }[result.place]
        log.info("credentials remembered in %s; secret: %s", path, result.place)
        self.app.notify(
            f"Key saved to {path}; {where}.", title="Credentials remembered", markup=False
        )


def _secret_text(values: StartSettings | Settings) -> str:
    # No local of ours holds the plain secret (a crash report shows locals).
    if isinstance(values, StartSettings):
        return values.api_secret_text
    return values.api_secret.get_secret_value()
