"""The transactions screen's CSV export (its base class, beside DeskScreen): ``s`` saves the rows shown."""

from __future__ import annotations

import re
from pathlib import Path

from textual import work
from textual.message import Message

from accountdesk.core.transactions.texts import export_text
from accountdesk.core.transactions.view import TransactionView
from accountdesk.tui.base import DeskScreen

__all__ = ["CsvExport"]


class TransactionsExported(Message):
    def __init__(self, path: Path, count: int, *, complete: bool) -> None:
        super().__init__()
        self.path = path
        self.count = count
        self.complete = complete


class CsvExport(DeskScreen[None]):
    """The base of the transactions screen that saves its rows to a CSV file."""

    user_id: str
    view: TransactionView | None
    #: The file the last export wrote (None before the first export).
    last_export: Path | None = None

    # -- export ----------------------------------------------------------

    def action_export_csv(self) -> None:
        if self.view is None or not self.view.total:
            self.notify("Nothing to export yet.", title="CSV", severity="warning")
            return
        stamp = self.desk.wall_time().strftime("%Y%m%d-%H%M%S")
        safe_user = re.sub(r"[^A-Za-z0-9_.-]", "_", self.user_id)
        path = self.export_dir() / f"transactions-{safe_user}-{stamp}.csv"
        self._export(path)

    def export_dir(self) -> Path:
        """Where exports go: ``<data dir>/exports`` (kept beside the app's other files)."""
        return self.desk.dirs.exports_dir

    @work(
        exclusive=True,
        exit_on_error=False,
        group="transactions-export",
        thread=True,
        name="export_csv",
    )
    def _export(self, path: Path) -> None:
        assert self.view is not None
        complete = self.view.data.complete
        count = self.view.export_csv(self.desk.store, path)
        if count is not None:  # a failure was reported by the store
            self.post_message(TransactionsExported(path, count, complete=complete))

    def on_transactions_exported(self, message: TransactionsExported) -> None:
        self.last_export = message.path
        self.notify(
            export_text(message.path, message.count, complete=message.complete),
            title="CSV exported",
            markup=False,
        )
