"""The dashboard application: the shell every screen runs in.

The app owns one :class:`~accountdesk.core.desk.Desk` (the session's state)
and the global keys. It gives the desk a scheduler (Textual timers and
workers) and listens to it: what the desk says becomes a message, and the
message handlers draw (toasts, the jobs signal, the MFA dialog). Screens live
in ``tui/screens`` (one file each) and never import this module.

Read top to bottom:

- **Start-up**, kept light: nothing here imports the sandbox or speaks to
  the network before the sign-in screen has painted. The sign-in screen is
  the app's default screen, built with its height class; a widget is styled
  once, as it mounts; the first frame written is said to its screen
  (:mod:`.seams.app`).
- **The terminal's edges** (the rules: :mod:`accountdesk.tui.terminal`):
  our driver in a terminal (sizes and pastes a person can trust), theme
  variables that mark states by more than a shade under ``NO_COLOR``, a
  terminal below the minimum size showing one line on every screen
  (:func:`~.base.fit_terminal`) with keys then ignored, and an unexpected
  error as a few lines once the terminal is restored (the traceback to the
  log, :mod:`accountdesk.core.crash`).
- **Toasts**: every ``notify`` goes through :class:`~.toasts.Toasts`.
- **The desk's listener** and the message handlers.
- **Tours and the sandbox panel** (``accountdesk demo``): the constructor's
  ``tour``, a tour to start once the sign-in screen is up or tours to offer
  in the picker; the tour's keys, bound with priority (Space or Enter: next
  step, Backspace: the last step again, Esc: leave), which step aside when a
  press is not the tour's (:func:`~.tour.tour_key`); "Guided tours…" in the
  palette while no tour runs; F4 for the sandbox panel, once signed in to a
  sandbox (never on a live service); ``tour.tcss`` among the app's
  stylesheets, since a caption may sit on any screen.
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Awaitable, Callable, Iterable, Iterator, Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, TypeAlias

from textual import events
from textual.actions import SkipAction
from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.dom import DOMNode
from textual.driver import Driver
from textual.filter import LineFilter
from textual.notifications import SeverityLevel
from textual.screen import ModalScreen, Screen
from textual.signal import Signal

from accountdesk.core.desk import Desk
from accountdesk.core.logs import install_file_logging, remove_file_logging
from accountdesk.tui.base import (
    MIN_SIZE,
    ForwardsWorkerFailures,
    desk_of,
    fit_terminal,
    height_class,
    settings_usable,
    terminal_too_small,
)
from accountdesk.tui.messages import (
    ErrorRecorded,
    JobsChanged,
    MfaNeeded,
    OpenAccount,
    OpenMfaDialog,
    PresentingChanged,
    ReachabilityChanged,
    ServiceFailed,
    SettingsUnusable,
    ShowNotice,
    SignedIn,
    SignOutRequested,
)
from accountdesk.tui.presenting import PresentingFilter
from accountdesk.tui.resources import styles_path
from accountdesk.tui.scheduling import TextualScheduler
from accountdesk.tui.screens.login import LoginScreen
from accountdesk.tui.seams.app import as_default_screen, install_app_seams
from accountdesk.tui.seams.unicode import measure_as_terminals_draw
from accountdesk.tui.toasts import Toasts

if TYPE_CHECKING:
    from textual.command import Provider

    from accountdesk.core.errors.log import ErrorRecord
    from accountdesk.core.jobs.tracker import TrackedJob
    from accountdesk.core.mfa import MfaResult
    from accountdesk.core.notices import Notice
    from accountdesk.core.tours.tour import Tour
    from accountdesk.tui.tour import TourRunner

__all__ = ["MIN_SIZE", "AccountDeskApp", "DemoStart", "demo_tours"]

log = logging.getLogger(__name__)

#: A tour to start, or the tours to offer in the picker.
DemoStart: TypeAlias = "Tour | Sequence[Tour]"
#: The keys that still act while a terminal too small shows its one line.
_KEYS_WHEN_TOO_SMALL = frozenset({"ctrl+q", "ctrl+c"})
#: Theme variables under NO_COLOR: states marked by underline, weight and reverse video.
_NO_COLOUR_STYLES = {
    "block-cursor-text-style": "bold underline",
    "block-cursor-blurred-text-style": "underline",
    "input-cursor-text-style": "reverse",
    "button-focus-text-style": "bold reverse",
}


def _desk_commands() -> type[Provider]:
    """The palette's provider of our commands, imported when the palette opens (Textual's hook)."""
    from accountdesk.tui.commands import DeskCommands

    return DeskCommands


class AccountDeskApp(ForwardsWorkerFailures, App[None]):
    """Terminal dashboard for the Account Data Service.

    ``desk`` holds everything a session needs (see ``accountdesk.core.desk``);
    ``cursor_blink=False`` keeps input cursors steady for snapshots and demos;
    ``tour``: a tour to start, or the tours to offer (``accountdesk demo``).
    """

    TITLE = "accountdesk"
    COMMANDS = App.COMMANDS | {_desk_commands}
    CSS_PATH = styles_path("app.tcss")
    #: Under 24 lines screens get ``-short`` (app.tcss: inputs and buttons one
    #: line high, detail panes smaller), so the minimum size keeps every field.
    VERTICAL_BREAKPOINTS = [(0, "-short"), (24, "-tall")]  # noqa: RUF012 (Textual's own type)
    NOTIFICATION_TIMEOUT = 8

    #: The tour's keys (during a guided tour) and the sandbox panel's (F4).
    TOUR_BINDINGS: ClassVar[list[BindingType]] = [
        # The tour's keys. Tooltips only: the tour's caption shows these keys,
        # so no description puts them in the key bar; the manual's key tables
        # read the tooltips.
        Binding(
            "space,enter",
            "tour('next')",
            show=False,
            priority=True,
            id="tour_next",
            tooltip="During a tour: perform the next step",
        ),
        Binding(
            "backspace",
            "tour('repeat')",
            show=False,
            priority=True,
            id="tour_repeat",
            tooltip="During a tour: perform the last step again",
        ),
        Binding(
            "escape",
            "tour('leave')",
            show=False,
            priority=True,
            id="tour_leave",
            tooltip="During a tour: leave it; the app stays where it is",
        ),
        Binding(
            "f4",
            "sandbox_panel",
            "Sandbox",
            show=False,
            priority=True,
            id="sandbox_panel",
            tooltip="The sandbox's clock, reset and scenarios",
        ),
    ]
    #: The keys of every screen.
    SHELL_BINDINGS: ClassVar[list[BindingType]] = [
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
        Binding(
            "f6",
            "toggle_presenting",
            "Present",
            id="toggle_presenting",
            show=False,
            tooltip="Presenter mode: show every customer datum as a fake (turning it off asks)",
        ),
        # From any screen once signed in: the lookup screen's user id field, as
        # Ctrl+L is there (elsewhere the typed id fired single-letter keys).
        Binding("ctrl+l", "look_up", "Look up a user", id="look_up", show=False),
    ]
    BINDINGS: ClassVar[list[BindingType]] = [*TOUR_BINDINGS, *SHELL_BINDINGS]

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
        super().__init__()
        install_app_seams(self, self._crashed)
        self.toasts = Toasts(self)
        self._presenting_filter: PresentingFilter | None = None
        self.demo = tour
        # The sign-in screen is always the first: its sheet read with the
        # app's, so pushing it does not parse every source again in a new
        # sheet without the parse cache (~17 ms before the first frame).
        # Its rules name the screen's own ids; order as before (after tour.tcss).
        self.css_path = [*self.css_path, styles_path("tour.tcss"), styles_path("login.tcss")]
        self.jobs_changed_signal: Signal[None] = Signal(self, "jobs-changed")
        self._jobs_change_pending = False
        self._logged_clashes: set[tuple[str, frozenset[str]]] = set()
        #: The lines printed after an unexpected error ended the app (core.crash).
        self.crash_report: list[str] = []
        #: Why the settings cannot be used, when validation after the first
        #: frame refused them: the command prints it (exit status 2).
        self.config_problem: str | None = None
        desk.attach(self, TextualScheduler(self))
        # Before validation, the values the first frame draws (core.settings.start).
        self._first_values = desk.start_settings or desk.settings
        theme = self._first_values.theme
        if theme and theme in self.available_themes:
            self.theme = theme

    # -- start-up ------------------------------------------------------------

    def get_default_screen(self) -> Screen[Any]:
        # The sign-in screen is the bottom of the stack, not pushed over
        # Textual's empty default screen once the app has mounted: that
        # screen's build, styling and layout, the push and the wait for its
        # mount came before the first frame (~20 ms, docs: streaming.md).
        # Signing in switches it for the lookup screen, signing out back.
        return as_default_screen(self.with_height_class(LoginScreen()))

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
        if self.demo is not None:
            # The sign-in screen is there (the default screen): the tour starts over it.
            from accountdesk.tui.tour import begin_demo

            self.call_after_refresh(begin_demo, self, self.demo)

    def update_styles(self, node: DOMNode, animate: bool = True) -> None:
        # Textual restyles a node whenever its classes change, also one not
        # in the DOM yet: an Input or a Button setting its classes as it is
        # built was styled alone there (seven times before the sign-in
        # screen's first frame, ~5 ms), then again as it mounts (Textual
        # styles every new widget as it registers it). Only the mount's counts.
        if node is not self and node.parent is None:
            return
        super().update_styles(node, animate)

    def with_height_class(self, screen: Screen[Any]) -> Screen[Any]:
        """``screen`` with its height class (``VERTICAL_BREAKPOINTS``, app.tcss) already set.

        Textual sets it at the screen's first resize, which restyled every
        widget of it once more before the first frame (~10 ms).
        """
        name = height_class(self.VERTICAL_BREAKPOINTS, self.size.height)
        if name is not None:
            screen.add_class(name, update=False)
        return screen

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
        from accountdesk.tui.keymap import checked_keymap

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

    # -- the terminal's edges --------------------------------------------------

    def get_driver_class(self) -> type[Driver]:
        # In a terminal, ours (seams.driver). Another driver named in the
        # environment (web mode's) or Windows's stays.
        chosen = super().get_driver_class()
        if chosen.__module__ == "textual.drivers.linux_driver":
            from accountdesk.tui.seams.driver import TerminalDriver

            return TerminalDriver
        return chosen

    def get_css_variables(self) -> dict[str, str]:
        variables = super().get_css_variables()
        if self.no_color:
            variables.update(_NO_COLOUR_STYLES)
        return variables

    def on_resize(self, event: events.Resize) -> None:
        # Before Textual's own handler (App._on_resize: Textual calls a
        # class's on_ handler before its bases'), which hands the size to the
        # screens 1/120 s later, the top one first. Every screen of the stack
        # shows or hides its content for the new size now: a modal on top
        # (the palette) is composited over the screens beneath, and laid out
        # at 20x6 before they hid their widgets, a label 0 cells wide crashed
        # rich. Shown again now, not when the screens have the size: keys
        # typed right after the terminal grew went nowhere for 60-100 ms. No
        # frame is drawn in between (seams.frames).
        fit_terminal(self, event.size)
        self.toasts.resized(event.size)

    async def on_event(self, event: events.Event) -> None:
        # A terminal too small shows one line and nothing else: a key typed
        # then would act unseen (`j` opened the jobs screen, `e` the error
        # log, letters went into a box nobody could see). Only quitting works.
        if (
            isinstance(event, events.Key)
            and not event.is_forwarded
            and event.key not in _KEYS_WHEN_TOO_SMALL
            and terminal_too_small(self)
        ):
            event.stop()
            return
        await super().on_event(event)

    def action_command_palette(self) -> None:
        """Ctrl+P: the palette, unless the terminal is too small to draw it (a bell then)."""
        if terminal_too_small(self):
            # It would draw over the one line that says what size is needed.
            self.bell()
            return
        super().action_command_palette()

    def crash_log_file(self) -> Path | None:
        """The log file a crash's traceback went to (None: no log could be written)."""
        return self.desk.dirs.log_file if self._log_handler is not None else None

    def _crashed(self, error: Exception) -> None:
        # Imported here: only a crash needs it (~4 ms of every start otherwise).
        from accountdesk.core.crash import crash_lines, log_crash

        log_crash(log, error)
        self.crash_report = crash_lines(error, self.crash_log_file())

    def run(self, *args: Any, **options: Any) -> Any:
        """Run the app; after an unexpected error, print its few lines once the terminal is back.

        Plain lines, not rich's: a path wrapped by rich could not be copied whole.
        """
        self.crash_report = []
        result = super().run(*args, **options)
        if self.crash_report:
            print("\n".join(self.crash_report), file=sys.stderr)
        return result

    # -- presenter mode ------------------------------------------------------------

    def get_line_filters(self) -> Sequence[LineFilter]:
        # Every line of every widget, once laid out and rendered: the customer's
        # data replaced by fakes of the same cells while presenting (tui.presenting).
        filters = super().get_line_filters()
        if not self.desk.presenting:
            return filters
        presenter = self.desk.presenter
        if (
            self._presenting_filter is None
            or self._presenting_filter.generation != presenter.generation
        ):
            # A new filter once more is learnt: Textual keeps each line's filtered
            # copy by filter, and a line drawn before would keep its old faking.
            self._presenting_filter = PresentingFilter(presenter)
        return [*filters, self._presenting_filter]

    def action_toggle_presenting(self) -> None:
        """Presenter mode on at once; off only once the person says so (it shows real data)."""
        presenter = self.desk.presenter
        if not presenter.active:
            self._set_presenting(True)
            return
        if presenter.locked:
            self.notify(
                "This page presents, and it cannot be turned off here.",
                title="Presenting",
                severity="warning",
            )
            return
        from accountdesk.tui.screens.confirm import ConfirmDialog

        def answered(stop: bool | None) -> None:
            if stop:
                self._set_presenting(False)

        self.push_screen(
            ConfirmDialog(
                "Stop presenting?",
                "The customer's real names, numbers and addresses will show on this screen, "
                "and on any screen shared from it.",
                yes="Stop presenting",
            ),
            callback=answered,
        )

    def _set_presenting(self, on: bool) -> None:
        self.desk.set_presenting(on)
        if on:
            # What was read is faked at once; a customer on screen whose other
            # record was never read is read now (learnt within a round trip).
            shown = {getattr(screen, "user_id", None) for screen in self.screen_stack}
            for user_id in sorted(user for user in shown if isinstance(user, str)):
                self.run_worker(
                    self.desk.learn_customer(user_id), group="presenting", exit_on_error=False
                )
        log.info("presenter mode %s", "on" if on else "off")
        self.notify(
            "Customer data is shown as fakes."
            if on
            else "Customer data is shown as the service sends it.",
            title="Presenting" if on else "Stopped presenting",
        )

    # -- toasts ------------------------------------------------------------------

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        """Every toast of the app: a repeat is counted, not stacked; at most three show."""
        wait = self.NOTIFICATION_TIMEOUT if timeout is None else timeout
        self.toasts.add(message, title=title, severity=severity, timeout=wait, markup=markup)

    def clear_notifications(self) -> None:
        self.toasts.clear()

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

    def presenting_changed(self) -> None:
        self.post_message(PresentingChanged())

    # -- message handlers ------------------------------------------------------

    def on_jobs_changed(self, message: JobsChanged) -> None:
        self._jobs_change_pending = False
        self.jobs_changed_signal.publish(None)

    def on_reachability_changed(self, message: ReachabilityChanged) -> None:
        from accountdesk.tui.widgets.header import AppHeader

        for screen in self.screen_stack:
            for header in screen.query(AppHeader):
                header.show_reachability()

    def on_presenting_changed(self, message: PresentingChanged) -> None:
        """Presenter mode turned on or off, or new originals learnt: everything drawn again."""
        from accountdesk.tui.base import DeskModal
        from accountdesk.tui.widgets.header import AppHeader

        for screen in self.screen_stack:
            for header in screen.query(AppHeader):
                header.show_presenting()
            if isinstance(screen, DeskModal):
                screen.show_presenting()
            # What was drawn is kept per widget: drawn again, through the filter as it is now.
            for node in screen.walk_children(with_self=True):
                node.refresh()
        self.toasts.redraw()

    def on_show_notice(self, message: ShowNotice) -> None:
        self.show_notice(message.notice)

    def on_error_recorded(self, message: ErrorRecorded) -> None:
        self.show_record(message.record)

    def on_mfa_needed(self, message: MfaNeeded) -> None:
        from accountdesk.core.notices import mfa_offer

        tracked = message.tracked
        if self.closing:
            return  # not offered: the next session offers it
        tracked.mfa_offered = True
        if isinstance(self.screen, ModalScreen):
            self.show_notice(mfa_offer(tracked))
        else:
            self.open_mfa_dialog(tracked.key)

    def on_service_failed(self, message: ServiceFailed) -> None:
        """Every failure a screen or worker reports ends up here, once."""
        self.show_record(self.desk.record_error(message.error))

    def on_signed_in(self, message: SignedIn) -> None:
        from accountdesk.tui.screens.lookup import LookupScreen

        self.switch_screen(LookupScreen())

    def on_sign_out_requested(self, message: SignOutRequested) -> None:
        self._unless_jobs_run("Sign out", self.sign_out)

    def on_open_account(self, message: OpenAccount) -> None:
        from accountdesk.tui.screens.account import AccountScreen

        self.push_screen(AccountScreen(message.user_id))

    async def action_quit(self) -> None:
        """Quit; with unfinished jobs, ask first (they are polled again next time)."""

        async def leave() -> None:
            self.exit()

        self._unless_jobs_run("Quit", leave)

    def _unless_jobs_run(self, what: str, then: Callable[[], Awaitable[None]]) -> None:
        """Run ``then`` now when no job is unfinished; otherwise only if the user says so."""
        from accountdesk.tui.screens.confirm import ask_before_leaving

        ask_before_leaving(self, self.desk.unfinished_jobs(), what, then)

    def on_open_mfa_dialog(self, message: OpenMfaDialog) -> None:
        self.open_mfa_dialog(message.key)

    # -- drawing what the desk says ----------------------------------------------

    @property
    def closing(self) -> bool:
        """No screen is left: the app is shutting down.

        Textual closes the screens before the app's unmount signs the desk
        out, so a poll may still fail, or a job ask for MFA, in between.
        """
        return not self.screen_stack

    def show_notice(self, notice: Notice) -> None:
        self.notify(notice.message, title=notice.title, severity=notice.severity, markup=False)

    def show_record(self, record: ErrorRecord) -> None:
        """Toast an error record: its message, then one line of what to do next.

        Network text, so markup off. An open error log is refreshed.
        """
        from accountdesk.tui.screens.error_log import ErrorLogScreen

        if self.closing:
            return  # in the error log and the log file already; nothing left to draw on
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
        from accountdesk.tui.screens.mfa import MfaDialog

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
        from accountdesk.tui.screens.help import HelpScreen

        if isinstance(self.screen, HelpScreen):
            self.pop_screen()
            return
        self.push_screen(HelpScreen(self.screen))

    def action_show_error_log(self) -> None:
        from accountdesk.tui.screens.error_log import ErrorLogScreen

        if not isinstance(self.screen, ErrorLogScreen):
            self.push_screen(ErrorLogScreen())

    def action_show_jobs(self) -> None:
        from accountdesk.tui.screens.jobs import JobsScreen

        if not isinstance(self.screen, JobsScreen):
            self.push_screen(JobsScreen())

    def action_look_up(self) -> None:
        """Back to the lookup screen (from any full screen), its user id field focused."""
        from accountdesk.tui.screens.lookup import LookupScreen

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
        presenting = self.desk.presenter.active
        # Drawn as the screen is (through the presenter's filter); its title says so.
        svg = self.export_screenshot(title=f"{self.title} · PRESENTING" if presenting else None)
        if not self.desk.store.write_text(target, svg):
            return None  # the store told the user why
        log.info("screenshot saved to %s", target)
        title = "Screenshot saved (presenting: fakes)" if presenting else "Screenshot saved"
        self.notify(str(target), title=title, markup=False)
        return str(target)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Jobs belong to a signed-in session; before that the key is hidden.
        if action in {"show_jobs", "toggle_job_polling"} and not self.desk.signed_in:
            return False
        if action == "look_up" and (
            not self.desk.signed_in or isinstance(self.screen, ModalScreen)
        ):
            return False  # a dialog is answered or closed first
        # The tour's and the panel's keys, hidden and disabled while they are
        # not the tour's or the panel's: priority keys that were merely skipped
        # would still take the place of the screen's own Esc, Enter and Space
        # in the key bar and in F1.
        if action == "tour":
            runner = _current_tour(self)
            return runner is not None and runner.handles(str(parameters[0]))
        if action == "sandbox_panel":
            return _sandbox_panel_offered(self)  # also while the panel is open: F4 closes it
        return super().check_action(action, parameters)

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        from accountdesk.tui.commands import system_commands

        yield from system_commands(self, screen, self._system_commands(screen))

    def _system_commands(self, screen: Screen[object]) -> Iterator[SystemCommand]:
        yield from super().get_system_commands(screen)
        # Once a tour ended or was left there was no way to start another one.
        if self.demo is not None and _tours_offered(self):
            yield SystemCommand(
                "Guided tours…",
                "Pick a guided tour; it starts from the sign-in screen on a reset sandbox",
                self.action_tours,
            )
        presenting = self.desk.presenter.active
        if not (presenting and self.desk.presenter.locked):
            yield SystemCommand(
                "Stop presenting" if presenting else "Start presenting",
                "Presenter mode: every customer datum on screen shown as a fake (F6)"
                if not presenting
                else "Show the customer's real data again (asks first)",
                self.action_toggle_presenting,
            )
        if _sandbox_panel_offered(self):
            yield SystemCommand(
                "Sandbox panel",
                "The sandbox's clock (+1, +5, +15 min), reset and scenarios (F4)",
                self.action_sandbox_panel,
            )

    # -- tours and the sandbox panel -------------------------------------------------

    def action_tour(self, command: str) -> None:
        from accountdesk.tui.tour import tour_key

        if not tour_key(self, command):
            raise SkipAction()

    def action_sandbox_panel(self) -> None:
        """Open the sandbox panel, or close it; nothing on a live service."""
        from accountdesk.tui.screens.sandbox_panel import SandboxPanel

        if isinstance(self.screen, SandboxPanel):
            self.screen.dismiss()
        elif _sandbox_panel_offered(self):
            self.push_screen(SandboxPanel())

    def action_tours(self) -> None:
        """Offer the tours again (the palette's "Guided tours…"; ``accountdesk demo`` only)."""
        from accountdesk.tui.tour import offer_tours

        if self.demo is not None and _tours_offered(self):
            tours = demo_tours(self.demo)
            offer_tours(self, tours, again=self.desk.signed_in, prepare=self._fresh_start)

    async def _fresh_start(self) -> bool:
        """Back where ``accountdesk demo`` starts: signed out, the sandbox as new; False if refused."""
        from accountdesk.client import AccountDataError

        desk = self.desk
        if not desk.signed_in:
            # The sign-in screen is at the bottom: close what is open over it
            # (the error log, help), or the first step found no sign-in screen.
            while len(self.screen_stack) > 1:
                self.pop_screen()
            return True
        # Tours are written for that start: their first step signs in, and their
        # codes assume no earlier block, MFA session or job (the jobs the app
        # tracks then read as gone, as after the sandbox panel's reset).
        try:
            await desk.reset_sandbox()
        except AccountDataError as error:
            self.post_message(ServiceFailed(error, "sandbox_reset"))
            return False
        await self.sign_out()
        return True


def demo_tours(demo: DemoStart) -> list[Tour]:
    """The tours to offer again: the shipped ones, and the demo's own tour file if it ran one."""
    from accountdesk.core.tours.tour import Tour, shipped_tours

    started = [demo] if isinstance(demo, Tour) else list(demo)
    # A shipped tour started by its id is offered once, in its place.
    by_id = {tour.id: tour for tour in [*shipped_tours(), *started]}
    return list(by_id.values())


def _current_tour(app: App[None]) -> TourRunner | None:
    # No tour can run before its module is loaded: check without importing it.
    tour = sys.modules.get("accountdesk.tui.tour")
    return tour.current_tour(app) if tour is not None else None


def _tours_offered(app: App[None]) -> bool:
    """No tour runs and the picker is not open already."""
    from accountdesk.tui.screens.tour_picker import TourPickerScreen

    if _current_tour(app) is not None:
        return False
    return not any(isinstance(screen, TourPickerScreen) for screen in app.screen_stack)


def _sandbox_panel_offered(app: App[None]) -> bool:
    desk = desk_of(app)
    return desk.is_sandbox and desk.signed_in
