"""Sandbox control through the desk (the client's SandboxControl), and clock steps as typed."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import httpx
import pytest
from pydantic import SecretStr

from accountdesk.client import ApiError, InvalidRequestError, MalformedResponseError
from accountdesk.core.desk import Desk
from accountdesk.core.settings.model import Settings
from accountdesk.core.settings.paths import AppDirs
from accountdesk.core.tours.clock_steps import describe_step, parse_clock_step
from accountdesk.core.tours.demo import StoppedClock, demo_desk
from accountdesk.sandbox import FrozenClock, create_app

pytestmark = pytest.mark.anyio
START = dt.datetime(2026, 11, 20, 9, 30, tzinfo=dt.UTC)
KEY, SECRET = "sandbox_key", SecretStr("sandbox_secret")


def _dirs(tmp_path: Path) -> AppDirs:
    return AppDirs(tmp_path / "config.toml", tmp_path / "data", tmp_path / "logs")


async def test_read_move_and_reset_the_clock(tmp_path: Path) -> None:
    clock = FrozenClock(START)
    transport = httpx.ASGITransport(create_app(clock=clock))
    desk = Desk(Settings(), _dirs(tmp_path), transport=transport)
    with pytest.raises(RuntimeError, match="not signed in"):
        await desk.sandbox_clock()
    await desk.sign_in(KEY, SECRET)
    try:
        assert await desk.sandbox_clock() == START
        moved = await desk.advance_sandbox_clock(300)
        assert moved == START + dt.timedelta(seconds=300) == clock.now()
        await desk.reset_sandbox()
        assert await desk.sandbox_clock() == START == clock.now()  # reset rewinds the clock
        with pytest.raises(InvalidRequestError) as raised:  # over the sandbox's bound
            await desk.advance_sandbox_clock(400 * 86400)
        assert (raised.value.status, raised.value.code) == (400, "AC-100")
    finally:
        await desk.close()


async def test_the_app_clock_follows_any_sandbox_so_an_mfa_session_has_its_300_s(
    tmp_path: Path,
) -> None:
    # A trainer's sandbox already an hour ahead of this machine, then moved 15 min.
    sandbox_clock = FrozenClock(START + dt.timedelta(hours=1))
    transport = httpx.ASGITransport(create_app(clock=sandbox_clock))
    settings = Settings(base_url="http://127.0.0.1:8765")  # a sandbox over HTTP
    desk = Desk(settings, _dirs(tmp_path), transport=transport, clock=lambda: START)
    await desk.sign_in(KEY, SECRET)
    try:
        assert desk.is_sandbox and not desk.embedded
        assert desk.now() == START + dt.timedelta(hours=1)
        await desk.advance_sandbox_clock(900)
        assert desk.now() == sandbox_clock.now()
        job = await desk.client.refresh_balance("user_mfa")
        assert job.mfa is not None
        assert job.mfa.expires_at - desk.now() == dt.timedelta(seconds=300)
        await desk.reset_sandbox()
        assert desk.now() == sandbox_clock.now()
    finally:
        await desk.close()
    assert desk.now() == START  # signed out: our own time again


async def test_a_trainee_moves_the_clock_of_their_own_world(tmp_path: Path) -> None:
    clock = FrozenClock(START)
    transport = httpx.ASGITransport(create_app(clock=clock, tenants=True))
    desk = Desk(Settings(), _dirs(tmp_path), transport=transport)
    await desk.sign_in("trainee_ada", SECRET)
    try:
        moved = await desk.advance_sandbox_clock(900)
        assert moved == START + dt.timedelta(seconds=900)
        assert clock.now() == START  # the shared world's clock did not move
    finally:
        await desk.close()


def _live(answer: httpx.Response):
    def handler(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/token":
            return httpx.Response(
                200, json={"access_token": "tok-123456", "token_type": "Bearer", "expires_in": 3600}
            )
        return answer

    return httpx.MockTransport(handler)


async def test_what_a_live_service_answers(tmp_path: Path) -> None:
    refusal = httpx.Response(404, json={"error": {"code": "AC-904", "message": "No\x1b[31m such"}})
    settings = Settings(base_url="https://api.bank.example")
    desk = Desk(settings, _dirs(tmp_path), transport=_live(refusal))
    await desk.sign_in("live_key", SecretStr("live_secret"))
    try:
        with pytest.raises(ApiError) as raised:
            await desk.advance_sandbox_clock(60)
        assert raised.value.code == "AC-904" and "\x1b" not in raised.value.message
    finally:
        await desk.close()
    html = httpx.Response(200, text="<html>proxy</html>")
    desk = Desk(settings, _dirs(tmp_path), transport=_live(html))
    await desk.sign_in("live_key", SecretStr("live_secret"))
    try:
        with pytest.raises(MalformedResponseError):
            await desk.sandbox_clock()
    finally:
        await desk.close()


async def test_a_demo_desks_app_clock_follows_the_sandbox(tmp_path: Path) -> None:
    desk = demo_desk(Settings(), _dirs(tmp_path), start=START)
    await desk.sign_in(KEY, SECRET)
    try:
        assert isinstance(desk.clock, StoppedClock) and desk.embedded
        assert desk.now() == START
        await desk.advance_sandbox_clock(5)
        await desk.sandbox_clock()
        assert desk.now() == START + dt.timedelta(seconds=5)
        await desk.advance_sandbox_clock(895)
        assert desk.now() == START + dt.timedelta(seconds=900)
        await desk.reset_sandbox()
        assert desk.now() == START
    finally:
        await desk.close()
    with pytest.raises(ValueError, match="embedded sandbox"):
        demo_desk(Settings(base_url="https://api.bank.example"), _dirs(tmp_path), start=START)


@pytest.mark.parametrize(
    ("text", "seconds"),
    [("90", 90), ("90s", 90), (" 5m ", 300), ("5 min", 300), ("2h", 7200), ("1.5h", 5400)],
)
def test_clock_steps_as_a_person_types_them(text: str, seconds: float) -> None:
    assert parse_clock_step(text) == seconds


@pytest.mark.parametrize("text", ["", "abc", "-5", "0", "5x", "367d", "1e9"])
def test_clock_steps_refused_before_sending(text: str) -> None:
    with pytest.raises(ValueError, match=r"\w"):
        parse_clock_step(text)


@pytest.mark.parametrize(
    ("seconds", "text"),
    [
        (5, "+5 s"),
        (90, "+1 min 30 s"),
        (300, "+5 min"),
        (5400, "+1 h 30 min"),
        (172800, "+2 days"),
        (2.5, "+2.5 s"),
    ],
)
def test_clock_steps_read_as_a_person_says_them(seconds: float, text: str) -> None:
    assert describe_step(seconds) == text


async def test_a_tours_packs_make_a_fresh_sandbox_and_the_next_tours_none(tmp_path: Path) -> None:
    from accountdesk.sandbox.packs.reading import shipped_pack_path

    example = shipped_pack_path("fi-paused-mfa-locks.toml")
    desk = demo_desk(Settings(), _dirs(tmp_path), start=START)
    try:
        await desk.connection.warm_up()  # the shipped users' sandbox, built at start
        await desk.serve_scenarios([example])
        await desk.sign_in(KEY, SECRET)
        users = [user.user_id for user in await desk.scenarios()]
        assert users[-1] == "paused_and_locked" and "user_good" in users
        await desk.serve_scenarios([example])  # the same packs: the same sandbox
        assert (await desk.sandbox_clock()) == START
        await desk.sign_out()
        await desk.serve_scenarios([])
        await desk.sign_in(KEY, SECRET)
        assert "paused_and_locked" not in [user.user_id for user in await desk.scenarios()]
    finally:
        await desk.close()
