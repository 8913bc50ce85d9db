"""F1 help: what the current screen is for and the keys that work on it."""

from __future__ import annotations

import re
from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Markdown, Static

from accountdesk.tui.base import DeskModal
from accountdesk.tui.resources import styles_path

GENERAL_HELP = """\
**{help}** help · **Ctrl+P** command palette (every action, themes) ·
**{jobs}** jobs · **{errors}** error log · **{quit}** quit. Keys can be remapped
in the config file's `[keymap]` table (binding id = key).
"""

#: Words shown in capitals when a class name becomes a title.
_ACRONYMS = frozenset({"mfa", "csv", "id", "url"})


class HelpScreen(DeskModal[None]):
    """Contextual help for the screen underneath."""

    CSS_PATH = styles_path("help.tcss")
    BINDINGS: ClassVar[list[BindingType]] = [
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
                yield Markdown(self._general_help(), id="help-general")
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

    def _general_help(self) -> str:
        # The app's keys as they are bound now (a keymap may have moved them),
        # e.g. "j/F2": the letter works unless an input has focus, the F-key always.
        return GENERAL_HELP.format(
            help=self._keys_for("help") or "F1",
            jobs=self._keys_for("show_jobs") or "j",
            errors=self._keys_for("show_error_log") or "e",
            quit=self._keys_for("quit") or "Ctrl+Q",
        )

    def _keys_for(self, action: str) -> str:
        # The screen's active bindings include the app's (keymap applied); a
        # dialog hides them, and the defaults are shown instead.
        keys: list[str] = []
        for active in self.for_screen.active_bindings.values():
            if active.binding.action == action:
                shown = self.app.get_key_display(active.binding)
                keys.append(
                    shown.upper() if shown.startswith("f") and shown[1:].isdigit() else shown
                )
        return "/".join(dict.fromkeys(keys))

    def action_close(self) -> None:
        self.dismiss()


def _title_of(screen: Screen[object]) -> str:
    """A fallback title from the class name: ``ErrorLogScreen`` -> ``Error log``."""
    name = type(screen).__name__.removesuffix("Screen").removesuffix("Dialog")
    words = re.findall(r"[A-Z]+(?=[A-Z][a-z]|\b|\d)|[A-Z]?[a-z]+|\d+", name)
    if not words:
        return "accountdesk"
    shown = [
        w.upper() if w.lower() in _ACRONYMS or (w.isupper() and len(w) > 1) else w.lower()
        for w in words
    ]
    first = shown[0]
    shown[0] = first if first.isupper() else first.capitalize()
    return " ".join(shown)
