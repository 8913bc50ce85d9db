"""Record this user as a scenario: the account screen's (and the palette's) dialog.

Asks three things (redact, start the jobs too, where to save), records the
user through the signed-in client in a worker (:func:`~accountdesk.core.cases.case.record_case`)
and shows, in the dialog itself, where the pack went, what each request
answered and how to serve it: toasts wait while a dialog is open, and this
is the answer the person is waiting for.

On a live service the jobs box starts unticked (they are real jobs) and
unredacted saving says, in the warning colour, that the file holds the
customer's data.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Button, Checkbox, Input, Label, Static

from accountdesk.core.cases.case import (
    CaseFileError,
    RecordError,
    SavedCase,
    new_case_path,
    next_case_id,
    serve_command,
)
from accountdesk.core.cases.files import scenarios_folder
from accountdesk.core.formatting import home_path
from accountdesk.tui.base import DeskModal
from accountdesk.tui.messages import ServiceFailed
from accountdesk.tui.presenting import TypedField
from accountdesk.tui.resources import styles_path
from accountdesk.tui.widgets.footer import AppFooter
from accountdesk.tui.widgets.tick_box import TickBox

__all__ = ["RecordCaseDialog"]


class CaseSaved(Message):
    def __init__(self, saved: SavedCase) -> None:
        super().__init__()
        self.saved = saved


class CaseRefused(Message):
    def __init__(self, reason: str) -> None:
        super().__init__()
        self.reason = reason


class RecordCaseDialog(DeskModal[None]):
    """Record one user as a scenario pack user, and say where it went."""

    CSS_PATH = styles_path("record_case.tcss")
    HELP_TITLE = "Record a scenario"
    HELP = """\
Reads this user's account, balance, identity and transactions and saves a
**scenario pack** user that answers the same, errors included (status, code
and message as the service sent them). Serve it with
`accountdesk sandbox --scenarios FILE` to reproduce the case, attach it to a
ticket, or teach it.

- **Redact** (on by default): names, e-mails, phone numbers, addresses,
  account and routing numbers and the user id become fakes of the same
  shape. The same user gives the same file.
- **Start its jobs too**: a balance refresh, an identity and a transactions
  job, to keep how they answer (MFA, refusals). On a live service these are
  real jobs. No call of the service ends a job: one that asks for MFA waits
  for the customer's answer until its session expires, and meanwhile the
  user's next identity or transactions job is refused (AC-112). The jobs
  left are tracked on the jobs screen, where `m` answers their MFA.

