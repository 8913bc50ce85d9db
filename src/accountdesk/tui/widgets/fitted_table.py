"""A table that fits its screen: flexible columns give up width, their cells end in "…".

Textual's DataTable sizes each column to its longest cell; a long message or
note then runs past the right edge and is cut mid-word ("blockd due to too
ma", "Please reauthentica"). Here every column starts at its natural width;
when they do not fit, the flexible columns give up width, the first named
first, each down to a few cells, and a cell that does not fit ends in an
ellipsis. The screen shows the whole text in its detail pane.

A cell changed (the jobs screen's ages every 10 s, a burst of failed polls)
drops what the table drew before: Textual keys each of its render caches by
a count every change moves on and kept the stale entries until its caches
were full (10,000 cells, 1,000 rows and lines: 10.6 MB for a jobs screen of
30 rows after 70 changes, 12 minutes of its ages step).
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import events
from textual.widgets import DataTable
from textual.widgets.data_table import ColumnKey, RowKey

from accountdesk.tui.seams.widgets import column_widths_changed

__all__ = ["FittedTable", "cell"]

#: The flexible column never shrinks below this many cells.
MIN_FLEXIBLE = 6


def cell(text: str, style: str = "") -> Text:
    """A one-line cell that ends in "…" when its column is narrower (never markup)."""
    return Text(text, style=style, no_wrap=True, overflow="ellipsis")


class FittedTable(DataTable[Text]):
    """A DataTable whose ``flexible`` columns (keys, first to shrink first) fit its width."""

    def __init__(self, *, flexible: tuple[str, ...], **options: Any) -> None:
        super().__init__(**options)
        self.flexible = flexible

    def on_resize(self, event: events.Resize) -> None:
        self.fit()

    def update_cell(
        self,
        row_key: RowKey | str,
        column_key: ColumnKey | str,
        value: Text,
        *,
        update_width: bool = False,
    ) -> None:
        """Textual's, and what was drawn before is let go (see the module docstring)."""
        super().update_cell(row_key, column_key, value, update_width=update_width)
        # Every cached rendering is stale now, so emptying them loses nothing:
        # the hook Textual gives for its caches (it redraws, as the change does).
        self.notify_style_update()

    def fit(self) -> None:
        """Size the flexible columns to the table's width (call after rows change)."""
        padding = 2 * self.cell_padding
        by_key = {column.key.value: column for column in self.columns.values()}
        flexible = [by_key[key] for key in self.flexible if key in by_key]
        widths = {
            id(column): max(column.content_width, column.label.cell_len) for column in flexible
        }
        fixed = sum(c.get_render_width(self) for c in self.columns.values() if id(c) not in widths)
        over = fixed + sum(widths.values()) + padding * len(flexible)
        over -= self.scrollable_content_region.width
        for column in flexible:
            if over <= 0:
                break
            give = min(over, max(widths[id(column)] - MIN_FLEXIBLE, 0))
            widths[id(column)] -= give
            over -= give
        changed = False
        for column in flexible:
            if column.auto_width or column.width != widths[id(column)]:
                column.auto_width, column.width, changed = False, widths[id(column)], True
        if changed:
            column_widths_changed(self)
