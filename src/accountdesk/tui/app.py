"""The dashboard application: the shell every screen runs in.

The app owns one :class:`~accountdesk.core.desk.Desk` (the session's state)
and the global keys. It gives the desk a scheduler (Textual timers and
workers) and listens to it: what the desk says becomes a message, and the
message handlers draw (toasts, the jobs signal, the MFA dialog). Screens live
in ``tui/screens`` (one file each) and never import this module.

Start-up is kept light: nothing here imports the sandbox or speaks to the
network before the sign-in screen has painted.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Awaitable, Callable, Iterable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.screen import ModalScreen, Screen
from textual.signal import Signal

from accountdesk.core.desk import Desk
from accountdesk.core.logs import install_file_logging, remove_file_logging

from .base import MIN_SIZE, FitsTheTerminal, ForwardsWorkerFailures, fit_terminal, settings_usable
from .demo import DemoHost, DemoStart
from .first_frame import QuickFirstFrame
from .messages import (
    ErrorRecorded,
    JobsChanged,
    MfaNeeded,
    OpenAccount,
    OpenMfaDialog,
    ReachabilityChanged,
    ServiceFailed,
    SettingsUnusable,
    ShowNotice,
    SignedIn,
    SignOutRequested,
)
from .resources import styles_path
from .scheduling import TextualScheduler
from .screens.login import LoginScreen
from .terminal import measure_as_terminals_draw
from .terminal_app import TerminalAware
from .toasting import StackedToasts

if TYPE_CHECKING:
    from textual.command import Provider

    from accountdesk.core.errors.log import ErrorRecord
    from accountdesk.core.jobs.tracker import TrackedJob
    from accountdesk.core.mfa import MfaResult
    from accountdesk.core.notices import Notice

__all__ = ["MIN_SIZE", "AccountDeskApp"]

log = logging.getLogger(__name__)


def _desk_commands() -> type[Provider]:
    """The palette's provider of our commands, imported when the palette opens (Textual's hook)."""
    from .commands import DeskCommands

    return DeskCommands


class AccountDeskApp(
    ForwardsWorkerFailures,
    FitsTheTerminal,
    QuickFirstFrame,
    StackedToasts,
    TerminalAware,
    DemoHost,
):
    """Terminal dashboard for the Account Data Service.

    ``desk`` holds everything a session needs (see ``accountdesk.core.desk``);
    ``cursor_blink=False`` keeps input cursors steady for snapshots and demos.
    """

    TITLE = "accountdesk"
    COMMANDS = App.COMMANDS | {_desk_commands}
    CSS_PATH = styles_path("app.tcss")
    #: Under 24 lines screens get ``-short`` (app.tcss: inputs and buttons one
    #: line high, detail panes smaller), so the minimum size keeps every field.
    VERTICAL_BREAKPOINTS = [(0, "-short"), (24, "-tall")]  # noqa: RUF012 (Textual's own type)

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
        # From any screen once signed in: the lookup screen's user id field, as
        # Ctrl+L is there (elsewhere the typed id fired single-letter keys).
        Binding("ctrl+l", "look_up", "Look up a user", id="look_up", show=False),
    ]

    def __init__(
        self,
        desk: Desk,
        *,
        cursor_blink: bool = True,
        log_level: str = "info",
        on_first_frame: Callable[[], None] | None = None,
        tour: DemoStart | None = None,
    ) -> None:
        measure_as_terminals_draw()  # before anything is measured
        self.desk = desk
        self.cursor_blink = cursor_blink
        self._on_first_frame = on_first_frame
        # The log first: nothing below may log to the terminal.
        self._log_handler = install_file_logging(desk.dirs.log_file, log_level)
        super().__init__(tour=tour)
        # The sign-in screen is always the first: its sheet read with the
        # app's, so pushing it does not parse every source again in a new
        # sheet without the parse cache (~17 ms before the first frame).
        # Its rules name the screen's own ids; order as before (after tour.tcss).
        self.css_path = [*self.css_path, styles_path("login.tcss")]
        self.jobs_changed_signal: Signal[None] = Signal(self, "jobs-changed")
        self._jobs_change_pending = False
        self._logged_clashes: set[tuple[str, frozenset[str]]] = set()
        self.crash_report = []
        #: Why the settings cannot be used, when validation after the first
        #: frame refused them: the command prints it (exit status 2).
        self.config_problem: str | None = None
        desk.attach(self, TextualScheduler(self))
        # Before validation, the values the first frame draws (core.start_settings).
        self._first_values = desk.start_settings or desk.settings
        theme = self._first_values.theme
        if theme and theme in self.available_themes:
            self.theme = theme

    # -- lifecycle -----------------------------------------------------------

    def get_default_screen(self) -> Screen[Any]:
        # The sign-in screen is the bottom of the stack, not pushed over
        # Textual's empty default screen once the app has mounted: that
        # screen's build, styling and layout, the push and the wait for its
        # mount came before the first frame (~20 ms, docs: streaming.md).
        # Signing in switches it for the lookup screen, signing out back.
        screen = self.with_height_class(LoginScreen())
        # A result callback, as switch_screen gives the screen it switches
        # to: switching it away pops one (IndexError without).
        screen._push_result_callback(screen, None)
        return screen

    def on_mount(self) -> None:
        if self._first_values.keymap:
            self._apply_keymap()
        self.theme_changed_signal.subscribe(self, self._remember_theme)
        fit_terminal(self, self.size)
        # Once the sign-in screen is on the terminal: the log's first record
        # (its formatter loads the sanitiser, ~4 ms), then the settings
        # validated (a no-op when the desk was given validated settings; a
        # sign-in waits for it).
        self.call_after_refresh(self._log_start)
        self.call_after_refresh(self._check_settings)
        if self._on_first_frame is not None:
            self.call_after_refresh(self._on_first_frame)

    def _log_start(self) -> None:
        log.info("accountdesk started (pid %s) on %s", os.getpid(), self.desk.service_key)

    def _check_settings(self) -> None:
        if settings_usable(self):
            ignored = self.desk.settings.ignored_keys
            if ignored:
                log.info("config keys this version ignores: %s", ", ".join(ignored))

    def on_settings_unusable(self, message: SettingsUnusable) -> None:
        self.config_problem = message.problem
        self.exit(return_code=2)

    async def on_unmount(self) -> None:
        await self.desk.close()
        remove_file_logging(self._log_handler)
        self._log_handler = None

    def _apply_keymap(self) -> None:
        """Use the config's keymap, leaving out (and reporting) what cannot work."""
        from .keymap import checked_keymap

        usable, problems = checked_keymap(
            self._first_values.keymap, type(self), self.desk.dirs.config_path
        )
        if problems:
            # One toast for all of them; the names come from a file, so no markup.
            self.notify(
                "Ignored: " + "; ".join(problems) + ".",
                title="Keymap in the config file",
                severity="warning",
                markup=False,
                timeout=15,
            )
        self.set_keymap(usable)

    def handle_bindings_clash(self, clashed_bindings: set[Binding], node: object) -> None:
        # Textual calls this on every key press while a clash is in the chain: log each once.
        clash = (type(node).__name__, frozenset(b.id or b.action for b in clashed_bindings))
        if clash not in self._logged_clashes:
            self._logged_clashes.add(clash)
            log.warning("key clash on %s: %s", clash[0], ", ".join(sorted(clash[1])))

    def _remember_theme(self, theme: object) -> None:
        name = getattr(theme, "name", None)
        if name and name != self.desk.settings.theme:
            self.desk.remember_theme(name)

    # -- the desk's listener (called on the app's thread or a worker thread) ---

    def jobs_changed(self) -> None:
        if not self._jobs_change_pending:
            self._jobs_change_pending = True
            self.post_message(JobsChanged())

    def notice(self, notice: Notice) -> None:
        self.post_message(ShowNotice(notice))

    def error_recorded(self, record: ErrorRecord) -> None:
        self.post_message(ErrorRecorded(record))

    def mfa_needed(self, tracked: TrackedJob) -> None:
        self.post_message(MfaNeeded(tracked))

    def reachability_changed(self) -> None:
        self.post_message(ReachabilityChanged())

    # -- message handlers ------------------------------------------------------

    def on_jobs_changed(self, message: JobsChanged) -> None:
        self._jobs_change_pending = False
        self.jobs_changed_signal.publish(None)

    def on_reachability_changed(self, message: ReachabilityChanged) -> None:
        from .widgets.header import AppHeader

        for screen in self.screen_stack:
            for header in screen.query(AppHeader):
                header.show_reachability()

    def on_show_notice(self, message: ShowNotice) -> None:
        self.show_notice(message.notice)

    def on_error_recorded(self, message: ErrorRecorded) -> None:
        self.show_record(message.record)

    def on_mfa_needed(self, message: MfaNeeded) -> None:
        from accountdesk.core.notices import mfa_offer

        tracked = message.tracked
        tracked.mfa_offered = True
        if isinstance(self.screen, ModalScreen):
            self.show_notice(mfa_offer(tracked))
        else:
            self.open_mfa_dialog(tracked.key)

    def on_service_failed(self, message: ServiceFailed) -> None:
        """Every failure a screen or worker reports ends up here, once."""
        self.show_record(self.desk.record_error(message.error))

    def on_signed_in(self, message: SignedIn) -> None:
        from .screens.lookup import LookupScreen

        self.switch_screen(LookupScreen())

    def on_sign_out_requested(self, message: SignOutRequested) -> None:
        self._unless_jobs_run("Sign out", self.sign_out)

    def on_open_account(self, message: OpenAccount) -> None:
        from .screens.account import AccountScreen

        self.push_screen(AccountScreen(message.user_id))

    async def action_quit(self) -> None:
        """Quit; with unfinished jobs, ask first (they are polled again next time)."""

        async def leave() -> None:
            self.exit()

        self._unless_jobs_run("Quit", leave)

    def _unless_jobs_run(self, what: str, then: Callable[[], Awaitable[None]]) -> None:
        """Run ``then`` now when no job is unfinished; otherwise only if the user says so."""
        from .screens.confirm import ask_before_leaving

        ask_before_leaving(self, self.desk.unfinished_jobs(), what, then)

    def on_open_mfa_dialog(self, message: OpenMfaDialog) -> None:
        self.open_mfa_dialog(message.key)

    # -- drawing what the desk says ----------------------------------------------

    def show_notice(self, notice: Notice) -> None:
        self.notify(notice.message, title=notice.title, severity=notice.severity, markup=False)

    def show_record(self, record: ErrorRecord) -> None:
        """Toast an error record: its message, then one line of what to do next.

        Network text, so markup off. An open error log is refreshed.
        """
        from .screens.error_log import ErrorLogScreen

        self.notify(record.toast_text, title=record.title, severity=record.severity, markup=False)
        if isinstance(self.screen, ErrorLogScreen):
            self.screen.show_records()

    # -- session -------------------------------------------------------------

    async def sign_out(self) -> None:
        """Forget the client and go back to the sign-in screen."""
        await self.desk.sign_out()
        while len(self.screen_stack) > 1:
            self.pop_screen()
        self.switch_screen(LoginScreen())

    def open_mfa_dialog(self, key: str) -> bool:
        """Open the MFA dialog for a tracked job waiting on MFA; False if it is not."""
        from .screens.mfa import MfaDialog

        tracked = self.desk.tracker.get(key)
        if tracked is None or not tracked.needs_mfa:
            self.notify("That job is not waiting for MFA.", title="MFA", severity="warning")
            return False
        if any(isinstance(screen, MfaDialog) for screen in self.screen_stack):
            return False
        tracked.mfa_offered = True
        self.push_screen(MfaDialog(tracked), callback=partial(self._mfa_closed, tracked.user_id))
        return True

    def _mfa_closed(self, user_id: str, result: MfaResult | None) -> None:
        if result is not None and result.job is not None:
            self.desk.update_job(result.job, user_id)

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

    def action_show_jobs(self) -> None:
        from .screens.jobs import JobsScreen

        if not isinstance(self.screen, JobsScreen):
            self.push_screen(JobsScreen())

    def action_look_up(self) -> None:
        """Back to the lookup screen (from any full screen), its user id field focused."""
        from .screens.lookup import LookupScreen

        while len(self.screen_stack) > 1 and not isinstance(self.screen, LookupScreen):
            self.pop_screen()
        if isinstance(self.screen, LookupScreen):
            self.screen.action_focus_user_id()

    def action_toggle_job_polling(self) -> None:
        from accountdesk.core.jobs.poller import PollerState

        poller = self.desk.poller
        if poller.state is PollerState.PAUSED:
            poller.resume()
            self.notify("Job polling resumed.", title="Jobs")
        else:
            poller.pause()
            self.notify("Job polling paused.", title="Jobs")

    def deliver_screenshot(
        self, filename: str | None = None, path: str | None = None, time_format: str | None = None
    ) -> str | None:
        """Save an SVG of the screen (0600) under the data dir and toast where."""
        folder = Path(path) if path else self.desk.dirs.screenshots_dir
        name = filename or f"accountdesk-{self.desk.wall_time():%Y%m%d-%H%M%S}.svg"
        target = folder / name
        svg = self.export_screenshot()
        if not self.desk.store.write_text(target, svg):
            return None  # the store told the user why
        log.info("screenshot saved to %s", target)
        self.notify(str(target), title="Screenshot saved", markup=False)
        return str(target)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Jobs belong to a signed-in session; before that the key is hidden.
        if action in {"show_jobs", "toggle_job_polling"} and not self.desk.signed_in:
            return False
        if action == "look_up" and (
            not self.desk.signed_in or isinstance(self.screen, ModalScreen)
        ):
            return False  # a dialog is answered or closed first
        return super().check_action(action, parameters)  # the tour's and the panel's keys

    def crash_log_file(self) -> Path | None:
        return self.desk.dirs.log_file if self._log_handler is not None else None

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        from .commands import system_commands

        yield from system_commands(self, screen, super().get_system_commands(screen))
