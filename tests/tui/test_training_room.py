"""The training room in the sandbox panel (F4): the trainer's view of every trainee, live.

A tenants sandbox in-process (frozen clock) with a few trainees who signed
in and did things through the engine; the trainer's app signs in with
``sandbox_key`` and has the control token in its settings. Every reset asks
first; moving a trainee's clock does not.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import httpx
import pytest
from textual.widgets import Button, DataTable, Static
from tui_helpers import FROZEN_NOW, settle, sign_in, toast_titles, widget_text

from accountdesk.sandbox import FrozenClock, create_app
from accountdesk.tui.screens.confirm import ConfirmDialog
from accountdesk.tui.screens.sandbox_panel import SandboxPanel
from accountdesk.tui.widgets import trainee_room
from accountdesk.tui.widgets.trainee_room import TraineeRoom

pytestmark = pytest.mark.anyio
TOKEN = "trainer-control-token-0123456789"
URL = "http://127.0.0.1:8765"


class Counting(httpx.AsyncBaseTransport):
    """The room's transport, counting the reads of the list of trainees."""

    def __init__(self, app: Any) -> None:
        self.inner = httpx.ASGITransport(app)
        self.list_reads = 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.list_reads += request.url.path == "/_sandbox/trainees"
        return await self.inner.handle_async_request(request)


def populated_room(clock: FrozenClock) -> Any:
    """alice blocked (AC-108) and waiting for MFA elsewhere, bob's clock +5 min, carol idle."""
    app = create_app(clock=clock, tenants=True, control_token=TOKEN, ids=1, job_seconds=600)
    engine = app.state.engine
    alice = engine.issue_token("trainee_alice", "sandbox_secret")["access_token"]
    job_id = engine.refresh_balance(alice, "user_mfa")["job_id"]
    for _ in range(3):
        engine.submit_mfa(alice, "user_mfa", job_id, "0000")
        engine.resolve_mfa(alice, "user_mfa", job_id)
    engine.start_identity(alice, "user_good")
    clock.advance(20)
    bob = engine.issue_token("trainee_bob", "sandbox_secret")["access_token"]
    engine.advance_clock(300, bob)
    engine.start_identity(bob, "user_mfa")
    clock.advance(40)
    engine.issue_token("trainee_carol", "sandbox_secret")
    return app


def trainer_app(make_app: Any, room: Any, *, token: str = TOKEN, transport: Any = None) -> Any:
    return make_app(
        sandbox=False,
        base_url=URL,
        transport=transport or httpx.ASGITransport(room),
        api_key="sandbox_key",
        api_secret="sandbox_secret",
        sandbox_control_token=token,
    )


async def open_room(pilot: Any) -> TraineeRoom:
    await sign_in(pilot)
    await pilot.press("f4")
    await settle(pilot)
    assert isinstance(pilot.app.screen, SandboxPanel)
    return pilot.app.screen.query_one(TraineeRoom)


def rows(room: TraineeRoom) -> list[list[str]]:
    table = room.query_one("#room-table", DataTable)
    return [[str(cell) for cell in table.get_row_at(i)] for i in range(table.row_count)]


def blocked(room_app: Any, name: str) -> bool:
    world = room_app.state.engine.tenants.find(name).world
    return bool(world.summary()["blocks"])


async def press(pilot: Any, button_id: str) -> None:
    pilot.app.screen.query_one(f"#{button_id}", Button).press()
    await settle(pilot)


async def select(pilot: Any, room: TraineeRoom, name: str) -> None:
    table = room.query_one("#room-table", DataTable)
    table.move_cursor(row=table.get_row_index(name))
    await settle(pilot)


async def test_the_room_lists_every_trainee(make_app: Any) -> None:
    room_app = populated_room(FrozenClock(FROZEN_NOW))
    app = trainer_app(make_app, room_app)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        room = await open_room(pilot)
        title = widget_text(room.query_one("#room-title", Static), " ").strip()
        assert title == "Training room · 3 trainees (room for 100)"
        assert rows(room) == [
            ["alice", "1m 00s ago", "09:31:00", "1", "user_mfa to 09:45:00"],
            ["bob", "40s ago", "09:36:00 +5m 00s", "1, 1 MFA", "—"],
            ["carol", "0s ago", "09:31:00", "none", "—"],
        ]
        details = widget_text(room.query_one("#room-details", Static), " ").strip()
        assert details.startswith("alice (trainee_alice) · first request 09:30:00")


