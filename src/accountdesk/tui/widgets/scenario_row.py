"""One scenario user in a list: its id, and what it shows beside it or, when narrow, below it.

A grid of two columns aligned every summary under its own column, but at 60
columns the lookup screen's scenario panel left the summary 4 cells: it wrapped
a letter a line. The row decides at drawing time, from the width it is given.
"""

from __future__ import annotations

from rich.console import Console, ConsoleOptions, RenderResult
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from accountdesk.client import ScenarioUser

__all__ = ["ScenarioRow"]

#: Below this many cells for the summary, it goes under the id instead.
_SUMMARY_MIN = 24
_GAP = 2


class ScenarioRow:
    """A rich renderable: ``user_id  summary``, or the summary indented below the id."""

    def __init__(self, user: ScenarioUser, id_width: int) -> None:
        # The sandbox's words, as sent (the client sanitised them): Text, never markup.
        self.user_id = Text(user.user_id, style="bold")
        self.summary = Text(user.summary, style="dim")
        self.id_width = id_width

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        if options.max_width - self.id_width - _GAP >= _SUMMARY_MIN:
            grid = Table.grid(padding=(0, _GAP))
            grid.add_column(width=self.id_width, no_wrap=True)
            grid.add_column(overflow="fold")
            grid.add_row(self.user_id, self.summary)
            yield grid
        else:
            yield self.user_id
            yield Padding(self.summary, (0, 0, 0, _GAP))
