"""F1 help: what the current screen is for and the keys that work on it."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Markdown, Static

from ..resources import styles_path

GENERAL_HELP = """\
**F1** help · **Ctrl+P** command palette (every action, themes) ·
**j** jobs · **e** error log · **Ctrl+Q** quit. Keys can be remapped in the
config file's `[keymap]` table (binding id = key).
"""


class HelpScreen(ModalScreen[None]):
    """Contextual help for the screen underneath."""

    CSS_PATH = styles_path("help.tcss")
    BINDINGS = [
        Binding("escape", "close", "Close", id="close_help"),
        Binding("f1", "close", "Close", id="close_help_f1", show=False),
    ]

    def __init__(self, for_screen: Screen[object]) -> None:
        super().__init__()
        self.for_screen = for_screen

    def compose(self) -> ComposeResult:
        title = getattr(self.for_screen, "HELP_TITLE", None) or _title_of(self.for_screen)
        text = getattr(self.for_screen, "HELP", None) or "No help for this screen."
        with Vertical(id="help-dialog"):
            yield Static(f"Help · {title}", id="help-title", markup=False)
            with VerticalScroll(id="help-body"):
                yield Markdown(text, id="help-text")
                yield Static("Keys", classes="help-section")
                yield Static(self._keys_table(), id="help-keys")
                yield Markdown(GENERAL_HELP, id="help-general")
            yield Static("Esc or F1 closes this help", id="help-close-hint")

    def _keys_table(self) -> Table:
        table = Table.grid(padding=(0, 2))
        table.add_column(style="bold", no_wrap=True)
        table.add_column()
        seen: set[str] = set()
        for active in self.for_screen.active_bindings.values():
            binding = active.binding
            hidden = not binding.show or not binding.description or not active.enabled
            if hidden or binding.action in seen:
                continue
            seen.add(binding.action)
            table.add_row(
                Text(self.app.get_key_display(binding)),
                Text(binding.tooltip or binding.description),
            )
        return table

    def action_close(self) -> None:
        self.dismiss()


def _title_of(screen: Screen[object]) -> str:
    name = type(screen).__name__.removesuffix("Screen").removesuffix("Dialog")
    return name or "accountdesk"
