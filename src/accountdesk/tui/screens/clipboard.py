"""Copy text for the user: through the terminal, or shown in a dialog and kept in a file.

:func:`copy_text` is what every "copy" key calls. The route is
:func:`accountdesk.core.clipboard.clipboard_route`'s: OSC 52 when it can
arrive (a toast says so, and how to switch to files if nothing pasted);
otherwise :class:`ClipboardDialog` shows the text, selectable, and the path
of the 0600 file it was written to (through the desk's store).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Static, TextArea

from accountdesk.core.clipboard import clipboard_route, save_clip
from accountdesk.core.formatting import home_path
from accountdesk.tui.base import DeskModal
from accountdesk.tui.resources import styles_path
from accountdesk.tui.widgets.footer import AppFooter

if TYPE_CHECKING:
    from accountdesk.tui.base import DeskScreen

__all__ = ["ClipboardDialog", "copy_text"]


class ClipboardDialog(DeskModal[None]):
    """The copied text, selectable, with where it was saved and why it was not copied."""

    CSS_PATH = styles_path("clipboard.tcss")
    HELP_TITLE = "Copied text"
    HELP = """\
The terminal cannot take copied text here, so accountdesk shows it instead
and saves it to a file only you can read (the path is below the text).

Select the text with the keyboard (Shift and the arrows) or the mouse
(Shift+drag in most terminals), or open the file. `clipboard = "osc52"` in
the config file makes copy keys use the terminal's clipboard again.
"""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close", id="clipboard_close"),
        Binding("f1", "app.help", "Help", id="clipboard_help", tooltip="Help for this dialog"),
    ]

    def __init__(self, title: str, text: str, *, path: Path | None, reason: str) -> None:
        super().__init__()
        self.title_text = title
        self.text = text
        self.path = path
        self.reason = reason

    def compose(self) -> ComposeResult:
        with Vertical(id="clipboard-box") as box:
            # A Text, not a str: a str border title is parsed as markup.
            box.border_title = Text(self.title_text)
            yield Static(
                f"Not copied to the clipboard: {self.reason}. Select the text below, "
                "or use the file.",
                id="clipboard-reason",
                markup=False,
            )
            yield TextArea(
                self.text,
                id="clipboard-text",
                read_only=True,
                soft_wrap=True,
                show_cursor=False,
            )
            saved = (
                f"Saved to a file only you can read:\n{home_path(self.path)}"
                if self.path is not None
                else "Could not save it to a file (see the message about the file)."
            )
            yield Static(saved, id="clipboard-path", markup=False)
            with Horizontal(id="clipboard-buttons"):
                yield Button("Close", id="clipboard-close", variant="primary", compact=True)
        # Its own key bar: the one of the screen below shows keys that do nothing here.
        yield AppFooter()

    def on_mount(self) -> None:
        # No super().on_mount(): Textual runs DeskModal's own on_mount too.
        self.query_one(TextArea).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(None)

    def action_close(self) -> None:
        self.dismiss(None)


def copy_text(
    screen: DeskScreen[Any] | DeskModal[Any],
    text: str,
    *,
    title: str,
    name: str,
    suffix: str = "txt",
) -> None:
    """Put ``text`` on the user's clipboard, or show it and save it (see the module docstring).

    ``title`` says what it is ("AC-104 · 400 as ticket text"); ``name`` and
    ``suffix`` name the file (``ticket-<time>.txt``).
    """
    desk = screen.desk
    presenting = desk.presenter.active
    if presenting:
        # What leaves the app carries the fakes the screen shows, and says so.
        text = desk.presenter.text(text)
        title = f"{title} (presenting: fakes)"
    route = clipboard_route(desk.settings.clipboard)
    if route.osc52:
        screen.app.copy_to_clipboard(text)
        screen.notify(
            f"{title}, through the terminal (OSC 52). Nothing to paste? "
            'Set clipboard = "file" in the config file.',
            title="Copied (presenting: fakes)" if presenting else "Copied",
            markup=False,
        )
        return
    path = save_clip(desk.store, desk.dirs.clipboard_dir, text, name, desk.wall_time(), suffix)
    screen.app.push_screen(ClipboardDialog(title, text, path=path, reason=route.reason))
