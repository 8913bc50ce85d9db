"""Label/value tables for record panels (account, balance, identity).

Values come from the network, so they are ``rich.text.Text`` (never markup).
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.table import Table
from rich.text import Text


def field_table(rows: Iterable[tuple[str, str | Text]], label_width: int = 12) -> Table:
    """A two-column grid: dim labels on the left, values on the right."""
    table = Table.grid(padding=(0, 1))
    table.add_column(style="bold", width=label_width, no_wrap=True)
    table.add_column(overflow="fold")
    for label, value in rows:
        table.add_row(Text(label), value if isinstance(value, Text) else Text(value))
    return table
