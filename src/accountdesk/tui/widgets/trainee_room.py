"""The training room in the sandbox panel: every trainee, live, for the trainer.

Shown when the app has the sandbox's control token (``--control-token``,
``ACCOUNTDESK_SANDBOX_CONTROL_TOKEN`` or ``sandbox_control_token`` in the
config file or a profile) and the sandbox runs a training room. One row per
trainee (:mod:`accountdesk.core.room_rows`): when the sandbox last heard from
them, their clock, their open jobs, their blocks; under it the selected
trainee's details, and the trainer's buttons: reset the selected trainee,
move their clock, reset everyone.

Live, like the poller: a worker reads the list and posts a message; only
then is the next read armed (a one-shot timer), so reads never overlap. The
reads pause while the panel is covered (a confirmation, help) and resume,
at once, when it shows again. A refusal (``AC-903``: no or a wrong control
token) is one toast, then a line here while it lasts; reads go on, slower.

The resets themselves are asked first by the panel (:class:`RoomAction` is
what the buttons post); this widget only reads and draws.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.timer import Timer
from textual.widgets import Button, DataTable, Static

from accountdesk.client import AccountDataError
from accountdesk.core.room_rows import ROOM_COLUMNS, TraineeRow, room_title, trainee_details
from accountdesk.core.room_rows import trainee_row as make_row
from accountdesk.tui.base import desk_of
from accountdesk.tui.messages import ServiceFailed

if TYPE_CHECKING:
    from accountdesk.client import Trainee, TrainingRoom

__all__ = ["RoomAction", "TraineeRoom"]

#: Seconds between two reads of the list (after the previous one answered).
READ_EVERY = 2.0
#: ... while the sandbox refuses or does not answer.
READ_AGAIN_AFTER_FAILURE = 10.0
#: The clock buttons for the selected trainee: id -> seconds.
TRAINEE_STEPS = {"room-plus-1m": 60.0, "room-plus-5m": 300.0, "room-plus-15m": 900.0}


class RoomRead(Message):
    """The list of trainees, as the sandbox answered it."""

    def __init__(self, room: TrainingRoom) -> None:
        super().__init__()
        self.room = room


class RoomUnreadable(Message):
    """The list could not be read (``error`` says why)."""

    def __init__(self, error: AccountDataError) -> None:
        super().__init__()
        self.error = error


class RoomAction(Message):
    """A trainer's button: ``what`` is ``"reset"``, ``"reset_all"`` or ``"advance"``.

    ``trainee`` names the selected trainee (None for "reset everyone");
    ``seconds`` is the clock step of an ``"advance"``.
    """

    def __init__(self, what: str, trainee: str | None, seconds: float = 0.0) -> None:
        super().__init__()
        self.what = what
        self.trainee = trainee
        self.seconds = seconds


class TraineeRoom(Vertical):
    """The room's table, details and buttons (see the module docstring)."""

    DEFAULT_CLASSES = "-reading"

    def __init__(self) -> None:
        super().__init__(id="trainee-room")
        self.room: TrainingRoom | None = None
        self._timer: Timer | None = None
        self._paused = False
        self._rows: dict[str, TraineeRow] = {}
        self._failure: str | None = None

    def compose(self) -> ComposeResult:
        yield Static("Training room: reading the list of trainees…", id="room-title", markup=False)
        table: DataTable[Text] = DataTable(id="room-table", cursor_type="row", zebra_stripes=True)
        for key, label in ROOM_COLUMNS:
            table.add_column(label, key=key)
        yield table
        yield Static("", id="room-details", markup=False)
        with Horizontal(id="room-buttons"):
            yield Button("Reset trainee", id="room-reset", compact=True, variant="warning")
            yield Button("+1 min", id="room-plus-1m", compact=True)
            yield Button("+5 min", id="room-plus-5m", compact=True)
            yield Button("+15 min", id="room-plus-15m", compact=True)
            yield Button("Reset everyone", id="room-reset-all", compact=True, variant="error")

    def on_mount(self) -> None:
        self._set_buttons()
        self.read_now()

    # -- reading, live -------------------------------------------------------------

    def read_now(self) -> None:
        """Read the list now (after an action, or when the panel shows again)."""
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        if not self._paused:
            self._read()

    def pause(self) -> None:
        """The panel is covered: no reads until :meth:`resume`."""
        self._paused = True
        if self._timer is not None:
            self._timer.stop()
            self._timer = None

    def resume(self) -> None:
        if self._paused:
            self._paused = False
            self.read_now()

    @property
    def paused(self) -> bool:
        return self._paused

    @work(exclusive=True, exit_on_error=False, group="training-room", name="training_room")
    async def _read(self) -> None:
        try:
            room = await desk_of(self.app).training_room()
        except AccountDataError as error:
            self.post_message(RoomUnreadable(error))
            return
        self.post_message(RoomRead(room))

    def _arm(self, delay: float) -> None:
        if self._timer is not None:
            self._timer.stop()
        self._timer = None if self._paused else self.set_timer(delay, self._read, name="room-read")

    def on_room_read(self, message: RoomRead) -> None:
        message.stop()
        self._failure = None
        self.room = message.room
        self.remove_class("-reading", "-failed")
        if not message.room.tenants:
            # A sandbox without a room: nothing to watch, no more reads.
            self.query_one("#room-title", Static).update(
                "Not a training room: start the sandbox with --tenants to give each trainee "
                "a world of their own."
            )
            self.set_class(True, "-no-room")
            return
        self.query_one("#room-title", Static).update(room_title(message.room))
        self._draw(message.room)
        self._arm(READ_EVERY)

    def on_room_unreadable(self, message: RoomUnreadable) -> None:
        message.stop()
        error = message.error
        if error.code == "AC-904":  # a sandbox older than the list: nothing to watch
            self.query_one("#room-title", Static).update(
                "This sandbox keeps no list of trainees (an older accountdesk sandbox)."
            )
            self.set_class(True, "-no-room")
            return
        if self._failure != error.title:
            self._failure = error.title
            # One toast per kind of failure, not one every few seconds.
            self.post_message(ServiceFailed(error, "training_room"))
        self.set_class(True, "-failed")
        self.query_one("#room-title", Static).update(
            f"Training room: the sandbox refused the list ({error.title}); "
            "is the control token the one it printed?"
            if error.code == "AC-903"
            else f"Training room: no list ({error.title}); reading again shortly."
        )
        self._arm(READ_AGAIN_AFTER_FAILURE)

    # -- drawing -----------------------------------------------------------------

    def _draw(self, room: TrainingRoom) -> None:
        table: DataTable[Text] = self.query_one("#room-table", DataTable)
        rows = [make_row(trainee, room.now) for trainee in room.trainees]
        if [row.key for row in rows] == [key.value for key in table.rows]:
            for row in rows:  # the usual read: touch only the rows that changed
                if self._rows.get(row.key) != row:
                    for (column, _), cell in zip(ROOM_COLUMNS, _cells(row), strict=True):
                        table.update_cell(row.key, column, cell, update_width=True)
        else:
            selected = self.selected_trainee
            table.clear()
            for row in rows:
                table.add_row(*_cells(row), key=row.key)
            if selected is not None and selected in table.rows:
                table.move_cursor(row=table.get_row_index(selected), animate=False)
        self._rows = {row.key: row for row in rows}
        table.display = bool(rows)
        self._draw_details()
        self._set_buttons()

    def _draw_details(self) -> None:
        trainee = self._selected()
        details = self.query_one("#room-details", Static)
        details.update(trainee_details(trainee) if trainee is not None else "")

    def _set_buttons(self) -> None:
        selected = self.selected_trainee
        for button in self.query("#room-buttons Button").results(Button):
            button.disabled = button.id != "room-reset-all" and selected is None
        self.query_one("#room-reset-all", Button).disabled = self.room is None

    @on(DataTable.RowHighlighted, "#room-table")
    def _highlighted(self) -> None:
        self._draw_details()
        self._set_buttons()

    # -- the trainer's buttons -------------------------------------------------------

    @property
    def selected_trainee(self) -> str | None:
        table: DataTable[Text] = self.query_one("#room-table", DataTable)
        if not table.row_count or not table.display:
            return None
        key, _ = table.coordinate_to_cell_key(table.cursor_coordinate)
        return key.value

    def _selected(self) -> Trainee | None:
        name = self.selected_trainee
        if self.room is None or name is None:
            return None
        return next((trainee for trainee in self.room.trainees if trainee.name == name), None)

    @on(Button.Pressed, "#room-buttons Button")
    def _pressed(self, event: Button.Pressed) -> None:
        event.stop()
        button_id = event.button.id or ""
        if button_id == "room-reset-all":
            self.post_message(RoomAction("reset_all", None))
            return
        trainee = self.selected_trainee
        if trainee is None:
            return
        if button_id == "room-reset":
            self.post_message(RoomAction("reset", trainee))
        elif button_id in TRAINEE_STEPS:
            self.post_message(RoomAction("advance", trainee, TRAINEE_STEPS[button_id]))


def _cells(row: TraineeRow) -> list[Text]:
    """The row's texts: a blocked trainee's name and block in red, MFA waits in magenta."""
    blocked = "bold red" if row.blocked else ""
    styles = {"trainee": blocked, "blocks": blocked, "jobs": "magenta" if row.waiting else ""}
    return [
        Text(text, style=styles.get(column, ""))
        for (column, _), text in zip(ROOM_COLUMNS, row.cells, strict=True)
    ]
