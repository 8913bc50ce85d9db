"""A checkbox whose state reads without colour: ``▐X▌`` ticked, ``▐ ▌`` not.

Textual's checkbox draws the same ``X`` either way and tells the states
apart by colour alone: under ``NO_COLOR``, or for a person who does not tell
colours apart, "Remember on this computer" looked ticked when it was not.
"""

from __future__ import annotations

from textual.widgets import Checkbox

__all__ = ["TickBox"]


class TickBox(Checkbox):
    """A :class:`~textual.widgets.Checkbox` that shows its state by its mark."""

    @property
    def BUTTON_INNER(self) -> str:  # type: ignore[override]
        return "X" if self.value else " "
