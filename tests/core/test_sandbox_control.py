"""Sandbox control through the desk: read, move and reset the clock; failures are client errors."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import httpx
import pytest

from accountdesk.client import (
    ApiError,
    InvalidRequestError,
    MalformedResponseError,
    TransportError,
)
from accountdesk.core.demo import FollowingClock, demo_desk
from accountdesk.core.desk import Desk
from accountdesk.core.paths import AppDirs
from accountdesk.core.sandbox_control import describe_step, parse_clock_step
from accountdesk.core.settings import Settings
from accountdesk.sandbox import FrozenClock, create_app

pytestmark = pytest.mark.anyio
START = dt.datetime(2026, 11, 20, 9, 30, tzinfo=dt.UTC)


def _desk(tmp_path: Path, transport: httpx.AsyncBaseTransport, base_url: str | None = None) -> Desk:
    dirs = AppDirs(tmp_path / "config.toml", tmp_path / "data", tmp_path / "logs")
    return Desk(Settings(base_url=base_url), dirs, transport=transport)


async def test_read_move_and_reset_the_clock(tmp_path: Path) -> None:
    clock = FrozenClock(START)
    desk = _desk(tmp_path, httpx.ASGITransport(create_app(clock=clock)))
    seen: list[dt.datetime] = []
    desk.sandbox_time_listeners.append(seen.append)
    assert await desk.sandbox_clock() == START
    moved = await desk.advance_sandbox_clock(300)
    assert moved == START + dt.timedelta(seconds=300) == clock.now()
    assert await desk.reset_sandbox() == START
    assert seen == [START, moved, START]


async def test_a_step_over_the_sandboxs_bound_is_its_refusal(tmp_path: Path) -> None:
    desk = _desk(tmp_path, httpx.ASGITransport(create_app(clock=FrozenClock(START))))
    with pytest.raises(InvalidRequestError) as raised:
        await desk.advance_sandbox_clock(400 * 86400)
    assert (raised.value.status, raised.value.code) == (400, "AC-100")


def _service(handler) -> httpx.MockTransport:
    return httpx.MockTransport(handler)


async def test_a_live_service_refuses_with_its_own_answer(tmp_path: Path) -> None:
    def live(request: httpx.Request) -> httpx.Response:
        return httpx.Response(404, json={"error": {"code": "AC-904", "message": "No\x1b[31m such"}})

    desk = _desk(tmp_path, _service(live), "https://api.bank.example")
    with pytest.raises(ApiError) as raised:
        await desk.advance_sandbox_clock(60)
    assert raised.value.code == "AC-904"
    assert "\x1b" not in raised.value.message  # made inert like every service text


@pytest.mark.parametrize(
    "answer",
    [
        httpx.Response(200, text="<html>proxy</html>"),
        httpx.Response(200, json={"now": "not a time"}),
        httpx.Response(200, json={"now": "2026-11-20T09:30:00"}),  # no offset
        httpx.Response(502, text="Bad gateway"),
    ],
)
async def test_an_answer_that_is_not_the_sandboxs_is_malformed(
    tmp_path: Path, answer: httpx.Response
) -> None:
    desk = _desk(tmp_path, _service(lambda request: answer), "https://api.bank.example")
    with pytest.raises(MalformedResponseError):
        await desk.sandbox_clock()


async def test_no_answer_is_a_transport_error(tmp_path: Path) -> None:
    def refuse(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("refused", request=request)

    desk = _desk(tmp_path, _service(refuse), "https://api.bank.example")
    with pytest.raises(TransportError):
        await desk.reset_sandbox()


async def test_a_demo_desks_app_clock_follows_the_sandbox(tmp_path: Path) -> None:
    dirs = AppDirs(tmp_path / "config.toml", tmp_path / "data", tmp_path / "logs")
    desk = demo_desk(Settings(), dirs, start=START)
    try:
        assert isinstance(desk.clock, FollowingClock) and desk.embedded
        assert desk.now() == START
        await desk.advance_sandbox_clock(900)
        assert desk.now() == START + dt.timedelta(seconds=900)
        await desk.reset_sandbox()
        assert desk.now() == START
    finally:
        await desk.close()
    with pytest.raises(ValueError, match="embedded sandbox"):
        demo_desk(Settings(base_url="https://api.bank.example"), dirs, start=START)


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
