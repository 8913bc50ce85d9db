"""No secret or token in a traceback rendered with locals, as Textual renders a crash.

Textual draws an unhandled exception with ``rich.traceback.Traceback(
show_locals=True, width=None, locals_max_length=5)``: every frame's local
variables, containers included. An unexpected failure anywhere inside the
client must therefore find no frame holding the API secret or the token as
plain text. The console is wide so a leaked value is never split by wrapping.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from io import StringIO
from typing import Any

import httpx
import pytest
from client_fakes import API_SECRET, TOKEN, FakeService, make_client
from rich.console import Console
from rich.traceback import Traceback

from accountdesk.client import AccountDataError

pytestmark = pytest.mark.anyio


class Exploded(RuntimeError):
    """Stands for a bug: anything the client does not expect."""


def _render_current_exception() -> str:
    console = Console(file=StringIO(), width=1000, color_system=None)
    console.print(Traceback(show_locals=True, width=None, locals_max_length=5))
    output = console.file.getvalue()  # type: ignore[attr-defined]
    assert "Exploded" in output or "Error" in output
    assert "locals" in output or "│" in output  # locals were drawn
    return output


async def _crash(client: Any, call: str) -> str:
    try:
        if call == "sign_in":
            await client.sign_in()
        else:
            await client.get_account("user_good")
    except (Exploded, AccountDataError):
        logging.getLogger("test").exception("call crashed")
        return _render_current_exception()
    raise AssertionError("the call did not fail")


def _assert_clean(text: str, service: FakeService) -> None:
    assert API_SECRET not in text
    for number in range(1, service.token_requests + 2):
        assert f"{TOKEN}-{number}" not in text
    assert TOKEN not in text


def _explode(request: httpx.Request) -> httpx.Response:
    raise Exploded("the transport broke")


class _BrokenStream(httpx.AsyncByteStream):
    """A body that starts and then breaks: the failure happens while reading it."""

    def __init__(self, first: bytes) -> None:
        self.first = first

    async def __aiter__(self) -> AsyncIterator[bytes]:
        yield self.first
        raise Exploded("the body broke")


async def test_crash_inside_the_token_request(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    service = FakeService(token_handler=_explode)
    async with make_client(service) as client:
        rendered = await _crash(client, "sign_in")
    assert "_fetch_token" in rendered  # the client's frames were drawn, with locals
    _assert_clean(rendered + caplog.text, service)


async def test_crash_while_reading_the_token_answer(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    service = FakeService()

    def half_a_grant(request: httpx.Request) -> httpx.Response:
        service.token_requests += 1
        body = f'{{"access_token": "{service.current_token}", '.encode()
        return httpx.Response(200, stream=_BrokenStream(body))

    service.token_handler = half_a_grant
    async with make_client(service) as client:
        rendered = await _crash(client, "sign_in")
    _assert_clean(rendered + caplog.text, service)


async def test_crash_while_parsing_the_token_answer(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    from accountdesk.client.models import TokenGrant

    def broken(cls: type, json_data: bytes, **options: Any) -> Any:
        raise Exploded("the parser broke")  # json_data: the token answer, in this frame

    monkeypatch.setattr(TokenGrant, "model_validate_json", classmethod(broken))
    caplog.set_level(logging.DEBUG)
    service = FakeService()
    async with make_client(service) as client:
        rendered = await _crash(client, "get_account")
    _assert_clean(rendered + caplog.text, service)


async def test_crash_inside_an_authenticated_request(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    service = FakeService(_explode)
    async with make_client(service) as client:
        await client.sign_in()
        rendered = await _crash(client, "get_account")
    assert service.token_requests == 1
    _assert_clean(rendered + caplog.text, service)


async def test_crash_while_reading_an_authenticated_answer(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)

    def echo_then_break(request: httpx.Request) -> httpx.Response:
        echoed = request.headers["Authorization"].encode()
        return httpx.Response(200, stream=_BrokenStream(b'{"user_id": "' + echoed))

    service = FakeService(echo_then_break)
    async with make_client(service) as client:
        rendered = await _crash(client, "get_account")
    _assert_clean(rendered + caplog.text, service)


async def test_crash_during_a_replay_after_ac001(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    service = FakeService()

    def refuse_then_explode(request: httpx.Request) -> httpx.Response:
        if request.headers["Authorization"].endswith("-1"):
            return httpx.Response(403, json={"error": {"code": "AC-001", "message": "no"}})
        raise Exploded("the replay broke")

    service.api = refuse_then_explode
    async with make_client(service) as client:
        rendered = await _crash(client, "get_account")
    assert service.token_requests == 2
    _assert_clean(rendered + caplog.text, service)
