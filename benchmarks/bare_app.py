"""The floor of the start-up benchmark: a bare Textual app, started like accountdesk.

Header, Input, DataTable and Footer, nothing else: what any Textual dashboard
pays to paint its first frame. Its header title is the same word the
dashboard's badge shows, so both are timed to the same text on the terminal.

Run: ``python -m benchmarks.bare_app`` (Ctrl+Q quits).
"""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.widgets import DataTable, Footer, Header, Input


class BareApp(App[None]):
    TITLE = "SANDBOX"

    def compose(self) -> ComposeResult:
        yield Header()
        yield Input(placeholder="user id")
        yield DataTable()
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns("user", "kind", "status")


if __name__ == "__main__":
    BareApp().run()
