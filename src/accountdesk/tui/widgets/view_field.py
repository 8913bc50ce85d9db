"""A box on the transactions screen that narrows the view: the filter, the date range."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.message import Message
from textual.widgets import Input

__all__ = ["ViewField"]


class ViewField(Input):
    """A box that narrows the view: Escape clears it and gives the keys back to the table.

    An empty box has nothing to clear: Escape is the screen's again ("Back"),
    so one Escape leaves, and the key bar says so (a refused read left the
    focus here, showing "esc Clear" and needing two presses).
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "leave", "Clear", id="transactions_clear_field"),
    ]

    class Left(Message):
        """Escape: the box was cleared."""

        def __init__(self, field: ViewField) -> None:
            super().__init__()
            self.field = field

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "leave" and not self.value:
            return False  # hidden, and the key goes on to the screen
        return super().check_action(action, parameters)

    def watch_value(self, value: str) -> None:
        # Empty <-> not empty changes what Escape does: the key bar follows.
        self.refresh_bindings()

    def action_leave(self) -> None:
        self.value = ""
        self.post_message(self.Left(self))
