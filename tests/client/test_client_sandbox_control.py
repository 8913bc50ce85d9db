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