async def test_the_room_is_read_live_and_pauses_while_covered(
    make_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(trainee_room, "READ_EVERY", 0.02)
    clock = FrozenClock(FROZEN_NOW)
    room_app = populated_room(clock)
    wire = Counting(room_app)
    app = trainer_app(make_app, room_app, transport=wire)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        room = await open_room(pilot)
        room_app.state.engine.issue_token("trainee_dan", "sandbox_secret")  # a latecomer
        for _ in range(200):  # the widget's own timer reads again: no key pressed
            if len(rows(room)) == 4:
                break
            await pilot.pause(0.02)
        assert [row[0] for row in rows(room)] == ["alice", "bob", "carol", "dan"]

        await press(pilot, "room-reset-all")  # the confirmation covers the panel
        assert isinstance(app.screen, ConfirmDialog) and room.paused
        before = wire.list_reads
        for _ in range(10):
            await pilot.pause(0.02)
        assert wire.list_reads == before  # no reads behind the dialog
        await pilot.press("n")
        await settle(pilot)
        assert isinstance(app.screen, SandboxPanel) and not room.paused
        assert wire.list_reads > before  # read again as soon as it shows


async def test_every_reset_asks_first(make_app: Any) -> None:
    room_app = populated_room(FrozenClock(FROZEN_NOW))
    app = trainer_app(make_app, room_app)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        room = await open_room(pilot)
        await select(pilot, room, "alice")
        await press(pilot, "room-reset")
        dialog = app.screen
        assert isinstance(dialog, ConfirmDialog)
        assert dialog.question == "Reset alice's world?"
        await pilot.press("n")  # the default answer keeps everything
        await settle(pilot)
        assert blocked(room_app, "alice")
        await press(pilot, "room-reset")
        await pilot.press("y")
        await settle(pilot)
        assert not blocked(room_app, "alice")
        assert rows(room)[0][4] == "—"  # read again at once
        assert "Reset alice's world." in widget_text(app.screen.query_one("#sandbox-note"), " ")

        # The sandbox's own reset (here the shared world: everyone) asks too.
        await press(pilot, "reset-sandbox")
        assert isinstance(app.screen, ConfirmDialog)
        assert "every trainee's world with it (3 trainees)" in app.screen.detail
        await pilot.press("escape")
        await settle(pilot)
        assert rows(room)[1][2] == "09:36:00 +5m 00s"  # bob's clock untouched

        await press(pilot, "room-reset-all")
        assert isinstance(app.screen, ConfirmDialog) and app.screen.question == "Reset everyone?"
        await pilot.press("y")
        await settle(pilot)
        assert [row[2] for row in rows(room)] == ["09:31:00"] * 3
        assert [row[3] for row in rows(room)] == ["none"] * 3


async def test_moving_one_trainees_clock(make_app: Any) -> None:
    room_app = populated_room(FrozenClock(FROZEN_NOW))
    app = trainer_app(make_app, room_app)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        room = await open_room(pilot)
        await select(pilot, room, "carol")
        await press(pilot, "room-plus-15m")
        assert not isinstance(app.screen, ConfirmDialog)  # a move is not a reset
        clocks = {row[0]: row[2] for row in rows(room)}
        assert clocks == {
            "alice": "09:31:00",
            "bob": "09:36:00 +5m 00s",
            "carol": "09:46:00 +15m 00s",
        }
        assert app.desk.now() == FROZEN_NOW + dt.timedelta(seconds=60)  # ours did not move


async def test_a_wrong_control_token_is_said_once(
    make_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(trainee_room, "READ_AGAIN_AFTER_FAILURE", 0.02)
    room_app = populated_room(FrozenClock(FROZEN_NOW))
    wire = Counting(room_app)
    app = trainer_app(make_app, room_app, token="not-the-token-0123456789", transport=wire)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        room = await open_room(pilot)
        for _ in range(200):
            if wire.list_reads >= 3:
                break
            await pilot.pause(0.02)
        # Reported once, not once per read (its toast waits while the panel is open).
        assert [r.code for r in app.desk.error_log.records].count("AC-903") == 1
        title = widget_text(room.query_one("#room-title", Static), " ").strip()
        assert "control token" in title and room.has_class("-failed")
        assert not room.query_one("#room-table", DataTable).row_count
        await pilot.press("escape")
        await pilot.pause()
        assert toast_titles(app).count("AC-903 · 403") == 1


async def test_no_token_no_room(make_app: Any) -> None:
    room_app = populated_room(FrozenClock(FROZEN_NOW))
    app = make_app(
        sandbox=False,
        base_url=URL,
        transport=httpx.ASGITransport(room_app),
        api_key="trainee_zoe",
        api_secret="sandbox_secret",
    )
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await sign_in(pilot)
        await pilot.press("f4")
        await settle(pilot)
        assert isinstance(app.screen, SandboxPanel)
        assert not app.screen.query(TraineeRoom)
        # A trainee's own reset asks first too, and resets only their world.
        await press(pilot, "reset-sandbox")
        assert isinstance(app.screen, ConfirmDialog)
        assert "every trainee" not in app.screen.detail
        await pilot.press("y")
        await settle(pilot)
        assert blocked(room_app, "alice")


@pytest.mark.parametrize("size", [(100, 30), (80, 24)], ids=["100x30", "80x24"])
def test_training_room_snapshot(snap_compare: Any, make_app: Any, size: tuple[int, int]) -> None:
    room_app = populated_room(FrozenClock(FROZEN_NOW))

    async def run_before(pilot: Any) -> None:
        room = await open_room(pilot)
        room.pause()  # a still picture: no read lands while it is taken
        await select(pilot, room, "bob")  # alice's block shows in red on her row

    app = trainer_app(make_app, room_app)
    assert snap_compare(app, terminal_size=size, run_before=run_before)
