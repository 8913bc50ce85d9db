"""SandboxControl: the sandbox's control endpoints through the client's own session."""

from __future__ import annotations

import datetime as dt
import json
import logging
from typing import Any

import httpx
import pytest
from client_fakes import FakeService, make_client, request_json

from accountdesk.client import (
    ApiError,
    MalformedResponseError,
    SandboxCatalogue,
    TransportError,
)
from accountdesk.sandbox import FrozenClock, create_app
from hostile import HostileServer

pytestmark = pytest.mark.anyio

CATALOGUE = {
    "users": [{"user_id": "user_good", "summary": "linked; jobs complete"}],
    "credentials": [{"api_key": "sandbox_key", "api_secret": "sandbox_secret", "access": "all"}],
}
NOW = "2026-03-02T12:00:00.000+00:00"


def control_service(**answers: Any) -> FakeService:
    """Answers the control paths with ``answers[path-name]`` (status, body)."""

    def api(request: httpx.Request) -> httpx.Response:
        name = request.url.path.removeprefix("/_sandbox/").replace("/", "_")
        status, body = answers.get(name, (404, {"error": {"code": "AC-904", "message": "nf"}}))
        content = body if isinstance(body, bytes) else json.dumps(body).encode()
        return httpx.Response(status, content=content)

    return FakeService(api)


async def test_scenarios_are_read_with_the_bearer_token() -> None:
    service = control_service(scenarios=(200, CATALOGUE))
    async with make_client(service) as client:
        catalogue = await client.sandbox.scenarios()
    assert isinstance(catalogue, SandboxCatalogue)
    assert [user.user_id for user in catalogue.users] == ["user_good"]
    credential = catalogue.credentials[0]
    assert credential.api_key == "sandbox_key"
    assert credential.api_secret.get_secret_value() == "sandbox_secret"
    assert "sandbox_secret" not in repr(catalogue)
    (request,) = service.api_requests
    assert request.method == "GET" and request.url.path == "/_sandbox/scenarios"
    assert request.headers["Authorization"].startswith("Bearer tok-")
    assert "X-Sandbox-Control-Token" not in request.headers


@pytest.mark.parametrize(
    "answer",
    [
        (404, {"error": {"code": "AC-904", "message": "Not found"}}),
        (403, {"error": {"code": "AC-001", "message": "no"}}),
        (200, {"users": "everyone"}),
        (200, {"users": []}),  # no credentials: not the catalogue's shape
        (200, b"<html>welcome</html>"),
        (500, b""),
    ],
    ids=["404", "403", "users-not-a-list", "no-credentials", "html", "500"],
)
async def test_anything_but_the_catalogue_means_not_a_sandbox(answer: tuple) -> None:
    async with make_client(control_service(scenarios=answer)) as client:
        assert await client.sandbox.scenarios() is None


