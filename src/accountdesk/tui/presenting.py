"""Presenter mode on screen: every line drawn passes the presenter, and the badge says so.

The rules and the fakes are the core's (:mod:`accountdesk.core.presenting`).
Here :class:`PresentingFilter` is a Textual line filter the app hands every
widget (``App.get_line_filters``): each line is laid out and rendered as
usual, then its text is replaced where it holds a customer's datum, by a
fake of the same length and cells, so nothing moves and only the rows on
screen are ever faked (a million transactions are not rewritten). A box a
person types in shows what is typed (:class:`TypedField`: the presenter's
own words are no customer's).

While presenting, the header, every dialog (:class:`PresentingBadge`, docked
at the top of a dialog's screen, over the dimmed header) and a tour's
caption say ``PRESENTING``, and so does the one line of a terminal too small.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rich.segment import Segment
from rich.text import Text
from textual.color import Color
from textual.filter import LineFilter
from textual.widget import Widget
from textual.widgets import Input, Static

if TYPE_CHECKING:
    # Not at start-up: the presenter is built on first use (core.desk).
    from accountdesk.core.presenting import Presenter

__all__ = ["PRESENTING", "PresentingBadge", "PresentingFilter", "TypedField", "presenting_badge"]

#: The word said on every screen while presenting.
PRESENTING = "PRESENTING"


class PresentingFilter(LineFilter):
    """Each line drawn with the customer's data replaced (nothing when not presenting)."""

    def __init__(self, presenter: Presenter) -> None:
        super().__init__()
        self.presenter = presenter
        #: What the presenter knew when this filter was made (the app makes a new one after).
        self.generation = presenter.generation

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        if not self.presenter.active:
            return segments
        joined = "".join(segment.text for segment in segments)
        shown = self.presenter.text(joined)
        if shown == joined:
            return segments
        if len(shown) != len(joined):  # never: a fake keeps its original's length
            shown = shown[: len(joined)].ljust(len(joined))
        out: list[Segment] = []
        position = 0
        for segment in segments:
            size = len(segment.text)
            if segment.control:
                out.append(segment)
            else:
                out.append(Segment(shown[position : position + size], segment.style))
            position += size
        return out


class TypedField(Input):
    """An input box that shows what is typed, also while presenting (the presenter's own words).

    Its placeholder is the app's, and may name a customer (``e.g. user_good``): faked.
    """

    def get_line_filters(self) -> Sequence[LineFilter]:
        filters = super().get_line_filters()
        if not self.value:
            return filters
        return [f for f in filters if not isinstance(f, PresentingFilter)]


class PresentingBadge(Static):
    """``PRESENTING``, at the top right of a dialog's screen (over the header's own)."""

    DEFAULT_CSS = """
    PresentingBadge {
        dock: top;
        width: 100%;
        height: 1;
        background: transparent;
        content-align-horizontal: right;
    }
    """

    def __init__(self, **options: Any) -> None:
        super().__init__(presenting_badge(), markup=False, **options)


def presenting_badge() -> Text:
    """The badge: bold white on magenta, never only a colour (a word)."""
    # Hex colours: Textual reads a Text's style itself and knows no "dark_magenta".
    return Text(f" {PRESENTING} ", style="bold #ffffff on #8b008b")


def presenting_in(widget: Widget) -> bool:
    """Whether the app ``widget`` is in is presenting now."""
    desk = getattr(widget.app, "desk", None)
    return bool(desk is not None and desk.presenting)
