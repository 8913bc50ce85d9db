"""The account screen: a user's account record and balance, and the jobs to start.

Loads the account, then the balance, in a worker. Each failure is a toast
(through the app) and the panel it belongs to says what could not be loaded,
so the screen shows whatever the service did answer: a manually linked
user's account with "balance not available", for example.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from datetime import datetime
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid, Horizontal, Vertical
from textual.content import Content
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import Button, Static

from accountdesk.client import (
    Account,
    AccountDataError,
    Balance,
    UserNotFoundError,
)
from accountdesk.contract import JobKind
from accountdesk.core.errors.log import failure_line
from accountdesk.core.formatting import format_amount, format_time
from accountdesk.tui.base import DeskScreen
from accountdesk.tui.job_starts import JobStarted, JobStarts
from accountdesk.tui.messages import RecordScenario, ServiceFailed
from accountdesk.tui.preload import preload_transactions_screen
from accountdesk.tui.resources import styles_path
from accountdesk.tui.widgets.fields import field_table, secret_text, show_fields, stale_line
from accountdesk.tui.widgets.footer import AppFooter
from accountdesk.tui.widgets.header import AppHeader

if TYPE_CHECKING:
    from accountdesk.client import AccountDataClient

log = logging.getLogger(__name__)

_ACTION_BUTTONS = (
    ("refresh_balance", "Refresh balance"),
    ("start_identity", "Start identity"),
    ("start_transactions", "Start txn job"),
    ("reveal_numbers", "Reveal numbers"),
    ("view_identity", "View identity"),
    ("view_transactions", "Transactions"),
    ("app.show_jobs", "Jobs"),
    ("reload", "Reload"),
)


def _key_label(keys: Mapping[str, str], binding_id: str, text: str) -> Content:
    """A button's words after its key: the key bar has no room for every key on 80 columns."""
    key = keys.get(binding_id)
    return (
        Content.assemble((key, "bold $footer-key-foreground"), " ", text) if key else Content(text)
    )


class AccountLoaded(Message):
    def __init__(self, account: Account, read_at: datetime) -> None:
        super().__init__()
        self.account = account
        self.read_at = read_at


class BalanceLoaded(Message):
    def __init__(self, balance: Balance, read_at: datetime) -> None:
        super().__init__()
        self.balance = balance
        self.read_at = read_at


