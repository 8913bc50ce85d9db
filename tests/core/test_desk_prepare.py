"""In embedded mode the desk has the sandbox build a user's transactions before the first read."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import httpx
import pytest
from pydantic import SecretStr

from accountdesk.core.desk import Desk
from accountdesk.core.settings.model import Settings
from accountdesk.core.settings.paths import AppDirs
from accountdesk.sandbox import FrozenClock, create_app, engine
from transaction_bodies import read_whole

pytestmark = pytest.mark.anyio
START = dt.datetime(2026, 11, 20, 9, 30, tzinfo=dt.UTC)
KEY, SECRET = "sandbox_key", SecretStr("sandbox_secret")


def _dirs(tmp_path: Path) -> AppDirs:
    return AppDirs(tmp_path / "config.toml", tmp_path / "data", tmp_path / "logs")


def _built(transport: object) -> set[str]:
    return set(transport.app.state.engine._transactions._built)  # type: ignore[attr-defined]


async def test_the_embedded_sandbox_builds_the_answer_ahead_and_the_read_gets_it(
    tmp_path: Path,
) -> None:
    options = {"bulk_transactions": 2_000, "frozen_at": START}
    desk = Desk(Settings(), _dirs(tmp_path), sandbox_options=options)
    await desk.sign_in(KEY, SECRET)
    try:
        transport = await desk.connection.transport()
        assert _built(transport) == set()
        await desk.prepare_transactions("user_bulk")
        assert _built(transport) == {"user_bulk"}  # before any read
        data = await read_whole(desk, "user_bulk")
        assert len(data) == 2_000 and _built(transport) == {"user_bulk"}
    finally:
        await desk.close()


async def test_the_large_generated_answers_are_built_before_any_lookup(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # From the lookup screen, no user named: each generated answer within
    # BUILT_AHEAD_ROWS (user_bulk's 100,000 rows by default), nothing larger
    # (a million rows would be seconds and 142 MB for a user nobody may open).
    monkeypatch.setattr(engine, "BUILT_AHEAD_ROWS", (1_000, 3_000))
    for rows, built in ((2_000, {"user_bulk"}), (3_001, set())):
        options = {"bulk_transactions": rows, "frozen_at": START}
        desk = Desk(Settings(), _dirs(tmp_path), sandbox_options=options)
        await desk.sign_in(KEY, SECRET)
        try:
            transport = await desk.connection.transport()
            await desk.prepare_transactions()
            assert _built(transport) == built  # the shipped users' 60 rows: built on a read
        finally:
            await desk.close()


async def test_nothing_is_prepared_on_a_service_we_did_not_start(tmp_path: Path) -> None:
    app = create_app(clock=FrozenClock(START), bulk_transactions=2_000)
    desk = Desk(Settings(), _dirs(tmp_path), transport=httpx.ASGITransport(app))
    await desk.sign_in(KEY, SECRET)
    try:
        await desk.prepare_transactions("user_bulk")  # an injected transport: not ours
        await desk.prepare_transactions()
        assert set(app.state.engine._transactions._built) == set()
    finally:
        await desk.close()
