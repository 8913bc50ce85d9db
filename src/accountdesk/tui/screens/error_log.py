"""The error log: every error of this session, newest last, copyable for a ticket.

``c`` copies the selected error as plain text to the clipboard through the
terminal (OSC 52), ready to paste into a support ticket.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import DataTable, Static

from accountdesk.core.errors import ErrorRecord
from accountdesk.tui.base import DeskScreen
from accountdesk.tui.resources import styles_path
from accountdesk.tui.widgets.footer import AppFooter
from accountdesk.tui.widgets.header import AppHeader

COLUMNS = ("Time", "Method", "Path", "Status", "Code", "Message")


class ErrorLogScreen(DeskScreen[None]):
    """Every error of the session in a table."""

    CSS_PATH = styles_path("error_log.tcss")
    HELP_TITLE = "Error log"
    HELP = """\
Every error of this session, oldest first: when it happened, the request
(method and path), the HTTP status, the service's `AC-` code and its message.

Errors that are not the service's answer (connection failures, answers in
the wrong shape) have no code. Select a row and press `c` to copy it as
text for a support ticket (the terminal must allow OSC 52 clipboard access).
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
    ]

    def compose(self) -> ComposeResult:
        yield AppHeader("Error log")
        yield DataTable(id="error-table", cursor_type="row", zebra_stripes=True)
        yield Static("", id="error-log-empty", markup=False)
        yield Static("", id="error-detail", markup=False)
        yield AppFooter()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns(*COLUMNS)
        self.show_records()
        table.focus()

    def on_screen_resume(self) -> None:
        self.show_records()

    def show_records(self) -> None:
        table = self.query_one(DataTable)
        records = self.desk.error_log.records
        table.clear()
        for index, record in enumerate(records):
            table.add_row(*_row(record), key=str(index))
        if records:
            table.move_cursor(row=len(records) - 1)
        empty = self.query_one("#error-log-empty", Static)
        empty.update("" if records else "No errors in this session.")
        empty.display = not records

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        record = self.selected_record()
        detail = self.query_one("#error-detail", Static)
        if record is None:
            detail.update("")
            return
        detail.update(
            f"{record.title}  ·  {record.method} {record.path}  ·  {record.kind}\n{record.message}"
        )

    def selected_record(self) -> ErrorRecord | None:
        table = self.query_one(DataTable)
        records = self.desk.error_log.records
        if not records or table.cursor_row is None or not 0 <= table.cursor_row < len(records):
            return None
        return records[table.cursor_row]

    def action_copy_error(self) -> None:
        record = self.selected_record()
        if record is None:
            self.notify("No error selected.", severity="warning")
            return
        self.app.copy_to_clipboard(record.ticket_text(service=self.desk.service_key))
        self.notify(f"{record.title} copied to the clipboard.", title="Copied", markup=False)

    def action_back(self) -> None:
        self.app.pop_screen()


def _row(record: ErrorRecord) -> tuple[Text, ...]:
    # Text cells, never markup: paths and messages come from the network.
    return (
        Text(record.time.strftime("%H:%M:%S")),
        Text(record.method or "—"),
        Text(record.path or "—"),
        Text(str(record.status) if record.status is not None else "—"),
        Text(record.code or "—"),
        Text(record.message),
    )
