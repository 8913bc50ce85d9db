"""The served sandbox under idle, slow and too many clients, over a real loopback socket.

Served exactly as ``accountdesk sandbox`` serves it (``server_options``), with
a short request time-out so the tests are quick. Half a request, a request
dripped a byte at a time, or half a request after an answer: each
connection is closed once the time-out passes, while other clients are
answered meanwhile; a connection beyond the cap is answered 503 ``AC-953``.
Waits here are bounds on waiting, not measures of speed.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator, Iterator

import httpx
import pytest
from sandbox_helpers import START, bearer

from accountdesk.sandbox import FrozenClock, create_app
from accountdesk.sandbox.wire.serving import GuardedH11Protocol, server_options
from loopback_server import serve_app

pytestmark = [pytest.mark.anyio, pytest.mark.loopback]

TIMEOUT = 0.5
#: How long a test waits for a connection to be closed (many times the time-out).
BOUND = 15.0
HALF_REQUEST = b"GET /accounts/user_good HTTP/1.1\r\nHost: sandbox\r\n"


@contextlib.contextmanager
def sandbox(*, max_connections: int = 100) -> Iterator[tuple[str, int]]:
    app = create_app(clock=FrozenClock(START), ids=1)
    options = server_options(
        "127.0.0.1", 0, request_timeout=TIMEOUT, max_connections=max_connections
    )
    with serve_app(app, **options) as url:
        yield url, int(url.rsplit(":", 1)[1])


@contextlib.asynccontextmanager
async def connection(port: int) -> AsyncIterator[tuple[asyncio.StreamReader, asyncio.StreamWriter]]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        yield reader, writer
    finally:
        writer.close()
        with contextlib.suppress(OSError):
            await writer.wait_closed()


async def closed_by_server(reader: asyncio.StreamReader) -> bytes:
    """Everything the server sent until it closed the connection (bounded wait)."""
    async with asyncio.timeout(BOUND):
        return await reader.read()


class SandboxLog(logging.Handler):
    """The sandbox logger's lines (attached to it: the app's log file may stop propagation)."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


@pytest.fixture
def sandbox_log() -> Iterator[SandboxLog]:
    logger = logging.getLogger("accountdesk.sandbox")
    handler, level = SandboxLog(), logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    try:
        yield handler
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)


async def test_half_requests_are_closed_while_other_clients_are_answered(
    sandbox_log: SandboxLog,
) -> None:
    with sandbox() as (url, port):
        async with contextlib.AsyncExitStack() as stack:
            idle = [await stack.enter_async_context(connection(port)) for _ in range(50)]
            for _, writer in idle:
                writer.write(HALF_REQUEST)
                await writer.drain()
            async with httpx.AsyncClient(base_url=url) as http:
                headers = await bearer(http)
                answer = await http.get("/accounts/user_good", headers=headers)
                assert answer.status_code == 200
            sent = await asyncio.gather(*(closed_by_server(reader) for reader, _ in idle))
        assert sent == [b""] * 50  # closed without an answer: no request came
    # Said in one line, not fifty (a flood must not flood the log).
    closed = [line for line in sandbox_log.lines if "no whole request" in line]
    assert closed == [
        "closed 1 connection(s) since the last such line: no whole request within 0.5 s"
    ]


async def test_a_request_dripped_a_byte_at_a_time_is_closed() -> None:
    # Bytes arriving do not restart the clock: this would take 8 s to send.
    request = HALF_REQUEST + b"X-Padding: " + b"x" * 80 + b"\r\n\r\n"
    with sandbox() as (_, port):
        async with connection(port) as (reader, writer):

            async def drip() -> int:
                for sent, byte in enumerate(request):
                    if writer.is_closing() or reader.at_eof():
                        return sent
                    try:
                        writer.write(bytes([byte]))
                        await writer.drain()
                    except ConnectionError:
                        return sent
                    await asyncio.sleep(0.05)
                return len(request)

            dripping = asyncio.create_task(drip())
            assert await closed_by_server(reader) == b""
            dripping.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await dripping


async def test_half_a_request_after_an_answer_is_closed_too() -> None:
    with sandbox() as (_, port):
        async with connection(port) as (reader, writer):
            writer.write(b"GET /openapi.json HTTP/1.1\r\nHost: sandbox\r\n\r\n")
            await writer.drain()
            head = await reader.readuntil(b"\r\n\r\n")
            assert head.startswith(b"HTTP/1.1 200 ")
            length = next(
                int(line.split(b":")[1])
                for line in head.lower().split(b"\r\n")
                if line.startswith(b"content-length:")
            )
            await reader.readexactly(length)
            writer.write(HALF_REQUEST)  # the next request on the kept-alive connection
            await writer.drain()
            assert await closed_by_server(reader) == b""


async def test_a_connection_beyond_the_cap_is_answered_503_and_the_room_recovers() -> None:
    with sandbox(max_connections=3) as (url, port):
        async with contextlib.AsyncExitStack() as stack:
            held = [await stack.enter_async_context(connection(port)) for _ in range(3)]
            async with connection(port) as (reader, _):
                refused = await closed_by_server(reader)
            head, _, body = refused.partition(b"\r\n\r\n")
            assert head.startswith(b"HTTP/1.1 503 ")
            assert b"connection: close" in head.lower()
            assert json.loads(body)["error"]["code"] == "AC-953"
            # The held ones sent nothing: closed at the time-out, and room is made.
            for reader, _ in held:
                assert await closed_by_server(reader) == b""
        async with httpx.AsyncClient(base_url=url) as http:
            assert (await http.get("/_sandbox/clock")).status_code == 200


def test_accountdesk_sandbox_serves_with_the_bounds() -> None:
    options = server_options("127.0.0.1", 8765, request_timeout=7.0, max_connections=9)
    protocol = options["http"]
    assert issubclass(protocol, GuardedH11Protocol)
    assert (protocol.request_timeout, protocol.max_connections) == (7.0, 9)
    assert options["timeout_keep_alive"] == 5
    assert options["h11_max_incomplete_event_size"] == 16 * 1024
    with pytest.raises(ValueError):
        server_options("127.0.0.1", 8765, request_timeout=0)
    with pytest.raises(ValueError):
        server_options("127.0.0.1", 8765, max_connections=0)
