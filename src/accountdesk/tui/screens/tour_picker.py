"""The tour picker: ``accountdesk demo`` without a tour name opens it over the sign-in screen.

One line per tour (title, how many steps, its id for ``accountdesk demo
ID``), so every shipped tour is in sight at 80x24; under the list, what the
highlighted tour shows. Enter starts the selected tour, Esc leaves the
picker and keeps the app on the sign-in screen to be used by hand.
"""

from __future__ import annotations

from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from accountdesk.core.tours.tour import Tour
from accountdesk.tui.base import DeskModal
from accountdesk.tui.resources import styles_path
from accountdesk.tui.widgets.footer import AppFooter

__all__ = ["TourPickerScreen"]


class TourPickerScreen(DeskModal[Tour | None]):
    """Pick a guided tour; the result is the tour, or None for none."""

    CSS_PATH = styles_path("tour_picker.tcss")
    HELP_TITLE = "Guided tours"
    HELP = """\
Each tour performs the service's flows on the sandbox, step by step, with a
caption that says what the audience sees and why.

Pick one with the arrow keys and **Enter**. During a tour **Space** or
**Enter** goes to the next step, **Backspace** repeats the last one and
**Esc** leaves the tour (the app stays where it is).
"""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "No tour", id="close_tour_picker"),
        # A dialog hides the app's keys: F1 is bound here, as on the MFA dialog.
        Binding("f1", "app.help", "Help", id="tour_picker_help"),
    ]

    def __init__(self, tours: list[Tour], *, again: bool = False) -> None:
        super().__init__()
        self.tours = {tour.id: tour for tour in tours}
        #: Opened from the palette while signed in: picking a tour signs out first.
        self.again = again

    def compose(self) -> ComposeResult:
        with Vertical(id="tour-picker"):
            with Vertical(id="tour-picker-head"):
                yield Static("Guided tours", id="tour-picker-title")
                yield Static(
                    "Enter: sign out, reset the sandbox, start the tour · Esc: back to the app"
                    if self.again
                    else "Enter starts a tour · Esc signs in by hand · Space or Enter moves a tour on",
                    id="tour-picker-hint",
                )
            yield OptionList(
                *(Option(_prompt(tour), id=tour.id) for tour in self.tours.values()),
                id="tour-list",
            )
            yield Static("", id="tour-summary", markup=False)
        # Its own key bar: the sign-in screen's below would offer keys that do nothing here.
        yield AppFooter()

    def on_mount(self) -> None:
        # No super().on_mount(): Textual runs DeskModal's own on_mount too.
        tour_list = self.query_one(OptionList)
        tour_list.highlighted = 0
        tour_list.focus()
        self._show_summary(next(iter(self.tours), ""))

    @on(OptionList.OptionHighlighted, "#tour-list")
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self._show_summary(event.option.id or "")

    def _show_summary(self, tour_id: str) -> None:
        tour = self.tours.get(tour_id)
        # A person's own file may say anything: Text, never markup.
        self.query_one("#tour-summary", Static).update(Text(tour.summary if tour else ""))

    @on(OptionList.OptionSelected, "#tour-list")
    def _picked(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self.tours.get(event.option.id or ""))

    def action_close(self) -> None:
        self.dismiss(None)


def _prompt(tour: Tour) -> Table:
    # Titles may come from a person's file: Text, never markup.
    grid = Table.grid(padding=(0, 1), expand=True)
    grid.add_column(ratio=1, no_wrap=True, overflow="ellipsis")
    grid.add_column(justify="right", no_wrap=True)
    grid.add_column(justify="right", no_wrap=True, min_width=12)
    grid.add_row(
        Text(tour.title, style="bold"),
        Text(f"{len(tour.steps)} steps", style="dim"),
        Text(tour.id, style="dim italic"),
    )
    return grid
