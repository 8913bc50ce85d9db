"""Fixtures for the sandbox tests: a frozen clock, an engine, an app and a client."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest
from sandbox_helpers import BASE_URL, GOOD, START
from starlette.applications import Starlette

from accountdesk.sandbox import FrozenClock, create_app
from accountdesk.sandbox.engine import SandboxEngine
from accountdesk.sandbox.wire.embedded import EmbeddedTransport


@pytest.fixture
def clock() -> FrozenClock:
    return FrozenClock(START)


@pytest.fixture
def engine(clock: FrozenClock) -> SandboxEngine:
    return SandboxEngine(clock, ids=7)


@pytest.fixture
def token(engine: SandboxEngine) -> str:
    return engine.issue_token(*GOOD)["access_token"]


@pytest.fixture
def app(clock: FrozenClock) -> Starlette:
    return create_app(clock=clock, ids=7)


@pytest.fixture(params=["asgi", "embedded"])
async def http(app: Starlette, request: pytest.FixtureRequest) -> AsyncIterator[httpx.AsyncClient]:
    """A client on ``app``: in the caller's loop (ASGITransport) or on its own thread.

    Every API test runs through both: the embedded transport must answer
    exactly as ASGITransport does.
    """
    transport: httpx.AsyncBaseTransport = (
        httpx.ASGITransport(app) if request.param == "asgi" else EmbeddedTransport(app)
    )
    async with httpx.AsyncClient(transport=transport, base_url=BASE_URL) as client:
        yield client
