"""The dashboard application: the shell every screen runs in.

The app owns the session (settings, the service connection, the signed-in
client, the error log, the clock) and the global keys. Screens live in
``tui/screens`` (one file each), job polling in :class:`JobsMixin`.

Start-up is kept light: nothing here imports the sandbox or speaks to the
network before the login screen has painted.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterable, Mapping
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.screen import Screen

from .config import (
    SANDBOX_BASE_URL,
    ConfigError,
    Settings,
    default_data_dir,
    default_log_dir,
    remember_theme,
    resolve_settings,
)
from .connection import ClientFactory, ServiceConnection
from .error_log import ErrorLog, ErrorRecord
from .history import RecentLookups
from .logs import install_file_logging, remove_file_logging
from .messages import ServiceFailed, SignedIn
from .poller import JobsMixin
from .resources import styles_path

if TYPE_CHECKING:
    import httpx
    from textual.dom import DOMNode

    from accountdesk.client import AccountDataClient, AccountDataError

log = logging.getLogger(__name__)

Clock = Callable[[], datetime]


def _system_clock() -> datetime:
    return datetime.now(UTC)


class AccountDeskApp(JobsMixin, App[None]):
    """Terminal dashboard for the Account Data Service.

    Everything a test needs to inject goes through the constructor: the
    transport (or a whole client factory), the base URL and sandbox flag,
    the clock, and the config file, data and log folders. Without them the
    app reads the user's config and runs on the embedded sandbox.
    """

    TITLE = "accountdesk"
    CSS_PATH = styles_path("app.tcss")
    NOTIFICATION_TIMEOUT = 8

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f1", "help", "Help", id="help", tooltip="Help for this screen"),
        # A letter for speed plus a function key that still works while an
        # input has focus (inputs swallow printable keys).
        Binding("j,f2", "show_jobs", "Jobs", id="show_jobs", tooltip="Every job started here"),
        Binding(
            "e,f3",
            "show_error_log",
            "Errors",
            id="show_error_log",
            tooltip="Errors of this session",
        ),
        Binding("ctrl+q", "quit", "Quit", id="quit", priority=True),
    ]

    def __init__(
        self,
        *,
        settings: Settings | None = None,
        base_url: str | None = None,
        sandbox: bool | None = None,
        api_key: str | None = None,
        api_secret: str | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        client_factory: ClientFactory | None = None,
        clock: Clock | None = None,
        config_path: Path | None = None,
        data_dir: Path | None = None,
        log_dir: Path | None = None,
        log_level: str = "info",
    ) -> None:
        if settings is None:
            settings = resolve_settings(
                config_path=config_path,
                base_url=None if sandbox else base_url,
                sandbox=bool(sandbox),
            )
        self.settings = settings
        self.sandbox = settings.sandbox if sandbox is None else sandbox
        if self.sandbox:
            self.service_url = base_url or SANDBOX_BASE_URL
        else:  # the resolved (normalised) URL of a live service
            self.service_url = settings.base_url or base_url or SANDBOX_BASE_URL
        self.initial_api_key = api_key if api_key is not None else settings.api_key
        self.initial_api_secret = api_secret if api_secret is not None else settings.api_secret
        self.config_path = config_path or settings.config_path
        self._data_dir = data_dir or default_data_dir()
        self.log_dir = log_dir or default_log_dir()
        self.log_level = log_level
        self._clock = clock or _system_clock
        self.connection = ServiceConnection(
            base_url=self.service_url,
            sandbox=self.sandbox,
            transport=transport,
            client_factory=client_factory,
        )
        self.error_log = ErrorLog()
        self.recent_lookups = RecentLookups(self._data_dir, self.connection.base_url_key)
        self.signed_in_as = ""
        self._client: AccountDataClient | None = None
        self._log_handler: logging.Handler | None = None
        self._logged_clashes: set[tuple[str, frozenset[str]]] = set()
        super().__init__()
        if settings.theme and settings.theme in self.available_themes:
            self.theme = settings.theme

    # -- what screens and JobsMixin rely on ---------------------------------

    @property
    def client(self) -> AccountDataClient:
        """The signed-in client (RuntimeError before sign-in)."""
        if self._client is None:
            raise RuntimeError("not signed in")
        return self._client

    @property
    def signed_in(self) -> bool:
        return self._client is not None

    @property
    def data_dir(self) -> Path:
        return self._data_dir

    @property
    def base_url_key(self) -> str:
        return self.connection.base_url_key

    def now(self) -> datetime:
        """The app clock (aware UTC); injected in tests."""
        return self._clock()

    def use_base_url(self, base_url: str) -> None:
        """Point the (live) app at another base URL, typed on the login screen."""
        if base_url == self.service_url or self.sandbox:
            return
        self.service_url = base_url
        self.connection = self.connection.with_base_url(base_url)
        self.recent_lookups = RecentLookups(self._data_dir, self.base_url_key)
        from .widgets.header import AppHeader

        for header in self.screen.query(AppHeader):
            header.show_service(base_url, sandbox=False)

    def report_error(self, error: AccountDataError) -> None:
        """Toast ``error`` (network text, so markup off) and add it to the error log."""
        record = ErrorRecord.from_error(error, self.now())
        self.error_log.append(record)
        log.warning("%s: %s %s -> %s", record.title, record.method, record.path, record.message)
        self.notify(record.message, title=record.title, severity=record.severity, markup=False)
        from .screens.error_log import ErrorLogScreen

        if isinstance(self.screen, ErrorLogScreen):  # an error from a poll while the log is open
            self.screen.show_records()

    # -- lifecycle -----------------------------------------------------------

    def on_mount(self) -> None:
        self._log_handler = install_file_logging(
            self.log_dir, self.log_level, secrets=[self.initial_api_secret]
        )
        log.info("accountdesk started (pid %s) on %s", os.getpid(), self.base_url_key)
        if self.settings.keymap:
            self._apply_keymap(self.settings.keymap)
        self.theme_changed_signal.subscribe(self, self._remember_theme)
        from .screens.login import LoginScreen

        self.push_screen(LoginScreen())

    def _apply_keymap(self, keymap: Mapping[str, str]) -> None:
        """Use the config's keymap, leaving out (and reporting) what cannot work."""
        from .keymap import check_keymap, dashboard_namespaces

        check = check_keymap(keymap, dashboard_namespaces())
        for problem in check.problems:
            log.warning("keymap in %s: %s (ignored)", self.config_path, problem)
        for collision in check.collisions:
            log.warning("keymap in %s: %s", self.config_path, collision)
        if check.problems:
            # One toast for all of them; the names come from a file, so no markup.
            self.notify(
                "Ignored: " + "; ".join(check.problems) + ".",
                title="Keymap in the config file",
                severity="warning",
                markup=False,
                timeout=15,
            )
        self.set_keymap(check.usable)

    def handle_bindings_clash(self, clashed_bindings: set[Binding], node: DOMNode) -> None:
        # Textual calls this on every key press while a clash is in the chain: log each once.
        clash = (type(node).__name__, frozenset(b.id or b.action for b in clashed_bindings))
        if clash not in self._logged_clashes:
            self._logged_clashes.add(clash)
            log.warning("key clash on %s: %s", clash[0], ", ".join(sorted(clash[1])))

    async def on_unmount(self) -> None:
        self.stop_jobs()
        if self._client is not None:
            await self._client.aclose()
            self._client = None
        if self._log_handler is not None:
            remove_file_logging(self._log_handler)
            self._log_handler = None

    def _remember_theme(self, theme: object) -> None:
        name = getattr(theme, "name", None)
        if not name:
            return
        try:
            remember_theme(self.config_path, name)
        except (OSError, ConfigError) as error:  # a read-only config dir must not break theming
            log.warning("could not save the theme to %s: %s", self.config_path, error)

    def on_service_failed(self, message: ServiceFailed) -> None:
        """Every failed call a screen's worker reports ends up here."""
        self.report_error(message.error)

    def on_signed_in(self, message: SignedIn) -> None:
        from .screens.lookup import LookupScreen

        self._client = message.client
        self.signed_in_as = message.api_key
        log.info("signed in with key %s on %s", message.api_key, self.base_url_key)
        self.init_jobs()
        self.switch_screen(LookupScreen())

    async def sign_out(self) -> None:
        """Forget the client and go back to the login screen."""
        from .screens.login import LoginScreen

        self.stop_jobs()
        client, self._client = self._client, None
        self.signed_in_as = ""
        if client is not None:
            await client.aclose()
        while len(self.screen_stack) > 2:
            self.pop_screen()
        self.switch_screen(LoginScreen())
        log.info("signed out")

    # -- global actions ------------------------------------------------------

    def action_help(self) -> None:
        from .screens.help import HelpScreen

        if isinstance(self.screen, HelpScreen):
            self.pop_screen()
            return
        self.push_screen(HelpScreen(self.screen))

    def action_show_error_log(self) -> None:
        from .screens.error_log import ErrorLogScreen

        if not isinstance(self.screen, ErrorLogScreen):
            self.push_screen(ErrorLogScreen())

    def deliver_screenshot(
        self,
        filename: str | None = None,
        path: str | None = None,
        time_format: str | None = None,
    ) -> str | None:
        """Save an SVG of the screen under ``data_dir/screenshots`` and toast where.

        Textual's default folder is ~/Downloads, which many servers (and
        fresh machines) do not have; the palette's "Screenshot" lands here.
        """
        folder = Path(path) if path else self.data_dir / "screenshots"
        try:
            folder.mkdir(parents=True, exist_ok=True)
            saved = self.save_screenshot(filename, str(folder), time_format)
        except OSError as error:
            log.warning("screenshot not saved in %s: %s", folder, error)
            self.notify(str(error), title="Screenshot not saved", severity="error", markup=False)
            return None
        log.info("screenshot saved to %s", saved)
        self.notify(saved, title="Screenshot saved", markup=False)
        return saved

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Jobs belong to a signed-in session; before that the key is hidden.
        return not (action == "show_jobs" and not self.signed_in)

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        if self.signed_in:
            yield SystemCommand(
                "Pause or resume job polling",
                "Stop or restart the live polling of every unfinished job",
                self.action_toggle_job_polling,
            )
        # Every shown, enabled binding of the screen is a command too, so the
        # palette offers exactly what the footer does (plus the keys to learn).
        seen: set[str] = set()
        for active in screen.active_bindings.values():
            binding = active.binding
            if not (binding.show and active.enabled and binding.description):
                continue
            if binding.action in seen or binding.action == "quit":
                continue
            seen.add(binding.action)
            help_text = (
                f"{binding.tooltip or binding.description} ({self.get_key_display(binding)})"
            )
            yield SystemCommand(
                binding.description,
                help_text,
                partial(self.run_action, binding.action, active.node),
            )
