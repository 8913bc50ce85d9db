"""The sandbox panel (F4, or "Sandbox panel" in the palette): the sandbox's clock and state.

Once signed in to a sandbox (the embedded one, or ``accountdesk sandbox``
reached over HTTP): the app never offers it on a live service. Its calls go
through the signed-in client (on a multi-tenant sandbox, the trainee's own
world).

- The sandbox's clock, ticking (read once, then our clock plus the
  sandbox's offset: no request a second), and buttons that move it +1, +5
  or +15 minutes, or
  by an amount typed as ``90``, ``90s``, ``5m`` or ``2h``: expire an MFA
  session, lift an ``AC-108`` block, finish jobs. Every tracked job is
  polled at once afterwards, so the screens show what the move did.
- Reset: the sandbox forgets its jobs, MFA sessions and blocks and rewinds
  its clock (the jobs this app tracks then read as gone). It asks first.
- For a trainer (the app has the sandbox's control token) on a training
  room: the room, live (:mod:`accountdesk.tui.widgets.trainee_room`), with
  reset one trainee, reset everyone (each asked first) and move one
  trainee's clock.
- The scenario users and what each one shows.

Every call runs in a worker; a refusal (a step over the sandbox's bound is
``AC-100``) takes the one failure path: a toast, and a line here.
"""

from __future__ import annotations

import datetime as dt
from typing import ClassVar

from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.timer import Timer
from textual.widgets import Button, Input, OptionList, Static
from textual.widgets.option_list import Option

from accountdesk.client import AccountDataError, ScenarioUser
from accountdesk.core.formatting import format_time
from accountdesk.core.tours.clock_steps import describe_step, parse_clock_step
from accountdesk.tui.base import DeskModal
from accountdesk.tui.messages import ServiceFailed
from accountdesk.tui.presenting import TypedField
from accountdesk.tui.resources import styles_path
from accountdesk.tui.screens.confirm import ConfirmDialog
from accountdesk.tui.widgets.footer import AppFooter
from accountdesk.tui.widgets.scenario_row import ScenarioRow
from accountdesk.tui.widgets.trainee_room import RoomAction, TraineeRoom

__all__ = ["SandboxPanel"]

#: The clock buttons: id -> seconds.
_STEPS = {"plus-1m": 60.0, "plus-5m": 300.0, "plus-15m": 900.0}
#: How long after a whole second of the sandbox's clock the line ticks: a tick
#: a hair early (timers are late or early by a few ms) would show a second twice
#: and then skip one.
_TICK_AFTER = 0.02


class SandboxClockRead(Message):
    """A control call answered; ``done`` says what it did (None for a plain read)."""

    def __init__(self, now: dt.datetime, done: str | None = None) -> None:
        super().__init__()
        self.now = now
        self.done = done


class ScenariosRead(Message):
    def __init__(self, users: list[ScenarioUser]) -> None:
        super().__init__()
        self.users = users