class AccountScreen(DeskScreen[None]):
    """Account record, balance and job actions for one user."""

    CSS_PATH = styles_path("account.tcss")
    HELP_TITLE = "Account and balance"
    HELP = """\
The account record and balance of one user, as the service answers them.

Account and routing numbers are **masked**; `r` shows them in full (and hides
them again). Errors become toasts and the panel says what is missing.

- **Refresh balance** starts a balance-refresh job; the balance is read
  again when the job completes.
- **Start identity** / **Start transactions** start the service's jobs; follow
  them on the jobs screen (`j`). A job that needs MFA opens the MFA dialog.
- **View identity** / **View transactions** read the results.
- `s` records this user as a **scenario**: a pack user that answers the
  same (redacted by default), to reproduce, attach to a ticket or teach.
"""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back", id="back", tooltip="Back to the lookup screen"),
        Binding(
            "b",
            "refresh_balance",
            "Refresh",
            id="refresh_balance",
            tooltip="Start a balance refresh job",
        ),
        Binding(
            "i", "start_identity", "Start ID", id="start_identity", tooltip="Start an identity job"
        ),
        Binding(
            "t",
            "start_transactions",
            "Start txns",
            id="start_transactions",
            tooltip="Start a transactions job",
        ),
        Binding("v", "view_identity", "Identity", id="view_identity", tooltip="Read identity data"),
        Binding(
            "x",
            "view_transactions",
            "Txns",
            id="view_transactions",
            tooltip="Read transaction data (table)",
        ),
        # One key, two bindings sharing an id (so a keymap moves both):
        # check_action shows the one that says what pressing r does now.
        Binding(
            "r",
            "reveal_numbers",
            "Reveal",
            id="reveal_numbers",
            tooltip="Show or mask the account and routing numbers",
        ),
        Binding(
            "r",
            "hide_numbers",
            "Hide",
            id="reveal_numbers",
            tooltip="Show or mask the account and routing numbers",
        ),
        Binding("l", "reload", "Reload", id="reload", tooltip="Read account and balance again"),
        # Last: the key bar leaves it out before any other when space is short.
        Binding(
            "s",
            "record_scenario",
            "Scenario",
            id="record_scenario",
            tooltip="Record this user as a scenario (a pack user that answers the same)",
        ),
    ]

    revealed: reactive[bool] = reactive(False)

    def __init__(self, user_id: str) -> None:
        super().__init__()
        self.user_id = user_id
        self.account: Account | None = None
        self.balance: Balance | None = None
        self.balance_read_at: datetime | None = None
        self.account_read_at: datetime | None = None
        self._account_problem: str | None = None
        self._balance_problem: str | None = None
        #: The jobs this screen starts (b, i, t).
        self.job_starts = JobStarts(self, user_id)

    def compose(self) -> ComposeResult:
        self.desk.presenter.learn_user_ids([self.user_id])  # the title names it
        yield AppHeader(f"Account · {self.user_id}")
        with Horizontal(id="account-panels"):
            with Vertical(id="account-panel", classes="panel"):
                yield Static("Account", classes="panel-title")
                yield Static("Loading…", id="account-fields")
            with Vertical(id="balance-panel", classes="panel"):
                yield Static("Balance", classes="panel-title")
                yield Static("Loading…", id="balance-fields")
        yield Static("", id="account-note", markup=False)
        # The same actions as buttons, for the mouse and for narrow terminals
        # where the footer cannot show every key.
        with Grid(id="account-actions"):
            keys = self._keys()
            for action, label in _ACTION_BUTTONS:
                binding_id = action.removeprefix("app.")
                yield Button(
                    _key_label(keys, binding_id, label),
                    id=f"do-{binding_id}",
                    compact=True,
                    classes="action-button",
                )
        yield AppFooter()

    @on(Button.Pressed, ".action-button")
    async def _button_pressed(self, event: Button.Pressed) -> None:
        wanted = (event.button.id or "").removeprefix("do-")
        for action, _label in _ACTION_BUTTONS:
            if action.removeprefix("app.") == wanted:
                await self.run_action(action)

    def _keys(self) -> dict[str, str]:
        """Each binding id's key as the key bar shows it (the config's keymap included)."""
        keys: dict[str, str] = {}
        for active in self.active_bindings.values():
            if active.binding.id:
                keys.setdefault(active.binding.id, self.app.get_key_display(active.binding))
        return keys

    def on_mount(self) -> None:
        self.jobs_changed_signal.subscribe(self, self._jobs_changed)
        self.action_reload()
        self.call_after_refresh(preload_transactions_screen, self, self.desk, self.user_id)

    # -- loading -------------------------------------------------------------

    def action_reload(self) -> None:
        self._account_problem = self._balance_problem = None
        # What was read stays on screen while it is read again (and, if that
        # fails, is marked stale with its time rather than wiped).
        if self.account is None:
            self.query_one("#account-fields", Static).update("Loading…")
        if self.balance is None:
            self.query_one("#balance-fields", Static).update("Loading…")
        self._load()

    @work(exclusive=True, exit_on_error=False, group="account", name="get_account")
    async def _load(self) -> None:
        desk, client = self.desk, self.desk.client
        try:
            account = await client.get_account(self.user_id)
        except AccountDataError as error:
            desk.presenter.tried(self.user_id, "account")
            await desk.learn_customer(self.user_id)  # the error may name the customer
            self.post_message(ServiceFailed(error, "get_account"))
            return
        # Presenting: the customer's names learnt before any is drawn (core.presenting).
        desk.learn_from_read(self.user_id, account=account)
        await desk.learn_customer(self.user_id)
        self.post_message(AccountLoaded(account, desk.now()))
        await self._read_balance(client)

    @work(exclusive=True, exit_on_error=False, group="balance", name="get_balance")
    async def _reload_balance(self) -> None:
        await self._read_balance(self.desk.client)

    async def _read_balance(self, client: AccountDataClient) -> None:
        try:
            balance = await client.get_balance(self.user_id)
        except AccountDataError as error:
            self.post_message(ServiceFailed(error, "get_balance"))
            return
        self.post_message(BalanceLoaded(balance, self.desk.now()))

    def on_account_loaded(self, message: AccountLoaded) -> None:
        self.account = message.account
        self.account_read_at = message.read_at
        self._account_problem = None
        self._show_account()

    def on_balance_loaded(self, message: BalanceLoaded) -> None:
        self.balance = message.balance
        self.balance_read_at = message.read_at
        self._balance_problem = None
        self._show_balance()

    def on_service_failed(self, message: ServiceFailed) -> None:
        error = message.error
        problem = failure_line("Not available", error)
        if message.operation == "get_account":
            if getattr(error, "code", None) == UserNotFoundError.code:
                # Recent lookups are for finding people again; one who does
                # not exist would only be a trap on the lookup screen.
                self.desk.recents.forget(self.user_id)
            self._account_problem = problem
            self._show_account()
            if self.balance is None:
                self.query_one("#balance-fields", Static).update(
                    Text("Not read: the account could not be loaded.", style="dim")
                )
            else:
                self._balance_problem = "Not read again: the account could not be loaded."
                self._show_balance()
        elif message.operation == "get_balance":
            self._balance_problem = problem
            self._show_balance()
        # The message bubbles on to the app, which shows the toast.

    # -- rendering -----------------------------------------------------------

    def watch_revealed(self, revealed: bool) -> None:
        if not self.is_mounted:
            return
        # Button and key say what pressing them will do now.
        self.query_one("#do-reveal_numbers", Button).label = _key_label(
            self._keys(), "reveal_numbers", "Hide numbers" if revealed else "Reveal numbers"
        )
        self.refresh_bindings()
        if self.account is not None:
            self._show_account()

    def _show_account(self) -> None:
        panel = self.query_one("#account-fields", Static)
        account = self.account
        if account is None:
            panel.update(Text(self._account_problem or "Loading…", style="bold red"))
            return
        stale = stale_line(self._account_problem, self.account_read_at)
        if self.revealed:
            number = secret_text(account.account_number)
            routing = secret_text(account.routing_number)
        else:
            number, routing = account.masked_account_number, account.masked_routing_number
        link = "Manually linked" if account.is_manually_linked else "Linked through the FI"
        show_fields(
            panel,
            field_table(
                [
                    ("Institution", account.institution_name or "—"),
                    ("Name", account.account_name or "—"),
                    ("Type", account.account_type or "—"),
                    ("Number", number),
                    ("Routing", routing),
                    ("Currency", account.currency or "—"),
                    ("Link", Text(link, style="bold yellow" if account.is_manually_linked else "")),
                ]
            ),
            stale,
        )
        note = self.query_one("#account-note", Static)
        note.update("Numbers shown in full: press r to mask them." if self.revealed else "")

    def _show_balance(self) -> None:
        panel = self.query_one("#balance-fields", Static)
        balance = self.balance
        if balance is None:
            panel.update(Text(self._balance_problem or "Loading…", style="bold red"))
            return
        currency = balance.currency or (self.account.currency if self.account else None)
        show_fields(
            panel,
            field_table(
                [
                    ("Available", format_amount(balance.available, currency)),
                    ("Current", format_amount(balance.current, currency)),
                    ("As of", format_time(balance.as_of)),
                    ("Read at", format_time(self.balance_read_at)),
                ],
                label_width=9,
            ),
            stale_line(self._balance_problem, self.balance_read_at),
        )

    # -- actions -------------------------------------------------------------

    def action_refresh_balance(self) -> None:
        self.job_starts.start(JobKind.BALANCE_REFRESH)

    def action_start_identity(self) -> None:
        self.job_starts.start(JobKind.IDENTITY)

    def action_start_transactions(self) -> None:
        self.job_starts.start(JobKind.TRANSACTIONS)

    def on_job_started(self, message: JobStarted) -> None:
        self.job_starts.started(message.job)

    def action_reveal_numbers(self) -> None:
        self.revealed = not self.revealed

    def action_hide_numbers(self) -> None:
        self.revealed = False

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "reveal_numbers":
            return not self.revealed
        if action == "hide_numbers":
            return self.revealed
        return True

    def action_back(self) -> None:
        self.app.pop_screen()

    def action_record_scenario(self) -> None:
        from accountdesk.tui.screens.record_case import RecordCaseDialog

        self.app.push_screen(RecordCaseDialog(self.user_id))

    def on_record_scenario(self, message: RecordScenario) -> None:
        self.action_record_scenario()

    def action_view_identity(self) -> None:
        from accountdesk.tui.screens.identity import IdentityScreen

        self.app.push_screen(IdentityScreen(self.user_id))

    def action_view_transactions(self) -> None:
        from accountdesk.tui.screens.transactions import open_transactions

        open_transactions(self, self.user_id)

    def _jobs_changed(self, _: None) -> None:
        # A balance refresh started here has completed: read the new balance.
        if self.job_starts.refresh_completed():
            self._reload_balance()
