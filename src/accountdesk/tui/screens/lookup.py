"""The user lookup screen: type a user id, or pick a recent one or a sandbox scenario.

The id is checked against the service's rule before anything is sent and the
reason is shown under the input. Recent lookups survive restarts; on the
embedded sandbox the scenario catalogue is listed so a demo needs no typing.
"""

from __future__ import annotations

import logging
from typing import ClassVar

from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from accountdesk.client import ScenarioUser
from accountdesk.core.user_ids import lookup_problem
from accountdesk.tui.base import DeskScreen
from accountdesk.tui.messages import SignOutRequested
from accountdesk.tui.preload import preload_transactions_screen
from accountdesk.tui.presenting import TypedField
from accountdesk.tui.resources import styles_path
from accountdesk.tui.widgets.footer import AppFooter
from accountdesk.tui.widgets.header import AppHeader
from accountdesk.tui.widgets.scenario_row import ScenarioRow

log = logging.getLogger(__name__)


class ScenariosLoaded(Message):
    def __init__(self, users: list[ScenarioUser]) -> None:
        super().__init__()
        self.users = users


class LookupScreen(DeskScreen[None]):
    """Find a user and open their account."""

    CSS_PATH = styles_path("lookup.tcss")
    _opened_account = False
    HELP_TITLE = "Look up a user"
    HELP = """\
Type a **user id** and press **Enter** to open the user's account and balance.

On the sandbox a user id is 1 to 64 letters, digits, `_`, `.` or `-` (not
`.` or `..`). A live service has its own rule (`user@bank.example` is sent
as typed); only a blank id, `.`, `..` or one too long to send is refused.
Either way the refusal comes here, before a request is sent.

**Recent lookups** are kept across runs. On the embedded sandbox the
**scenarios** list shows one user per behaviour of the service (MFA, manual
link, bank down...): select one with the mouse or the arrow keys and Enter.
"""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+l", "focus_user_id", "User id", id="focus_user_id", tooltip="Type a user id"),
        Binding(
            "ctrl+o", "sign_out", "Sign out", id="sign_out", tooltip="Back to the login screen"
        ),
    ]

    def compose(self) -> ComposeResult:
        yield AppHeader("Look up a user")
        with Vertical(id="lookup-body"):
            yield Label("User id", classes="field-label")
            yield TypedField(id="user-id", placeholder="e.g. user_good — Enter to open")
            yield Static("", id="user-id-problem", markup=False)
            with Horizontal(id="lookup-lists"):
                with Vertical(id="recent-panel", classes="panel"):
                    yield Label("Recent lookups", classes="panel-title")
                    yield OptionList(id="recent")
                if self.desk.is_sandbox:
                    with Vertical(id="scenarios-panel", classes="panel"):
                        yield Label("Sandbox scenarios", classes="panel-title")
                        yield OptionList(id="scenarios")
        yield AppFooter()

    def on_mount(self) -> None:
        self._show_recent()
        self.query_one("#user-id", Input).focus()
        if self.desk.is_sandbox:
            self._load_scenarios()
        # The transactions screen's imports, ahead of the accounts a person opens.
        # (and, embedded, the sandbox's build of large answers such as user_bulk's).
        self.call_after_refresh(preload_transactions_screen, self, self.desk)

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        self._show_recent()
        if self._opened_account:
            # Back from an account: start the next lookup from an empty field
            # (typing must not append to the last id). Help or the error log
            # on top leave what was being typed alone.
            self._opened_account = False
            user_id = self.query_one("#user-id", Input)
            user_id.clear()
            self._show_problem(None)
            user_id.focus()

    def _show_recent(self) -> None:
        recent = self.query_one("#recent", OptionList)
        recent.clear_options()
        user_ids = self.desk.recents.user_ids
        if user_ids:
            recent.add_options(Option(user_id, id=user_id) for user_id in user_ids)
        else:
            recent.add_option(Option("No lookups yet", disabled=True))

    @work(exclusive=True, exit_on_error=False, group="scenarios", name="scenarios")
    async def _load_scenarios(self) -> None:
        self.post_message(ScenariosLoaded(await self.desk.scenarios()))

    def on_scenarios_loaded(self, message: ScenariosLoaded) -> None:
        scenarios = self.query_one("#scenarios", OptionList)
        scenarios.clear_options()
        if not message.users:
            scenarios.add_option(Option("Scenario list unavailable", disabled=True))
            return
        self.desk.presenter.learn_user_ids(user.user_id for user in message.users)
        width = max(len(user.user_id) for user in message.users)
        scenarios.add_options(
            Option(ScenarioRow(user, width), id=user.user_id) for user in message.users
        )

    @on(Input.Changed, "#user-id")
    def _typed(self, event: Input.Changed) -> None:
        # Explain as you type, but do not scold an empty field.
        problem = self._problem(event.value) if event.value else None
        self._show_problem(problem)

    @on(Input.Submitted, "#user-id")
    def _submitted(self) -> None:
        self.action_lookup()

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        # Tab into a list highlights its first row, so Enter opens it at once.
        widget = event.widget
        if isinstance(widget, OptionList) and widget.highlighted is None:
            widget.action_first()

    @on(OptionList.OptionSelected)
    def _picked(self, event: OptionList.OptionSelected) -> None:
        if event.option.id is None:
            return
        if self.desk.presenter.active:
            # The box shows what is typed, unfiltered: a picked id is no presenter's typing.
            self._open(event.option.id)
            return
        self.query_one("#user-id", Input).value = event.option.id
        self.action_lookup()

    def _show_problem(self, problem: str | None) -> None:
        label = self.query_one("#user-id-problem", Static)
        label.update(problem or "")
        self.query_one("#user-id", Input).set_class(problem is not None, "-invalid")

    def action_lookup(self) -> None:
        """Open the account of the typed user id, if the id is acceptable."""

        user_id = self.query_one("#user-id", Input).value
        problem = self._problem(user_id)
        self._show_problem(problem)
        if problem is not None:
            return
        self._open(user_id)

    def _open(self, user_id: str) -> None:
        from accountdesk.tui.screens.account import AccountScreen

        self.desk.presenter.learn_user_ids([user_id])  # a toast may name it before any title
        self.desk.recents.add(user_id)
        self._opened_account = True
        self.app.push_screen(AccountScreen(user_id))

    def action_focus_user_id(self) -> None:
        field = self.query_one("#user-id", Input)
        field.focus()
        # Focusing selects the text, but not in the field focused already (an
        # id just refused): the next id typed replaces it either way.
        field.select_all()

    def action_sign_out(self) -> None:
        self.post_message(SignOutRequested())

    def _problem(self, user_id: str) -> str | None:
        return lookup_problem(user_id, sandbox=self.desk.is_sandbox)
