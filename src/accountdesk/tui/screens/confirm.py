"""A yes/no question before something that leaves work behind (quit, sign out)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Static

from accountdesk.tui.base import DeskModal, desk_of
from accountdesk.tui.resources import styles_path

__all__ = ["ConfirmDialog", "ask_before_leaving"]


class ConfirmDialog(DeskModal[bool]):
    """Dismissed with True for yes (``y``, the Yes button), False for no (``n``, Escape)."""

    CSS_PATH = styles_path("confirm.tcss")
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "Yes", id="confirm_yes"),
        Binding("n,escape", "answer(False)", "No", id="confirm_no"),
    ]

    def __init__(self, question: str, detail: str, yes: str) -> None:
        super().__init__()
        self.question = question
        self.detail = detail
        self.yes = yes

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm-box"):
            yield Static(Text(self.question, style="bold"), id="confirm-question")
            yield Static(Text(self.detail), id="confirm-detail")
            with Horizontal(id="confirm-buttons"):
                yield Button(f"{self.yes} (y)", variant="error", id="confirm-yes")
                yield Button("Stay (n)", variant="primary", id="confirm-no")

    def on_mount(self) -> None:
        self.query_one("#confirm-no", Button).focus()  # the safe answer is the default

    @on(Button.Pressed, "#confirm-yes")
    def _yes(self) -> None:
        self.dismiss(True)

    @on(Button.Pressed, "#confirm-no")
    def _no(self) -> None:
        self.dismiss(False)

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


def ask_before_leaving(
    app: App[Any], running: int, what: str, then: Callable[[], Awaitable[None]]
) -> None:
    """Run ``then`` at once when no job runs; with some, only after the user says yes."""
    if not running:
        app.call_later(then)
        return
    if any(isinstance(screen, ConfirmDialog) for screen in app.screen_stack):
        return
    noun = "job is" if running == 1 else "jobs are"
    question = f"{running} {noun} still running. {what} anyway?"
    if what == "Quit" and desk_of(app).embedded:
        # The embedded sandbox lives in this process: its jobs end with it,
        # and the next run's fresh sandbox answers AC-109 for each.
        detail = (
            "The embedded sandbox ends with the app, and its jobs with it: "
            "the next run lists them as gone."
        )
    else:
        detail = (
            "They stay tracked: the next sign-in on this service polls them again. "
            "A job that waits for MFA may expire meanwhile."
        )

    def answered(yes: bool | None) -> None:
        if yes:
            app.call_later(then)

    app.push_screen(ConfirmDialog(question, detail, what), callback=answered)