class SandboxPanel(DeskModal[None]):
    """The sandbox's clock, reset and scenario list (see the module docstring)."""

    CSS_PATH = styles_path("sandbox_panel.tcss")
    HELP_TITLE = "Sandbox panel"
    HELP = """\
Controls of the **sandbox** (never shown on a live service).

- **+1 min**, **+5 min**, **+15 min** move the sandbox's clock: jobs finish
  (they take seconds), an MFA session expires (`AC-110` once its time is up),
  an `AC-108` block lifts. Or type an amount (`90`, `90s`, `5m`, `2h`) and
  press Enter.
- **Reset** forgets every job, MFA session and block and rewinds the clock
  (it asks first).
- With the sandbox's **control token** (`--control-token`, the environment or
  a profile) on a training room: every trainee, read live (last seen, clock,
  open jobs, blocks). **Reset trainee** and **Reset everyone** ask first;
  **+1/+5/+15 min** move the selected trainee's clock.
- The scenario users are listed with what each one shows.
"""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close", id="close_sandbox_panel"),
        Binding("f1", "app.help", "Help", id="sandbox_panel_help"),
    ]

    def compose(self) -> ComposeResult:
        desk = self.desk
        where = "embedded (in-process)" if desk.embedded else desk.service_url
        with Vertical(id="sandbox-box") as box:
            box.border_title = Text(f"Sandbox · {where}")
            yield Static("Sandbox clock: reading…", id="sandbox-clock", markup=False)
            with Horizontal(id="clock-buttons"):
                yield Button("+1 min", id="plus-1m", compact=True)
                yield Button("+5 min", id="plus-5m", compact=True)
                yield Button("+15 min", id="plus-15m", compact=True)
                yield TypedField(
                    placeholder="or 90s, 5m, 2h + Enter",
                    id="clock-step",
                    max_length=16,
                    compact=True,
                )
                yield Button("Reset sandbox", id="reset-sandbox", compact=True, variant="warning")
            yield Static(
                "Jobs finish within seconds · +5 min ends an MFA session · "
                "+15 min lifts an AC-108 block",
                id="sandbox-hint",
                markup=False,
            )
            yield Static("", id="sandbox-note", markup=False)
            if desk.is_trainer and not desk.embedded:
                box.add_class("-room")
                yield TraineeRoom()
            yield Static("Scenario users", classes="panel-title")
            yield OptionList(Option("Loading…", disabled=True), id="sandbox-scenarios")
        yield AppFooter()

    #: The one-shot timer of the clock line's next tick (None before the first read).
    _ticker: Timer | None = None
    #: The sandbox's time was read: the line shows it, moving with our clock.
    _clock_known = False

    def on_mount(self) -> None:
        # No super().on_mount(): Textual runs DeskModal's own on_mount too.
        self.query_one("#plus-5m", Button).focus()
        self._control("read")
        self._load_scenarios()

    def tick(self) -> None:
        """Show the sandbox's time now: our clock plus its offset (the desk's ``now``).

        The desk keeps the offset learnt from every answer of the sandbox's
        clock (this panel's reads and moves): no request per tick.
        """
        if self._clock_known:
            self._show_clock(self.desk.now())

    def _show_clock(self, now: dt.datetime) -> None:
        text = f"Sandbox clock: {format_time(now)}"
        clock = self.query_one("#sandbox-clock", Static)
        if str(clock.content) != text:  # a frozen clock repaints nothing
            clock.update(text)

    def _tick_and_rearm(self) -> None:
        self.tick()
        self._arm_ticker()

    def _arm_ticker(self) -> None:
        """Tick just after the sandbox's next whole second, so every second shows once."""
        if self._ticker is not None:
            self._ticker.stop()
        now = self.desk.now()
        wait = 1.0 - now.microsecond / 1_000_000 + _TICK_AFTER
        self._ticker = self.set_timer(wait, self._tick_and_rearm, name="sandbox-clock")

    # -- the clock ---------------------------------------------------------------

    @on(Button.Pressed, "#clock-buttons Button")
    def _pressed(self, event: Button.Pressed) -> None:
        button_id = event.button.id or ""
        if button_id == "reset-sandbox":
            self._ask("Reset the sandbox?", self._reset_detail(), "Reset", "reset")
        elif button_id in _STEPS:
            self._control("advance", seconds=_STEPS[button_id])

    def _reset_detail(self) -> str:
        what = "It forgets its jobs, MFA sessions and blocks and rewinds its clock"
        room = self._room.room if self._room is not None else None
        own = self.desk.signed_in_as
        if room is not None and room.tenants and all(t.api_key != own for t in room.trainees):
            what += f", and every trainee's world with it ({len(room.trainees)} trainees)"
        return what + ": the jobs this app tracks then read as gone."

    def _ask(self, question: str, detail: str, yes: str, what: str, trainee: str = "") -> None:
        """Every reset asks first: it cannot be undone, and one key press is easy to make."""

        def answered(confirmed: bool | None) -> None:
            if confirmed:
                self._control(what, trainee=trainee)

        self.app.push_screen(ConfirmDialog(question, detail, yes), callback=answered)

    # -- the training room ---------------------------------------------------------

    @property
    def _room(self) -> TraineeRoom | None:
        return next(iter(self.query(TraineeRoom)), None)

    def on_room_action(self, message: RoomAction) -> None:
        name = message.trainee
        if message.what == "advance" and name is not None:
            self._control("trainee_advance", seconds=message.seconds, trainee=name)
        elif message.what == "reset" and name is not None:
            detail = (
                f"{name}'s jobs, MFA sessions and blocks are forgotten and their clock rewinds; "
                "their dashboard stays signed in, and the jobs it tracks read as gone."
            )
            self._ask(f"Reset {name}'s world?", detail, "Reset", "trainee_reset", name)
        elif message.what == "reset_all":
            room = self._room.room if self._room is not None else None
            count = len(room.trainees) if room is not None else 0
            detail = (
                f"Every trainee's world ({count} now) and the shared one: all jobs, MFA "
                "sessions and blocks are forgotten and every clock rewinds."
            )
            self._ask("Reset everyone?", detail, "Reset everyone", "room_reset")

    def on_screen_suspend(self, event: events.ScreenSuspend) -> None:
        # Covered (a confirmation, help): the room's live reads pause, and the clock line.
        if (room := self._room) is not None:
            room.pause()
        if self._ticker is not None:
            self._ticker.stop()
            self._ticker = None

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        if (room := self._room) is not None:
            room.resume()
        if self._clock_known and self._ticker is None:
            self._tick_and_rearm()

    @on(Input.Submitted, "#clock-step")
    def _typed_step(self, event: Input.Submitted) -> None:
        try:
            seconds = parse_clock_step(event.value)
        except ValueError as problem:
            self._note(str(problem), error=True)
            return
        event.input.clear()
        self._control("advance", seconds=seconds)

    # Not exclusive: a second press cancelling the first would drop a move
    # the sandbox may have made already, or not yet (two presses, one move).
    @work(exit_on_error=False, group="sandbox-control", name="sandbox_control")
    async def _control(self, what: str, *, seconds: float = 0.0, trainee: str = "") -> None:
        """One control call: ``read``, ``advance``, ``reset`` (this key's world, or the
        shared one), ``trainee_advance``, ``trainee_reset`` or ``room_reset``."""
        desk = self.desk
        done: str | None
        try:
            if what == "advance":
                now = await desk.advance_sandbox_clock(seconds)
                done = f"Moved the clock {describe_step(seconds)}."
            elif what == "reset":
                await desk.reset_sandbox()
                now = await desk.sandbox_clock()
                done = "Reset: no jobs, MFA sessions or blocks; the clock is back at its start."
            elif what == "trainee_advance":
                moved = await desk.advance_trainee_clock(trainee, seconds)
                now = await desk.sandbox_clock()
                done = f"Moved {trainee}'s clock {describe_step(seconds)}: {format_time(moved)}."
            elif what == "trainee_reset":
                await desk.reset_trainee(trainee)
                now, done = await desk.sandbox_clock(), f"Reset {trainee}'s world."
            elif what == "room_reset":
                await desk.reset_room()
                now = await desk.sandbox_clock()
                done = "Reset everyone: every trainee's world and the shared one."
            else:
                now, done = await desk.sandbox_clock(), None
        except AccountDataError as error:
            self.post_message(ServiceFailed(error, f"sandbox_{what}"))
            return
        if done is not None:
            # Live polling is held while this panel is open: ask now, so the
            # screens below show what the move did.
            desk.poller.poll_now(force=True)
        self.post_message(SandboxClockRead(now, done))

    def on_sandbox_clock_read(self, message: SandboxClockRead) -> None:
        self._clock_known = True
        self._show_clock(message.now)
        self._arm_ticker()  # the offset just learnt: tick on the sandbox's seconds
        if message.done is not None:
            self._note(message.done)
            if (room := self._room) is not None:
                room.read_now()  # show what the action did without waiting for the next read

    def on_service_failed(self, message: ServiceFailed) -> None:
        # The app shows the toast; this line keeps the outcome beside the buttons.
        if message.operation.startswith("sandbox_"):
            self._note(f"The sandbox refused: {message.error.title}.", error=True)

    def _note(self, text: str, *, error: bool = False) -> None:
        note = self.query_one("#sandbox-note", Static)
        note.update(text)
        note.set_class(error, "-error")

    # -- scenarios -----------------------------------------------------------------

    @work(exclusive=True, exit_on_error=False, group="sandbox-scenarios", name="scenarios")
    async def _load_scenarios(self) -> None:
        self.post_message(ScenariosRead(await self.desk.scenarios()))

    def on_scenarios_read(self, message: ScenariosRead) -> None:
        scenarios = self.query_one("#sandbox-scenarios", OptionList)
        scenarios.clear_options()
        if not message.users:
            scenarios.add_option(Option("Scenario list unavailable", disabled=True))
            return
        width = max(len(user.user_id) for user in message.users)
        scenarios.add_options(
            Option(ScenarioRow(user, width), id=user.user_id) for user in message.users
        )

    def action_close(self) -> None:
        self.dismiss()
