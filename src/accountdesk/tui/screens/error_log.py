"""The error log: every error of this session, newest last, with what to do about each.

The detail pane shows the selected error with the contract's guidance (what
it means, the next step). ``c`` copies it as ticket text, ``u`` as a curl
command that sends the request again; ``m`` and ``J`` save the whole log as
Markdown or JSON under the data dir; ``s`` saves a scenario pack whose user
answers the selected error (:mod:`accountdesk.core.cases.case`). Every text is redacted and sanitised
(``core.error_reports``); copies go through the terminal or, where it cannot
take them, a dialog and a file (``screens.clipboard``).
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.widgets import DataTable, Static

from accountdesk.core.cases.case import SavedCase
from accountdesk.core.errors.log import ErrorRecord
from accountdesk.core.errors.reports import (
    ReportFormat,
    curl_command,
    export_errors,
    service_label,
    ticket_text,
)
from accountdesk.core.formatting import home_path
from accountdesk.tui.base import DeskScreen
from accountdesk.tui.resources import styles_path
from accountdesk.tui.screens.clipboard import copy_text
from accountdesk.tui.widgets.fitted_table import FittedTable, cell
from accountdesk.tui.widgets.footer import AppFooter
from accountdesk.tui.widgets.header import AppHeader

#: Rows let go at once past which the table is built again rather than cut.
REBUILD_PAST = 64

#: (key, label) of the table's columns; the message takes the width left.
COLUMNS = (
    ("time", "Time"),
    ("method", "Method"),
    ("path", "Path"),
    ("status", "Status"),
    ("code", "Code"),
    ("message", "Message"),
)


class ScenarioMade(Message):
    """The scenario of an error was saved (``saved``), or why it could not be (``problem``)."""

    def __init__(self, record: ErrorRecord, saved: SavedCase | None, problem: str = "") -> None:
        super().__init__()
        self.record = record
        self.saved = saved
        self.problem = problem


class ErrorLogScreen(DeskScreen[None]):
    """Every error of the session in a table."""

    CSS_PATH = styles_path("error_log.tcss")
    HELP_TITLE = "Error log"
    HELP = """\
Every error of this session, oldest first; below the table, what the
selected one means and what to do next. A failure that is not the
service's answer (no connection, say) has no `AC-` code.

