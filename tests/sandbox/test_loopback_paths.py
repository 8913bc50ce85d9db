"""Raw paths through a real uvicorn: its ``raw_path`` is what the routing trusts.

``http.client`` sends the request target exactly as given (no dot-segment
folding, no re-encoding), like ``curl --path-as-is``.
"""

from __future__ import annotations

import http.client
import json
import threading
import time
from collections.abc import Iterator

import pytest
import uvicorn
from sandbox_helpers import GOOD, START

from accountdesk.sandbox import FrozenClock, create_app

pytestmark = pytest.mark.loopback


@pytest.fixture(scope="module")
def port() -> Iterator[int]:
    config = uvicorn.Config(
        create_app(clock=FrozenClock(START)), host="127.0.0.1", port=0, log_level="warning", lifespan="off"
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.01)
    yield server.servers[0].sockets[0].getsockname()[1]
    server.should_exit = True
    thread.join(timeout=10)


def _call(
    port: int, method: str, target: str, body: dict | None = None, token: str | None = None
) -> tuple[int, dict]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    payload = None if body is None else json.dumps(body)
    connection.request(method, target, body=payload, headers=headers)
    response = connection.getresponse()
    payload = json.loads(response.read())
    connection.close()
    return response.status, payload


@pytest.mark.parametrize(
    ("target", "status", "code"),
    [
        ("/accounts/../balance", 400, "AC-100"),
        ("/accounts/%2E%2E/balance", 400, "AC-100"),
        ("/accounts/..%2Fuser_good/balance", 400, "AC-100"),
        ("/accounts/user_good%2Fbalance", 400, "AC-100"),
        ("/accounts/user_good%3Fx=1", 400, "AC-100"),
        ("/accounts//balance", 400, "AC-100"),
        ("/accounts%2Fuser_good", 404, "AC-904"),
        ("/accounts/user_good/job/..%2F..%2Ftoken", 404, "AC-109"),
    ],
)
def test_raw_targets_over_tcp(port: int, target: str, status: int, code: str) -> None:
    _, grant = _call(port, "POST", "/token", {"api_key": GOOD[0], "api_secret": GOOD[1]})
    answer_status, body = _call(port, "GET", target, token=grant["access_token"])
    assert (answer_status, body["error"]["code"]) == (status, code), body


def test_plain_read_over_tcp(port: int) -> None:
    _, grant = _call(port, "POST", "/token", {"api_key": GOOD[0], "api_secret": GOOD[1]})
    status, body = _call(port, "GET", "/accounts/user_good/balance?x=%2F", token=grant["access_token"])
    assert status == 200 and body["user_id"] == "user_good"