Nothing saved holds a token, a key or a secret.
"""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close", id="record_close"),
        Binding("f1", "app.help", "Help", id="record_help", tooltip="Help for this dialog"),
    ]

    def __init__(self, user_id: str) -> None:
        super().__init__()
        self.user_id = user_id
        self.saved: SavedCase | None = None
        self._case_id: str | None = None

    def compose(self) -> ComposeResult:
        desk = self.desk
        where = "the embedded sandbox" if desk.embedded else desk.service_url
        with Vertical(id="record-box") as box:
            box.border_title = Text(f"Record {self.user_id} as a scenario")
            yield Static(
                f"Reads the account, balance, identity and transactions from {where} and "
                "saves a scenario user that answers the same, errors included.",
                id="record-intro",
                markup=False,
            )
            yield TickBox(
                "Redact names, numbers, e-mails, phones, the user id", True, id="record-redact"
            )
            yield TickBox(
                "Start its jobs too (refresh, identity, transactions)",
                desk.is_sandbox,
                id="record-jobs",
            )
            yield Static(
                "No call ends a job: one at MFA waits for the customer's answer until its "
                "session expires, and the user's next job of its kind is refused meanwhile "
                "(AC-112). Jobs left are tracked on the jobs screen.",
                id="record-jobs-note",
                markup=False,
            )
            yield Static("", id="record-warning", markup=False)
            with Horizontal(id="record-file"):
                yield Label("Save as", id="record-file-label")
                yield TypedField(self._default_path(redact=True), id="record-path", compact=True)
            yield Static("", id="record-result", markup=False)
            with Horizontal(id="record-buttons"):
                yield Button("Record", id="record-go", variant="primary", compact=True)
                yield Button("Close", id="record-cancel", compact=True)
        yield AppFooter()

    def on_mount(self) -> None:
        self._follow_presenting()
        self._show_warning()
        self.query_one("#record-result").display = False
        self.query_one("#record-go", Button).focus()

    def show_presenting(self) -> None:
        super().show_presenting()
        if self.is_mounted and self.saved is None:
            self._follow_presenting()
            self._show_warning()

    def _follow_presenting(self) -> None:
        # A recording made while presenting is the redacted one (core.cases.case):
        # the box says so rather than offering what will not be done.
        box = self.query_one("#record-redact", Checkbox)
        if self.desk.presenter.active and not box.value:
            box.value = True
        box.disabled = self.desk.presenter.active

    def _default_path(self, *, redact: bool) -> str:
        # A redacted case is never named after the customer's user id; it is named
        # as the id it gets, the next case_<n> of the cases folder (looked up once).
        folder = scenarios_folder(self.desk.dirs.data_dir)
        if redact and self._case_id is None:
            self._case_id = next_case_id([folder])
        name = self._case_id if redact and self._case_id is not None else self.user_id
        return home_path(new_case_path(folder, name, self.desk.wall_time()))

    # -- the form ---------------------------------------------------------------------

    @on(Checkbox.Changed, "#record-redact")
    def _redact_toggled(self, event: Checkbox.Changed) -> None:
        field = self.query_one("#record-path", Input)
        # A file typed by hand stays; the suggested one follows the box.
        if field.value == self._default_path(redact=not event.value):
            field.value = self._default_path(redact=event.value)
        self._show_warning()

    @on(Checkbox.Changed, "#record-jobs")
    def _jobs_toggled(self) -> None:
        self._show_warning()

    def _show_warning(self) -> None:
        warnings = []
        live = not self.desk.is_sandbox
        jobs = self.query_one("#record-jobs", Checkbox).value
        self.query_one("#record-jobs-note").display = jobs
        if live and self.query_one("#record-jobs", Checkbox).value:
            warnings.append("These are real jobs on the live service.")
        if self.desk.presenter.active:
            warnings.append("Presenting: the recording is redacted.")
        elif not self.query_one("#record-redact", Checkbox).value:
            warnings.append("Not redacted: the file will hold the customer's data as sent.")
        note = self.query_one("#record-warning", Static)
        note.update(Text(" ".join(warnings), style="bold yellow"))
        note.display = bool(warnings)

    @on(Button.Pressed, "#record-cancel")
    def action_close(self) -> None:
        self.dismiss(None)

    @on(Button.Pressed, "#record-go")
    @on(Input.Submitted, "#record-path")
    def _record(self) -> None:
        if self.saved is not None:
            self.dismiss(None)
            return
        text = self.query_one("#record-path", Input).value.strip()
        if not text:
            self._show_result(Text("Give the file to save to.", style="bold red"))
            return
        path = Path(text).expanduser()
        self.query_one("#record-go", Button).disabled = True
        self._show_result(Text(f"Recording {self.user_id}…"))
        self._run(
            path,
            redact=self.query_one("#record-redact", Checkbox).value,
            with_jobs=self.query_one("#record-jobs", Checkbox).value,
        )

    @work(exclusive=True, exit_on_error=False, group="record-case", name="record_case")
    async def _run(self, path: Path, *, redact: bool, with_jobs: bool) -> None:
        from accountdesk.core.cases.case import record_case
        from accountdesk.core.cases.record import service_host

        desk = self.desk
        try:
            saved = await record_case(
                desk.client,
                self.user_id,
                store=desk.store,
                target=path,
                service=service_host(None if desk.embedded else desk.service_url),
                now=desk.wall_time().replace(microsecond=0),  # when, as a person reads it later
                cases_folder=scenarios_folder(desk.dirs.data_dir),
                redact=redact,
                with_jobs=with_jobs,
                presenting=desk.presenter.active,
            )
        except RecordError as error:
            desk.track_left_jobs(self.user_id, error.left)
            self.post_message(CaseRefused(str(error)))
            return
        except CaseFileError as error:
            self.post_message(CaseRefused(str(error)))
            return
        desk.track_left_jobs(self.user_id, saved.left)
        self.post_message(CaseSaved(saved))

    # -- the outcome ------------------------------------------------------------------

    def on_case_saved(self, message: CaseSaved) -> None:
        saved = self.saved = message.saved
        lines = [f"Saved to {home_path(saved.path)}", *saved.answers]
        lines += [f"Note: {note}" for note in saved.notes]
        if saved.left:
            lines.append(f"Tracked on the jobs screen (m answers MFA there): {saved.left_summary}.")
        lines.append(f"Serve it: {serve_command(Path(home_path(saved.path)))}")
        self._show_result(Text("\n".join(lines)))
        go = self.query_one("#record-go", Button)
        go.label, go.disabled = "Done", False
        for box in self.query(Checkbox):
            box.disabled = True
        self.query_one("#record-jobs-note").display = False  # asked and answered: room for it
        self.query_one("#record-path", Input).disabled = True
        go.focus()

    def on_case_refused(self, message: CaseRefused) -> None:
        self._show_result(Text(f"Not saved: {message.reason}", style="bold red"))
        self.query_one("#record-go", Button).disabled = False

    def on_service_failed(self, message: ServiceFailed) -> None:
        # Our own bug in the worker: the app logs it and shows the toast.
        self._show_result(
            Text("Not saved: an internal error (details in the log).", style="bold red")
        )
        self.query_one("#record-go", Button).disabled = False

    def _show_result(self, text: Text) -> None:
        result = self.query_one("#record-result", Static)
        result.update(text)
        result.display = True