Nothing copied or saved holds a token or a secret. Copies the terminal
cannot take (OSC 52) open in a dialog and a file (`clipboard` setting).
"""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back", id="back"),
        Binding(
            "c",
            "copy_error",
            "Copy",
            id="copy_error",
            tooltip="Copy the selected error for a ticket",
        ),
        Binding(
            "u",
            "copy_curl",
            "curl",
            id="copy_curl",
            tooltip="Copy the selected request as a curl command",
        ),
        Binding(
            "m",
            "export('md')",
            "Markdown",
            id="export_markdown",
            tooltip="Save every error as Markdown (for a ticket)",
        ),
        Binding(
            "J",
            "export('json')",
            "JSON",
            id="export_json",
            tooltip="Save every error as JSON",
        ),
        Binding(
            "s",
            "error_scenario",
            "Scenario",
            id="error_scenario",
            tooltip="Make a scenario of this error, for a ticket",
        ),
    ]

    def __init__(self) -> None:
        super().__init__()
        #: The numbers (``ErrorLog.appended`` order) of the first record the
        #: table shows and of the next one to add: each row is keyed by its
        #: record's number.
        self._first = self._next = 0

    def compose(self) -> ComposeResult:
        yield AppHeader("Error log")
        yield FittedTable(
            flexible=("message", "path"), id="error-table", cursor_type="row", zebra_stripes=True
        )
        yield Static("", id="error-log-empty", markup=False)
        yield Static("", id="error-detail", markup=False)
        yield AppFooter()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        for key, label in COLUMNS:
            table.add_column(label, key=key)
        self.show_records()
        table.focus()

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        self.show_records()

    def show_records(self) -> None:
        """Bring the table up to date with the log: new records added, those it let go removed.

        Rows already shown stay as they are: every error that came while the
        log was open drew every row again (30 ms an error at the log's
        1,000). The cursor stays on the error being read (on the oldest kept
        when the log let that one go); on the newest, it follows what comes.
        """
        table = self.query_one(FittedTable)
        log = self.desk.error_log
        selected = self._selected_number()
        follow = selected is None or selected == self._next - 1
        let_go = range(self._first, min(log.first_number, self._next))
        changed = bool(let_go) or log.appended > self._next
        if len(let_go) > REBUILD_PAST:
            # Textual indexes every row again on each removal: many at once
            # cost more than building the table again (1,000: 565 ms, 17 ms).
            table.clear()
            self._first = self._next = log.first_number
        else:
            for number in let_go:
                table.remove_row(str(number))  # let go by the log (past its limit)
        self._first = max(self._first, log.first_number)
        start = max(self._next, log.first_number)
        for number, record in enumerate(log.since(self._next), start=start):
            table.add_row(*_row(record), key=str(number))
        self._next = log.appended
        if not table.row_count:
            self._first = self._next
        if changed:
            table.fit()
            # Rows moved up or went: what the table drew of them is stale, and
            # Textual keeps it until its caches are full (see FittedTable).
            table.notify_style_update()
        if table.row_count:
            kept = selected is not None and str(selected) in table.rows
            row = table.get_row_index(str(selected)) if kept and not follow else 0
            table.move_cursor(row=table.row_count - 1 if follow else row)
        # Also when the cursor's row index stayed while its record changed
        # (no highlight event then).
        self._show_detail()
        empty = self.query_one("#error-log-empty", Static)
        empty.update("" if table.row_count else "No errors in this session.")
        # A class, not ``display``: it would outrank the rule that hides
        # everything in a terminal too small (app.tcss).
        empty.set_class(bool(table.row_count), "-hidden")

    def _selected_number(self) -> int | None:
        """The number of the record under the cursor, or None."""
        table = self.query_one(DataTable)
        if not table.row_count or not 0 <= table.cursor_row < table.row_count:
            return None
        row_key, _ = table.coordinate_to_cell_key(table.cursor_coordinate)
        return int(row_key.value) if row_key.value is not None else None

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self._show_detail()

    def _show_detail(self) -> None:
        record = self.selected_record()
        detail = self.query_one("#error-detail", Static)
        detail.update("" if record is None else _detail(record))

    def selected_record(self) -> ErrorRecord | None:
        number = self._selected_number()
        return None if number is None else self.desk.error_log.numbered(number)

    def _secrets(self) -> tuple[str, ...]:
        # The client registers its secret and tokens for redaction; the
        # configured secret is added in case no client was ever made.
        return (self.desk.settings.api_secret.get_secret_value(),)

    def action_copy_error(self) -> None:
        record = self.selected_record()
        if record is None:
            self.notify("No error selected.", title="Error log", severity="warning")
            return
        copy_text(
            self,
            ticket_text(record, self._secrets()),
            title=f"{record.title} as ticket text",
            name="ticket",
        )

    def action_copy_curl(self) -> None:
        record = self.selected_record()
        if record is None:
            self.notify("No error selected.", title="Error log", severity="warning")
            return
        command = curl_command(record, self._secrets())
        if command is None:
            self.notify(
                "No request went out for this error (refused before sending, or our own "
                "bug), so there is nothing to replay.",
                title=record.title,
                severity="warning",
                markup=False,
            )
            return
        copy_text(
            self, command, title=f"{record.title} as a curl command", name="curl", suffix="sh"
        )

    def action_export(self, suffix: str) -> None:
        report = ReportFormat(suffix)
        count = len(self.desk.error_log)
        if not count:
            self.notify("No errors to save.", title="Error log", severity="warning")
            return
        path = export_errors(self.desk, report)
        if path is None:
            return  # the store told the user why
        name = "Markdown" if report is ReportFormat.MARKDOWN else "JSON"
        noun = "error" if count == 1 else "errors"
        self.notify(str(path), title=f"{count} {noun} saved as {name}", markup=False)

    def action_error_scenario(self) -> None:
        record = self.selected_record()
        if record is None:
            self.notify("No error selected.", title="Error log", severity="warning")
            return
        self._error_scenario(record)

    @work(exclusive=True, exit_on_error=False, group="error-scenario", name="error_scenario")
    async def _error_scenario(self, record: ErrorRecord) -> None:
        from accountdesk.core.cases.case import CaseFileError, error_case

        try:
            saved = await error_case(self.desk, record)
        except CaseFileError as error:
            self.post_message(ScenarioMade(record, None, str(error)))
            return
        self.post_message(ScenarioMade(record, saved))

    def on_scenario_made(self, message: ScenarioMade) -> None:
        from accountdesk.core.cases.case import serve_command

        saved = message.saved
        if saved is None:
            self.notify(message.problem, title="No scenario", severity="warning", markup=False)
            return
        shown = home_path(saved.path)
        self.notify(
            f"{shown}\nServe it: {serve_command(Path(shown))}",
            title=f"Scenario {saved.user_id} saved: {message.record.title}",
            markup=False,
        )

    def action_back(self) -> None:
        self.app.pop_screen()


def _detail(record: ErrorRecord) -> Group:
    """The selected error: what was asked, what came back, what it means, what to do."""
    # Text, never markup: paths and messages come from the network.
    request = f"{record.method} {record.path}".strip() or "no request sent"
    facts = [request, record.kind, f"{record.time:%H:%M:%S}"]
    if record.service_url:
        facts.append(service_label(record.service_url))
    heading = Text.assemble((record.title, "bold"), "  ·  ", "  ·  ".join(facts))
    grid = Table.grid(padding=(0, 2), expand=True)
    grid.add_column(style="bold", no_wrap=True)
    grid.add_column(ratio=1)
    grid.add_row("Message", Text(record.message))
    grid.add_row("Meaning", Text(record.meaning))
    grid.add_row("Next step", Text(record.advice))
    return Group(heading, grid)


def _row(record: ErrorRecord) -> tuple[Text, ...]:
    # Text cells, never markup: paths and messages come from the network.
    return (
        cell(record.time.strftime("%H:%M:%S")),
        cell(record.method or "—"),
        cell(record.path or "—"),
        cell(str(record.status) if record.status is not None else "—"),
        cell(record.code or "—"),
        cell(record.message),
    )
