"""A box on the transactions screen that narrows the view: the filter, the date range."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.message import Message

from accountdesk.tui.presenting import TypedField

__all__ = ["ViewField"]


class ViewField(TypedField):
    """A box that narrows the view: Escape clears it and gives the keys back to the table."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "leave", "Clear", id="transactions_clear_field"),
    ]

    class Left(Message):
        """Escape: the box was cleared."""

        def __init__(self, field: ViewField) -> None:
            super().__init__()
            self.field = field

    def action_leave(self) -> None:
        self.value = ""
        self.post_message(self.Left(self))
