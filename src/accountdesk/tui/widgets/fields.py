"""Label/value tables for record panels (account, balance, identity).

Values come from the network, so they are ``rich.text.Text`` (never markup).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.widgets import Static


def field_table(rows: Iterable[tuple[str, str | Text]], label_width: int = 12) -> Table:
    """A two-column grid: dim labels on the left, values on the right."""
    table = Table.grid(padding=(0, 1))
    table.add_column(style="bold", width=label_width, no_wrap=True)
    table.add_column(overflow="fold")
    for label, value in rows:
        table.add_row(Text(label), value if isinstance(value, Text) else Text(value))
    return table


def stale_line(problem: str | None, read_at: datetime | None) -> Text | None:
    """ "stale · read at 09:30:00 — <why>" under data that could not be read again."""
    if problem is None:
        return None
    when = f"read at {read_at:%H:%M:%S}" if read_at is not None else "read earlier"
    return Text(f"stale · {when} — {problem}", style="bold red")


def show_fields(panel: Static, table: Table, stale: Text | None) -> None:
    """A panel's table, with the stale line under it when there is one."""
    panel.update(table if stale is None else Group(table, stale))


def secret_text(value: object) -> str:
    """A ``SecretStr``'s text (a number shown on purpose), or a dash."""
    getter = getattr(value, "get_secret_value", None)
    return getter() if getter is not None else "—"
