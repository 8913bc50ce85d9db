"""The trainer's room through the desk: list, reset one, reset all, move one clock; and its rows."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import httpx
import pytest
from pydantic import SecretStr

from accountdesk.client import ApiError, TrainingRoom
from accountdesk.core.desk import Desk
from accountdesk.core.room_rows import room_title, trainee_details, trainee_row
from accountdesk.core.settings.model import Settings
from accountdesk.core.settings.paths import AppDirs
from accountdesk.sandbox import FrozenClock, create_app

pytestmark = pytest.mark.anyio
START = dt.datetime(2026, 11, 20, 9, 30, tzinfo=dt.UTC)
TOKEN = "trainer-control-token-0123456789"
SECRET = SecretStr("sandbox_secret")


def desk_for(app: object, tmp_path: Path, token: str | None = TOKEN) -> Desk:
    dirs = AppDirs(tmp_path / "config.toml", tmp_path / "data", tmp_path / "logs")
    settings = Settings(
        base_url="http://127.0.0.1:8765",
        sandbox_control_token=SecretStr(token) if token else None,
    )
    return Desk(settings, dirs, transport=httpx.ASGITransport(app), clock=lambda: START)


async def test_the_trainer_runs_the_room_through_the_desk(tmp_path: Path) -> None:
    clock = FrozenClock(START)
    app = create_app(clock=clock, tenants=True, control_token=TOKEN, job_seconds=600)
    engine = app.state.engine
    alice = engine.issue_token("trainee_alice", "sandbox_secret")["access_token"]
    engine.issue_token("trainee_bob", "sandbox_secret")
    job_id = engine.refresh_balance(alice, "user_mfa")["job_id"]
    for _ in range(3):
        engine.submit_mfa(alice, "user_mfa", job_id, "0000")
        engine.resolve_mfa(alice, "user_mfa", job_id)

    trainer = desk_for(app, tmp_path)
    assert trainer.is_trainer  # a control token: the room is asked for
    await trainer.sign_in("sandbox_key", SECRET)
    room = await trainer.training_room()
    assert isinstance(room, TrainingRoom) and room.tenants
    assert [t.name for t in room.trainees] == ["alice", "bob"]
    assert room.trainees[0].blocks and not room.trainees[1].blocks

    moved = await trainer.advance_trainee_clock("bob", 300)
    assert moved == START + dt.timedelta(minutes=5)
    assert trainer.now() == START  # the trainer's own world did not move
    await trainer.reset_trainee("alice")
    room = await trainer.training_room()
    assert not room.trainees[0].blocks and room.trainees[1].clock_ahead_seconds == 300
    with pytest.raises(ApiError) as unknown:
        await trainer.reset_trainee("carol")
    assert unknown.value.code == "AC-924"

    await trainer.advance_sandbox_clock(60)  # the shared world, the trainer's own
    await trainer.reset_room()
    room = await trainer.training_room()
    assert all(t.clock_ahead_seconds == 0 for t in room.trainees)
    assert trainer.now() == START  # the shared world rewound: the app follows
    await trainer.close()


async def test_without_a_control_token_there_is_no_room(tmp_path: Path) -> None:
    app = create_app(clock=FrozenClock(START), tenants=True, control_token=TOKEN)
    trainee = desk_for(app, tmp_path, token=None)
    assert not trainee.is_trainer
    await trainee.sign_in("trainee_eve", SECRET)
    with pytest.raises(ApiError) as refused:
        await trainee.training_room()
    assert refused.value.code == "AC-903"
    await trainee.close()


def test_a_trainee_row_reads_at_a_glance() -> None:
    room = TrainingRoom.model_validate(
        {
            "tenants": True,
            "max_trainees": 100,
            "now": "2026-11-20T09:31:05+00:00",
            "trainees": [
                {
                    "name": "alice",
                    "api_key": "trainee_alice",
                    "first_request": "2026-11-20T09:02:00+00:00",
                    "last_request": "2026-11-20T09:31:01+00:00",
                    "clock": "2026-11-20T09:36:05+00:00",
                    "clock_ahead_seconds": 300,
                    "jobs": 4,
                    "open_jobs": 2,
                    "waiting_for_mfa": 1,
                    "blocks": [
                        {"user_id": "user_mfa", "until": "2026-11-20T09:45:00+00:00"},
                        {"user_id": "user_good", "until": "2026-11-20T09:46:00+00:00"},
                    ],
                },
                {
                    "name": "bob",
                    "api_key": "trainee_bob",
                    "first_request": "2026-11-20T09:10:00+00:00",
                    "last_request": "2026-11-20T09:20:00+00:00",
                    "clock": "2026-11-20T09:31:05+00:00",
                    "clock_ahead_seconds": 0,
                    "jobs": 0,
                    "open_jobs": 0,
                    "waiting_for_mfa": 0,
                    "blocks": [],
                },
            ],
        }
    )
    alice, bob = (trainee_row(trainee, room.now) for trainee in room.trainees)
    assert alice.cells == (
        "alice",
        "4s ago",
        "09:36:05 +5m 00s",
        "2, 1 MFA",
        "user_mfa to 09:45:00 +1",
    )
    assert alice.blocked and alice.waiting
    assert bob.cells == ("bob", "11m 05s ago", "09:31:05", "none", "—")
    assert not bob.blocked and not bob.waiting
    assert room_title(room) == "Training room · 2 trainees (room for 100)"
    assert trainee_details(room.trainees[0]) == (
        "alice (trainee_alice) · first request 09:02:00 · 4 jobs started · "
        "blocked: user_mfa until 09:45:00, user_good until 09:46:00"
    )
    empty = room.model_copy(update={"trainees": []})
    assert room_title(empty) == "Training room · no trainee has signed in yet"