async def test_no_answer_at_all_is_a_transport_error() -> None:
    def refuse(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("refused")

    async with make_client(FakeService(refuse), max_attempts=1) as client:
        with pytest.raises(TransportError):
            await client.sandbox.scenarios()


async def test_catalogue_text_is_inert() -> None:
    with HostileServer("escapes") as base_url:
        from accountdesk.client import AccountDataClient

        async with AccountDataClient(base_url, "k", "secret-value-1") as client:
            catalogue = await client.sandbox.scenarios()
    assert catalogue is not None
    assert "\x1b" not in catalogue.users[0].summary and "␛" in catalogue.users[0].summary
    assert "\x07" not in catalogue.credentials[0].access


async def test_clock_advance_and_reset() -> None:
    later = "2026-03-02T12:05:00.000+00:00"
    service = control_service(
        clock=(200, {"now": NOW}), clock_advance=(200, {"now": later}), reset=(200, {"reset": True})
    )
    async with make_client(service) as client:
        control = client.sandbox_control("control-token-0123456789")
        assert await control.clock() == dt.datetime(2026, 3, 2, 12, 0, tzinfo=dt.UTC)
        assert await control.advance_clock(300) == dt.datetime(2026, 3, 2, 12, 5, tzinfo=dt.UTC)
        assert await control.reset() is None
    clock, advance, reset = service.api_requests
    assert (advance.method, advance.url.path) == ("POST", "/_sandbox/clock/advance")
    assert request_json(advance) == {"seconds": 300}
    assert (reset.method, reset.url.path) == ("POST", "/_sandbox/reset")
    for request in (clock, advance, reset):
        assert request.headers["X-Sandbox-Control-Token"] == "control-token-0123456789"
        assert request.headers["Authorization"].startswith("Bearer ")


async def test_control_token_is_a_secret(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    answer = (400, {"error": {"code": "AC-100", "message": "bad control-token-0123456789"}})
    async with make_client(control_service(reset=answer)) as client:
        control = client.sandbox_control("control-token-0123456789")
        with pytest.raises(ApiError) as caught:
            await control.reset()
        logging.getLogger("accountdesk.client").warning("echo control-token-0123456789")
    assert "control-token-0123456789" not in str(caught.value) + repr(control) + caplog.text


@pytest.mark.parametrize(
    ("name", "body"),
    [
        ("clock", {"now": "yesterday"}),
        ("clock", {"now": "2026-03-02T12:00:00"}),  # no offset: not a moment
        ("reset", {"reset": False}),
        ("reset", {}),
    ],
)
async def test_odd_control_answers_are_malformed(name: str, body: dict) -> None:
    async with make_client(control_service(**{name: (200, body)})) as client:
        with pytest.raises(MalformedResponseError):
            await (client.sandbox.clock() if name == "clock" else client.sandbox.reset())


@pytest.mark.parametrize("seconds", [-1, float("nan"), float("inf"), True])
async def test_time_only_moves_forward(seconds: Any) -> None:
    service = control_service()
    async with make_client(service) as client:
        with pytest.raises(ValueError, match="forward"):
            await client.sandbox.advance_clock(seconds)
    assert service.requests == []


async def test_against_the_sandbox_itself() -> None:
    clock = FrozenClock(dt.datetime(2026, 3, 2, 12, 0, tzinfo=dt.UTC))
    transport = httpx.ASGITransport(create_app(clock=clock))
    from accountdesk.client import AccountDataClient

    async with AccountDataClient(
        "http://sandbox", "sandbox_key", "sandbox_secret", transport=transport
    ) as client:
        catalogue = await client.sandbox.scenarios()
        assert catalogue is not None
        assert "user_bulk" in {user.user_id for user in catalogue.users}
        moved = await client.sandbox.advance_clock(60)
        assert moved == dt.datetime(2026, 3, 2, 12, 1, tzinfo=dt.UTC)
        await client.sandbox.reset()


ROOM = {
    "tenants": True,
    "max_trainees": 100,
    "now": NOW,
    "trainees": [
        {
            "name": "alice",
            "api_key": "trainee_alice",
            "first_request": NOW,
            "last_request": NOW,
            "clock": "2026-03-02T12:05:00.000+00:00",
            "clock_ahead_seconds": 300,
            "jobs": 3,
            "open_jobs": 1,
            "waiting_for_mfa": 1,
            "blocks": [{"user_id": "user_mfa", "until": "2026-03-02T12:15:00.000+00:00"}],
        }
    ],
}


async def test_the_trainers_calls_send_the_control_token_and_no_bearer_token() -> None:
    service = control_service(
        trainees=(200, ROOM), reset=(200, {"reset": True}), clock_advance=(200, {"now": NOW})
    )
    async with make_client(service) as client:
        control = client.sandbox_control("control-token-0123456789")
        room = await control.trainees()
        await control.reset_trainee("alice")
        assert await control.advance_trainee_clock("team-3 b/../x", 900) == dt.datetime(
            2026, 3, 2, 12, 0, tzinfo=dt.UTC
        )
        await control.reset_room()
    assert room.tenants and room.max_trainees == 100
    [alice] = room.trainees
    assert (alice.name, alice.api_key, alice.open_jobs, alice.waiting_for_mfa) == (
        "alice",
        "trainee_alice",
        1,
        1,
    )
    assert alice.clock_ahead == dt.timedelta(minutes=5)
    assert alice.blocks[0].user_id == "user_mfa"
    assert alice.blocks[0].until == dt.datetime(2026, 3, 2, 12, 15, tzinfo=dt.UTC)
    listing, one, advance, everyone = service.api_requests
    assert (listing.method, listing.url.path) == ("GET", "/_sandbox/trainees")
    assert (one.method, one.url.path, one.url.query) == (
        "POST",
        "/_sandbox/reset",
        b"trainee=alice",
    )
    # A name is one query value, whatever it holds.
    assert advance.url.query == b"trainee=team-3%20b%2F..%2Fx"
    assert request_json(advance) == {"seconds": 900}
    assert (everyone.url.path, everyone.url.query) == ("/_sandbox/reset", b"")
    for request in (listing, one, advance, everyone):
        assert request.headers["X-Sandbox-Control-Token"] == "control-token-0123456789"
        # The trainer's calls stand on the control token: no trainee's world is picked.
        assert "Authorization" not in request.headers


@pytest.mark.parametrize("name", ["", "   ", 7, None])
async def test_a_trainee_must_be_named(name: Any) -> None:
    service = control_service()
    async with make_client(service) as client:
        with pytest.raises(ValueError, match="trainee"):
            await client.sandbox.reset_trainee(name)
        with pytest.raises(ValueError, match="trainee"):
            await client.sandbox.advance_trainee_clock(name, 60)
    assert service.api_requests == []


@pytest.mark.parametrize(
    "body",
    [
        {"tenants": True, "now": NOW, "trainees": "everyone"},
        {**ROOM, "trainees": [{**ROOM["trainees"][0], "open_jobs": -1}]},
        {**ROOM, "trainees": [{**ROOM["trainees"][0], "clock": "noon"}]},
        {**ROOM, "trainees": [ROOM["trainees"][0]] * 10_001},
    ],
    ids=["not-a-list", "negative", "bad-time", "too-many"],
)
async def test_an_odd_room_is_malformed(body: dict) -> None:
    async with make_client(control_service(trainees=(200, body))) as client:
        with pytest.raises(MalformedResponseError):
            await client.sandbox.trainees()


async def test_an_unknown_trainee_is_the_sandbox_code() -> None:
    clock = FrozenClock(dt.datetime(2026, 3, 2, 12, 0, tzinfo=dt.UTC))
    app = create_app(clock=clock, tenants=True, control_token="control-token-0123456789")
    from accountdesk.client import AccountDataClient

    async with AccountDataClient(
        "http://sandbox", "trainee_alice", "sandbox_secret", transport=httpx.ASGITransport(app)
    ) as client:
        control = client.sandbox_control("control-token-0123456789")
        await control.clock()  # alice is seen
        room = await control.trainees()
        assert [trainee.name for trainee in room.trainees] == ["alice"]
        with pytest.raises(ApiError) as caught:
            await control.reset_trainee("bob")
        assert (caught.value.code, caught.value.status) == ("AC-924", 404)
        moved = await control.advance_trainee_clock("alice", 60)
        assert moved == dt.datetime(2026, 3, 2, 12, 1, tzinfo=dt.UTC)
        await control.reset_room()
        assert await control.clock() == dt.datetime(2026, 3, 2, 12, 0, tzinfo=dt.UTC)
        without = client.sandbox_control(None)
        with pytest.raises(ApiError) as refused:
            await without.trainees()
        assert refused.value.code == "AC-903"
