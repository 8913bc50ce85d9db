"""A virtual table of transactions: draws only the rows on screen.

Textual's ``DataTable`` builds and measures every row when it is added (about
2 s for 100,000 rows, and again after each filter), so this Line-API widget
reads rows straight from a :class:`~accountdesk.core.transactions.view.TransactionView`
instead: painting, scrolling, sorting and filtering cost the same for 100 rows
as for 100,000. The header line stays put; clicking a header cell asks for a
sort by that column.

Widths follow the data and the terminal: every column is as wide as its
longest text (or its label with the sort arrow), the description takes what
is left up to its own longest text, and any room beyond that stays after the
last column. So at 200 columns the amount is not 140 cells away from its
description, and at 80 a description is not cut while the category column
holds blank cells.

While presenting, the table fakes its own cells as it draws them (a
description, a category: the free texts; each remembered by the presenter),
not its lines after them as every other widget's are (tui.presenting): a
line's cells are then faked once each, not joined, split and wrapped again,
and a cell scrolled half out of sight was faked whole first.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar, NamedTuple

from rich.cells import cell_len, set_cell_size
from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding, BindingType
from textual.filter import LineFilter
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from accountdesk.core.transactions.columns import (
    TABLE_COLUMNS,
    Column,
    TransactionRow,
    pending_text,
)
from accountdesk.core.transactions.view import TransactionView
from accountdesk.tui.base import desk_of
from accountdesk.tui.presenting import PresentingFilter

__all__ = ["TransactionTable"]

GAP = 2  # cells between columns
FLEX = "description"  # the column that takes the width left over
MIN_FLEX_WIDTH = 16
#: Room for " ▲" after a label: sorting never cuts a header ("Pendin…").
ARROW = 2


class TransactionTable(ScrollView, can_focus=True):
    """Scrollable, cursor-driven view of a :class:`TransactionView`."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "transaction-table--header",
        "transaction-table--cursor",
        "transaction-table--negative",
        "transaction-table--pending",
    }

    DEFAULT_CSS = """
    TransactionTable {
        height: 1fr;
        background: $surface;
    }
    TransactionTable > .transaction-table--header {
        text-style: bold;
        background: $panel;
        color: $text;
    }
    TransactionTable > .transaction-table--cursor {
        background: $accent 40%;
    }
    TransactionTable:focus > .transaction-table--cursor {
        background: $accent;
        color: $text;
    }
    TransactionTable > .transaction-table--negative {
        color: $error;
    }
    TransactionTable > .transaction-table--pending {
        color: $warning;
        text-style: italic;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "cursor_up", "Up", show=False, id="transactions_cursor_up"),
        Binding("down", "cursor_down", "Down", show=False, id="transactions_cursor_down"),
        Binding("pageup", "page_up", "Page up", show=False, id="transactions_page_up"),
        Binding("pagedown", "page_down", "Page down", show=False, id="transactions_page_down"),
        Binding("home", "first", "First", show=False, id="transactions_first"),
        Binding("end", "last", "Last", show=False, id="transactions_last"),
    ]

    cursor_row: reactive[int] = reactive(0, always_update=True)

    class SortRequested(Message):
        """A header cell was clicked."""

        def __init__(self, column: str) -> None:
            super().__init__()
            self.column = column

    class Painted(Message):
        """``view`` was drawn for the first time: its first page is on screen."""

        def __init__(self, view: TransactionView) -> None:
            super().__init__()
            self.view = view

    def __init__(self, view: TransactionView | None = None, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.view = view or TransactionView.from_rows([])
        self._frame: _Frame | None = None
        self._painted: TransactionView | None = None
        #: Drawn under the header while the view has no rows ("" draws nothing).
        self.empty_text = ""

    def on_unmount(self) -> None:
        # Not kept by a gone screen's widgets until a full collection: the rows.
        self.view = TransactionView.from_rows([])
        self._frame = self._painted = None

    def has_painted(self, view: TransactionView) -> bool:
        """Whether ``view`` has been drawn (its first page is on screen)."""
        return self._painted is view

    def show_empty_text(self, text: str) -> None:
        """Set what an empty view says (under the header) and redraw."""
        if text != self.empty_text:
            self.empty_text = text
            self.refresh()

    # -- data ------------------------------------------------------------

    def set_view(self, view: TransactionView) -> None:
        """Show another view (new data)."""
        self.view = view
        self.view_changed()

    def view_changed(self) -> None:
        """The view's filter or sort changed: resize, keep the cursor in range, redraw."""
        self._update_virtual_size()
        self.cursor_row = min(self.cursor_row, max(len(self.view) - 1, 0))
        self.refresh()

    @property
    def current_row(self) -> TransactionRow | None:
        if not len(self.view):
            return None
        return self.view.row(self.cursor_row)

    @property
    def _content_width(self) -> int:
        # Without the scrollbars: columns must not hide under the vertical one.
        return self.scrollable_content_region.width

    @property
    def _content_height(self) -> int:
        return self.scrollable_content_region.height

    def _update_virtual_size(self) -> None:
        # The narrowest layout, not the current one: the description column
        # stretches to any wider width, so a horizontal scrollbar appears only
        # when even that does not fit (and showing the vertical one never
        # makes the table one column too wide).
        width = self._table_width(self._widths(0))
        self.virtual_size = Size(width, len(self.view) + 1)  # + the header line

    def on_resize(self, event: events.Resize) -> None:
        self._update_virtual_size()

    def _widths(self, available: int) -> dict[str, int]:
        """Each column's cells when ``available`` cells are there (see the module docstring)."""
        content = self.view.data.content_widths(cell_len)
        widths = {}
        for column in TABLE_COLUMNS:
            width = content[column.key]
            if column.max_width is not None:
                width = min(width, column.max_width)
            widths[column.key] = max(width, cell_len(column.label) + ARROW)
        fixed = sum(w for key, w in widths.items() if key != FLEX) + GAP * (len(TABLE_COLUMNS) - 1)
        # Squeezed to the room left, but never below a readable minimum (then it scrolls).
        widths[FLEX] = min(widths[FLEX], max(MIN_FLEX_WIDTH, available - fixed))
        return widths

    # -- drawing ---------------------------------------------------------

    def render_lines(self, crop: Region) -> list[Strip]:
        # Styles and widths once per frame, not per line: reading a widget's
        # style from its CSS costs about as much as drawing the line.
        self._frame = self._frame_state()
        try:
            return super().render_lines(crop)
        finally:
            self._frame = None
            if self._painted is not self.view and not self.loading:
                self._painted = self.view
                self.post_message(self.Painted(self.view))

    def get_line_filters(self) -> Sequence[LineFilter]:
        # Its cells are faked as they are drawn (see the module docstring).
        return [f for f in super().get_line_filters() if not isinstance(f, PresentingFilter)]

    def _frame_state(self) -> _Frame:
        width = self._content_width
        widths = self._widths(width)
        base = self.rich_style
        desk = desk_of(self.app)
        return _Frame(
            fake=desk.presenter.text if desk.presenting else _as_it_is,
            width=width,
            widths=widths,
            table_width=self._table_width(widths),
            base=base,
            cursor=base + self.get_component_rich_style("transaction-table--cursor"),
            negative=base + self._plain("transaction-table--negative"),
            pending=base + self._plain("transaction-table--pending"),
            header=self.get_component_rich_style("transaction-table--header"),
        )

    def render_line(self, y: int) -> Strip:
        frame = self._frame or self._frame_state()
        scroll_x, scroll_y = self.scroll_offset
        width = frame.width
        if y == 0:
            strip = self._header(frame)
        else:
            position = scroll_y + y - 1
            if position >= len(self.view):
                if position == 0 and self.empty_text:
                    return self._empty_line(width)
                return Strip.blank(width, frame.base)
            strip = self._row(self.view.row(position), frame, position == self.cursor_row)
        return strip.extend_cell_length(max(frame.table_width, width)).crop(
            scroll_x, scroll_x + width
        )

    @staticmethod
    def _table_width(widths: dict[str, int]) -> int:
        return sum(widths.values()) + GAP * (len(TABLE_COLUMNS) - 1)

    def _header(self, frame: _Frame) -> Strip:
        cells = []
        for column in TABLE_COLUMNS:
            label = column.label
            if self.view.sort_key == column.key:
                label += " ▼" if self.view.sort_reverse else " ▲"
            cells.append(_fit(label, frame.widths[column.key], column))
        return Strip([Segment((" " * GAP).join(cells), frame.header)]).extend_cell_length(
            frame.width, frame.header
        )

    def _empty_line(self, width: int) -> Strip:
        style = self.rich_style + Style(italic=True)
        desk, text = desk_of(self.app), set_cell_size(self.empty_text, width)
        text = desk.presenter.text(text) if desk.presenting else text
        return Strip([Segment(text, style)])

    def _row(self, row: TransactionRow, frame: _Frame, cursor: bool) -> Strip:
        base = frame.cursor if cursor else frame.base
        widths = frame.widths
        gap = Segment(" " * GAP, base)
        # On the cursor row its own colours win: red or amber text on it would not read.
        amount_style = frame.negative if not cursor and row.amount < 0 else base
        pending_style = frame.pending if not cursor and row.pending else base
        date, description, category, amount, pending = TABLE_COLUMNS
        segments = [
            Segment(_fit(row.date, widths["date"], date), base),
            gap,
            Segment(frame.fake(_fit(row.description, widths["description"], description)), base),
            gap,
            Segment(frame.fake(_fit(row.category, widths["category"], category)), base),
            gap,
            Segment(_fit(row.amount_text, widths["amount"], amount), amount_style),
            gap,
            Segment(_fit(pending_text(row.pending), widths["pending"], pending), pending_style),
        ]
        return Strip(segments).extend_cell_length(frame.width, base)

    def _plain(self, component: str) -> Style:
        # Only the foreground and text style: the row keeps its background.
        style = self.get_component_rich_style(component)
        return Style(color=style.color, bold=style.bold, italic=style.italic)

    # -- cursor and mouse --------------------------------------------------

    def watch_cursor_row(self, row: int) -> None:
        visible = max(self._content_height - 1, 1)
        top = round(self.scroll_offset.y)
        if row < top:
            self.scroll_to(y=row, animate=False)
        elif row >= top + visible:
            self.scroll_to(y=row - visible + 1, animate=False)
        self.refresh()

    def _move(self, delta: int) -> None:
        if len(self.view):
            self.cursor_row = max(0, min(len(self.view) - 1, self.cursor_row + delta))

    def action_cursor_up(self) -> None:
        self._move(-1)

    def action_cursor_down(self) -> None:
        self._move(1)

    def action_page_up(self) -> None:
        self._move(-(self._content_height - 1))

    def action_page_down(self) -> None:
        self._move(self._content_height - 1)

    def action_first(self) -> None:
        self._move(-len(self.view))

    def action_last(self) -> None:
        self._move(len(self.view))

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:  # on the padding or a scrollbar
            return
        scroll_x, scroll_y = self.scroll_offset
        if offset.y == 0:
            x = offset.x + scroll_x
            widths = self._widths(self._content_width)
            for column in TABLE_COLUMNS:
                if x < widths[column.key] + GAP:
                    self.post_message(self.SortRequested(column.key))
                    return
                x -= widths[column.key] + GAP
            return
        position = scroll_y + offset.y - 1
        if 0 <= position < len(self.view):
            self.cursor_row = position


class _Frame(NamedTuple):
    """What every line of one frame shares."""

    #: A free text as it may be shown (presenter mode's fakes, or as it is).
    fake: Callable[[str], str]
    width: int
    widths: dict[str, int]
    table_width: int
    base: Style
    cursor: Style
    negative: Style
    pending: Style
    header: Style


def _as_it_is(text: str) -> str:
    return text


def _fit(text: str, width: int, column: Column) -> str:
    """Pad or truncate (with an ellipsis) to exactly ``width`` terminal cells."""
    length = len(text) if text.isascii() else cell_len(text)
    if length > width:
        return set_cell_size(text, max(width - 1, 0)) + "…"
    padding = " " * (width - length)
    return padding + text if column.align_right else text + padding
