"""Fakes for client tests: a scripted service on httpx.MockTransport, a sleep recorder."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

import httpx

from accountdesk.client import AccountDataClient

BASE_URL = "http://service.test"
API_KEY = "test_key_0001"
API_SECRET = "s3cr3t-Value-never-logged"
TOKEN = "tok-abcdef-0123456789"

Handler = Callable[[httpx.Request], "httpx.Response | Awaitable[httpx.Response]"]


def envelope(code: str, message: str) -> dict[str, Any]:
    return {"error": {"code": code, "message": message}}


def job_body(job_id: str = "job_1", status: str = "pending", **extra: Any) -> dict[str, Any]:
    return {
        "job_id": job_id,
        "user_id": "user_good",
        "kind": "balance_refresh",
        "status": status,
        **extra,
    }


class SleepRecorder:
    """Stands in for asyncio.sleep: records delays, advances a fake clock, returns at once."""

    def __init__(self, clock: FakeMonotonic | None = None) -> None:
        self.delays: list[float] = []
        self.clock = clock

    async def __call__(self, delay: float) -> None:
        self.delays.append(delay)
        if self.clock is not None:
            self.clock.now += delay


class FakeMonotonic:
    def __init__(self, start: float = 1000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now


class FakeService:
    """Answers POST /token with numbered tokens and routes the rest to ``api``.

    Records every request; ``token_requests`` counts token calls.
    """

    def __init__(
        self,
        api: Handler | None = None,
        *,
        expires_in: float | None = 3600,
        token_handler: Handler | None = None,
    ) -> None:
        self.api = api or (lambda request: httpx.Response(200, json={"user_id": "user_good"}))
        self.expires_in = expires_in
        self.token_handler = token_handler
        self.requests: list[httpx.Request] = []
        self.token_requests = 0

    @property
    def current_token(self) -> str:
        return f"{TOKEN}-{self.token_requests}"

    @property
    def api_requests(self) -> list[httpx.Request]:
        return [request for request in self.requests if not request.url.path.endswith("/token")]

    async def __call__(self, request: httpx.Request) -> httpx.Response:
        # A copy: the auth flow edits the same Request object when it replays.
        self.requests.append(
            httpx.Request(
                request.method, request.url, headers=request.headers.copy(), content=request.content
            )
        )
        if request.url.path.endswith("/token"):
            self.token_requests += 1
            if self.token_handler is not None:
                return await _maybe_await(self.token_handler(request))
            grant: dict[str, Any] = {"access_token": self.current_token, "token_type": "Bearer"}
            if self.expires_in is not None:
                grant["expires_in"] = self.expires_in
            return httpx.Response(200, json=grant)
        return await _maybe_await(self.api(request))

    def transport(self) -> httpx.MockTransport:
        return httpx.MockTransport(self)


async def _maybe_await(value: Any) -> httpx.Response:
    if isinstance(value, Awaitable):
        return await value
    return value


def request_json(request: httpx.Request) -> Any:
    return json.loads(request.content)


def make_client(service: Any, sleep: Any = None, **options: Any) -> AccountDataClient:
    """A client on ``service`` (a FakeService or any MockTransport handler)."""
    if isinstance(service, FakeService):
        transport = service.transport()
    else:
        transport = httpx.MockTransport(service)
    return AccountDataClient(
        BASE_URL,
        API_KEY,
        API_SECRET,
        transport=transport,
        sleep=sleep or SleepRecorder(),
        **options,
    )
