"""The app against `accountdesk sandbox` served over HTTP, and against a live service.

A trainer's sandbox reached by URL is still a sandbox: the app learns so
from ``/_sandbox/scenarios`` after sign-in (yellow badge, scenario list, the
sandbox's user-id rule). A live service answers 404 there: red badge, no
scenarios, and only the client's path-safety rule for user ids.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from textual.widgets import Input, OptionList
from tui_helpers import settle, sign_in, token_handler

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from accountdesk.sandbox import FrozenClock, create_app
from accountdesk.tui.screens.account import AccountScreen
from accountdesk.tui.screens.lookup import LookupScreen
from loopback_server import serve_app

pytestmark = [pytest.mark.anyio, pytest.mark.loopback]


@pytest.fixture
def sandbox_url(frozen_now: Any) -> Iterator[str]:
    with serve_app(create_app(clock=FrozenClock(frozen_now), ids=1)) as url:
        yield url


def badge(app: Any) -> str:
    return str(app.screen.query_one("#service-badge").render()).strip()


async def test_sign_in_typed_as_a_person_against_a_sandbox_over_http(make_app, sandbox_url) -> None:
    app = make_app(sandbox=False, base_url=sandbox_url, transport=None)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        host = sandbox_url.removeprefix("http://")
        await settle(pilot)  # asked, without credentials, right after the first frame
        assert badge(app) == f"SANDBOX {host}"
        await pilot.press(*"sandbox_key", "tab", *"sandbox_secret", "enter")
        await settle(pilot)
        assert isinstance(app.screen, LookupScreen)
        assert app.desk.is_sandbox and not app.desk.embedded
        assert badge(app) == f"SANDBOX {host}"
        scenarios = app.screen.query_one("#scenarios", OptionList)
        assert scenarios.option_count > 5
        field = app.screen.query_one("#user-id", Input)
        await pilot.press(*"user@bank")
        problem = str(app.screen.query_one("#user-id-problem").render())
        assert "'@' is not allowed" in problem  # the sandbox's own rule
        field.value = ""
        await pilot.press(*"user_good", "enter")
        await settle(pilot)
        assert isinstance(app.screen, AccountScreen)


def _live(request: httpx.Request) -> httpx.Response:
    if request.url.path.startswith("/_sandbox"):
        return httpx.Response(
            404, json={"error": {"code": "AC-904", "message": "No such endpoint"}}
        )
    return httpx.Response(200, json={"user_id": request.url.path.split("/")[2], "link_type": "fi"})


async def test_a_live_service_is_not_a_sandbox_and_accepts_its_own_ids(make_app) -> None:
    app = make_app(
        sandbox=False,
        base_url="https://api.bank.example",
        transport=httpx.MockTransport(token_handler(_live)),
    )
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await sign_in(pilot, api_key="live_key", api_secret="live_secret")
        assert isinstance(app.screen, LookupScreen)
        assert not app.desk.is_sandbox and badge(app) == "LIVE api.bank.example"
        assert not app.screen.query("#scenarios")
        app.screen.query_one("#user-id", Input).value = "user@bank.example"
        await pilot.pause()
        assert str(app.screen.query_one("#user-id-problem").render()).strip() == ""
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, AccountScreen)
        assert app.screen.user_id == "user@bank.example"
