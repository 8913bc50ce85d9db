"""End to end over a real socket: uvicorn on an ephemeral 127.0.0.1 port.

Everything else talks to the sandbox in-process; these tests prove the same
client works over TCP, including against peers that misbehave: one that drops
the connection and one that answers HTML like a broken proxy. Raw request
targets (``http.client`` sends them as given, like ``curl --path-as-is``)
check that uvicorn's ``raw_path`` keeps every id in its segment.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import socket
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
import uvicorn

from accountdesk.client import (
    AccountDataClient,
    ApiError,
    InvalidRequestError,
    MalformedResponseError,
    TransportError,
)
from accountdesk.sandbox import FrozenClock, create_app

pytestmark = pytest.mark.loopback
SECRET = "loopback-secret-42"


@pytest.fixture(scope="module")
def sandbox_server() -> Iterator[tuple[str, FrozenClock]]:
    clock = FrozenClock(datetime(2026, 11, 20, 9, 30, tzinfo=UTC))
    config = uvicorn.Config(
        create_app(clock=clock), host="127.0.0.1", port=0, log_level="warning", lifespan="off"
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.01)
    port = server.servers[0].sockets[0].getsockname()[1]
    yield f"http://127.0.0.1:{port}", clock
    server.should_exit = True
    thread.join(timeout=10)


@pytest.mark.anyio
async def test_full_flow_over_tcp(sandbox_server: tuple[str, FrozenClock]) -> None:
    base_url, clock = sandbox_server
    async with AccountDataClient(base_url, "sandbox_key", "sandbox_secret") as client:
        account = await client.get_account("user_good")
        assert account.user_id == "user_good"
        balance = await client.get_balance("user_good")
        assert balance.currency

        job = await client.refresh_balance("user_good")
        assert job.status in {"pending", "in_progress"}
        clock.advance(5)
        assert (await client.get_job("user_good", job.job_id)).status == "completed"

        mfa_job = await client.refresh_balance("user_mfa")
        assert mfa_job.needs_mfa and mfa_job.mfa is not None
        await client.submit_mfa("user_mfa", mfa_job.job_id, "1234")
        resumed = await client.resolve_mfa("user_mfa", mfa_job.job_id)
        assert resumed.status == "in_progress"

        # An encoded slash stays inside its segment over real HTTP too.
        with pytest.raises(ApiError) as raised:
            await client.get_balance("../user_good")
        assert (raised.value.status, raised.value.code) == (400, "AC-100")

        # Hostile ids are each one (invalid) id over real HTTP too.
        for hostile in ("a\x00b", "a\r\nHost: evil", "ü", "a" * 65, "%252F", "a?b", "a#b"):
            with pytest.raises(InvalidRequestError):
                await client.get_job(hostile, hostile)

        with pytest.raises(ApiError) as conflict:
            await client.start_identity("user_good")
            await client.start_identity("user_good")
        assert (conflict.value.status, conflict.value.code) == (409, "AC-112")


def _call(
    base_url: str, method: str, target: str, body: dict | None = None, token: str | None = None
) -> tuple[int, dict]:
    connection = http.client.HTTPConnection(base_url.removeprefix("http://"), timeout=10)
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    payload = None if body is None else json.dumps(body)
    connection.request(method, target, body=payload, headers=headers)
    response = connection.getresponse()
    answer = json.loads(response.read())
    connection.close()
    return response.status, answer


@pytest.mark.parametrize(
    ("target", "status", "code"),
    [
        ("/accounts/user_good/balance?x=%2F", 200, None),
        ("/accounts/../balance", 400, "AC-100"),
        ("/accounts/%2E%2E/balance", 400, "AC-100"),
        ("/accounts/..%2Fuser_good/balance", 400, "AC-100"),
        ("/accounts/user_good%2Fbalance", 400, "AC-100"),
        ("/accounts/user_good%3Fx=1", 400, "AC-100"),
        ("/accounts/user_good%00", 400, "AC-100"),
        ("/accounts//balance", 400, "AC-100"),
        ("/accounts%2Fuser_good", 404, "AC-904"),
        ("/accounts/user_good/balance%0A", 404, "AC-904"),
        ("/accounts/user_good/job/..%2F..%2Ftoken", 404, "AC-109"),
    ],
)
def test_raw_targets_over_tcp(
    sandbox_server: tuple[str, FrozenClock], target: str, status: int, code: str | None
) -> None:
    base_url, _clock = sandbox_server
    credentials = {"api_key": "sandbox_key", "api_secret": "sandbox_secret"}
    _, grant = _call(base_url, "POST", "/token", credentials)
    answer_status, body = _call(base_url, "GET", target, token=grant["access_token"])
    assert answer_status == status, body
    if code is None:
        assert body["user_id"] == "user_good"
    else:
        assert set(body) == {"error"} and body["error"]["code"] == code


def _serve_once(handler) -> tuple[str, threading.Thread]:
    """A one-connection-at-a-time TCP peer on an ephemeral port."""
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(10)
    port = listener.getsockname()[1]

    def run() -> None:
        with listener:
            for _ in range(5):  # the client may retry; serve each attempt the same way
                try:
                    connection, _ = listener.accept()
                except TimeoutError:
                    return
                with connection:
                    handler(connection)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return f"http://127.0.0.1:{port}", thread


def _drop(connection: socket.socket) -> None:
    connection.recv(65536)
    connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")


def _html(connection: socket.socket) -> None:
    connection.recv(65536)
    body = b"<html><body><h1>502 Bad Gateway</h1>[/x] secret</body></html>"
    connection.sendall(
        b"HTTP/1.1 502 Bad Gateway\r\nContent-Type: text/html\r\nConnection: close\r\n"
        + f"Content-Length: {len(body)}\r\n\r\n".encode()
        + body
    )


@pytest.mark.anyio
async def test_dropped_connection_is_a_transport_error_without_a_code() -> None:
    base_url, _thread = _serve_once(_drop)
    async with AccountDataClient(base_url, "k", SECRET, sleep=_no_sleep) as client:
        with pytest.raises(TransportError) as raised:
            await client.sign_in()
    error = raised.value
    assert not isinstance(error, ApiError)
    assert "AC-" not in str(error)
    assert SECRET not in f"{error} {error!r} {error.detail}"


@pytest.mark.anyio
async def test_html_from_a_proxy_is_a_malformed_response() -> None:
    base_url, _thread = _serve_once(_html)
    async with AccountDataClient(base_url, "k", SECRET, sleep=_no_sleep) as client:
        with pytest.raises(MalformedResponseError) as raised:
            await client.sign_in()
    assert raised.value.status == 502
    assert "AC-" not in str(raised.value)


async def _no_sleep(_seconds: float) -> None:
    await asyncio.sleep(0)
