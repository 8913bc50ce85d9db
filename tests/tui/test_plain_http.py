"""The badge says what the service is before sign-in, and plain HTTP is said and asked once."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import httpx
import pytest
from tui_helpers import FROZEN_NOW, screen_line, settle, sign_in, token_handler

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from accountdesk.sandbox import FrozenClock, create_app
from accountdesk.tui.screens.confirm import ConfirmDialog
from accountdesk.tui.screens.lookup import LookupScreen
from loopback_server import serve_app

pytestmark = pytest.mark.anyio
SIZE = (100, 30)


class Service:
    """A live service that answers 404 off its API, counting the secrets it was sent."""

    def __init__(self) -> None:
        self.token_requests = 0

    def __call__(self, request: httpx.Request) -> httpx.Response:
        if request.url.path == "/token":
            self.token_requests += 1
        return token_handler(self._rest)(request)

    @staticmethod
    def _rest(request: httpx.Request) -> httpx.Response:
        return httpx.Response(404, json={"error": {"code": "AC-904", "message": "No such"}})


def _live(make_app: Any, url: str, service: Service) -> Any:
    return make_app(
        sandbox=False,
        base_url=url,
        api_key="live_key",
        api_secret="live_secret",
        transport=httpx.MockTransport(service),
    )


async def test_plain_http_to_another_machine_is_said_and_asked_once(make_app: Any) -> None:
    service = Service()
    app = _live(make_app, "http://10.1.2.3:8080", service)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)  # the probe: a 404 where a sandbox lists its users
        assert "LIVE 10.1.2.3:8080 · not encrypted" in screen_line(app, 0)
        await app.screen.run_action("sign_in")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmDialog)
        assert "not encrypted" in " ".join(app.screen.detail.split())
        await pilot.press("n")
        await settle(pilot)
        assert service.token_requests == 0 and not app.desk.signed_in  # nothing was sent
        await app.screen.run_action("sign_in")
        await settle(pilot)
        await pilot.press("y")
        await settle(pilot)
        assert isinstance(app.screen, LookupScreen) and service.token_requests == 1
    again = _live(make_app, "http://10.1.2.3:8080", service)  # same data folder: next run
    async with again.run_test(size=SIZE, notifications=True) as pilot:
        await sign_in(pilot, api_key="live_key", api_secret="live_secret")
        assert isinstance(again.screen, LookupScreen)  # not asked a second time


@pytest.mark.parametrize("url", ["https://api.bank.example", "http://127.0.0.1:9000"])
async def test_encrypted_or_this_machine_asks_nothing(make_app: Any, url: str) -> None:
    service = Service()
    app = _live(make_app, url, service)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        assert "not encrypted" not in screen_line(app, 0)
        await sign_in(pilot, api_key="live_key", api_secret="live_secret")
        assert isinstance(app.screen, LookupScreen)


async def test_a_sandbox_over_http_is_sandbox_before_sign_in(make_app: Any) -> None:
    with serve_app(create_app(clock=FrozenClock(FROZEN_NOW))) as url:
        app = make_app(sandbox=False, base_url=url, transport=None)
        async with app.run_test(size=SIZE, notifications=True) as pilot:
            host = url.split("//", 1)[1]
            await settle(pilot)
            assert f"SANDBOX {host}" in screen_line(app, 0)
            assert app.screen.query_one("#service-badge").has_class("-sandbox")


async def test_until_the_service_answers_the_badge_is_neutral(make_app: Any) -> None:
    def refuse(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("connection refused", request=request)

    app = make_app(
        sandbox=False,
        base_url="https://api.bank.example",
        transport=httpx.MockTransport(refuse),
    )
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        badge = app.screen.query_one("#service-badge")
        assert "? api.bank.example" in screen_line(app, 0) and badge.has_class("-unknown")
        assert not badge.has_class("-live") and not badge.has_class("-sandbox")
