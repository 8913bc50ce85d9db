"""Helpers for the web-mode tests: a DashboardServer on a real loopback socket."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
import os
import sys
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import web

from accountdesk.web.options import ServeOptions
from accountdesk.web.server import DashboardServer

FAKE_DASHBOARD = str(Path(__file__).with_name("fake_dashboard.py"))
#: The token the test servers run with (unless a test gives its own).
TOKEN = "test-serve-token-0123456789abcdef"


def fake_argv(*extra: str) -> list[str]:
    return [sys.executable, FAKE_DASHBOARD, *extra]


@contextlib.asynccontextmanager
async def serving(
    argv: Sequence[str] | None = None,
    *,
    options: ServeOptions | None = None,
    data_root: Path | None = None,
    quit_grace: float = 5.0,
) -> AsyncIterator[tuple[DashboardServer, str]]:
    """A server on 127.0.0.1 (a free port), and its base URL; shut down on exit.

    Its token is :data:`TOKEN` unless ``options`` give one.
    """
    options = options or ServeOptions()
    if options.token is None:
        options = dataclasses.replace(options, token=TOKEN)
    server = DashboardServer(
        options,
        argv=fake_argv() if argv is None else argv,
        data_root=data_root,
        quit_grace=quit_grace,
    )
    runner = web.AppRunner(server.application())
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    host, port = runner.addresses[0][:2]
    try:
        yield server, f"http://{host}:{port}"
    finally:
        await runner.cleanup()


@contextlib.asynccontextmanager
async def signed_in(base: str, token: str = TOKEN) -> AsyncIterator[aiohttp.ClientSession]:
    """A client that opened the address ``serve`` prints (``?token=``): it holds the cookie.

    As a browser does: the answer is a redirect to the clean address, with the
    cookie (an IP address's cookies are kept only by an ``unsafe`` jar).
    """
    http = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
    try:
        await sign_in(http, base, token)
        yield http
    finally:
        await http.close()


async def sign_in(http: aiohttp.ClientSession, base: str, token: str = TOKEN) -> None:
    """Open ``base/?token=``: the server answers 303 to ``/`` and sets its cookie in ``http``."""
    async with http.get(f"{base}/?token={token}", allow_redirects=False) as answer:
        assert answer.status == 303, answer.status


async def first_report(ws: aiohttp.ClientWebSocketResponse) -> dict[str, Any]:
    """What the fake dashboard says it was started with."""
    message = await ws.receive(timeout=20)
    assert message.type == aiohttp.WSMsgType.BINARY, message
    report: dict[str, Any] = json.loads(message.data)
    return report


async def next_echo(ws: aiohttp.ClientWebSocketResponse, key: str) -> Any:
    """The next packet the fake echoed back under ``key`` ("meta" or "stdin")."""
    while True:
        message = await ws.receive(timeout=20)
        assert message.type == aiohttp.WSMsgType.BINARY, message
        data = json.loads(message.data)
        if key in data:
            return data[key]


class LogLines(logging.Handler):
    """The records of one logger, as the server's console would print them.

    Attached to the logger itself: the app's file logging (set up by other
    tests in the same worker) stops ``accountdesk`` records reaching the root,
    where pytest's caplog listens.
    """

    def __init__(self, name: str) -> None:
        super().__init__(logging.INFO)
        self.lines: list[str] = []
        self._logger = logging.getLogger(name)
        self._level = self._logger.level
        self._logger.setLevel(logging.INFO)
        self._logger.addHandler(self)

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())

    @property
    def text(self) -> str:
        return "\n".join(self.lines)

    def close(self) -> None:
        self._logger.removeHandler(self)
        self._logger.setLevel(self._level)
        super().close()


async def closed(ws: aiohttp.ClientWebSocketResponse, within: float = 30.0) -> bool:
    """True once the server closed ``ws`` (anything the fake still said is skipped).

    One deadline for the whole wait: a receive's own timeout starts again at
    each heartbeat ping the server sends (every 15 s), so a tab the server
    never closes waited forever (one CI run hung here).
    """
    async with asyncio.timeout(within):
        while True:
            message = await ws.receive()
            if message.type in {aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED}:
                return True


async def until(condition: Callable[[], bool], within: float = 20.0) -> None:
    """Wait for ``condition`` (a bound on waiting, not a measure of speed)."""
    async with asyncio.timeout(within):
        while not condition():
            await asyncio.sleep(0.02)


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def isolate_user_dirs(monkeypatch: Any, root: Path) -> None:
    """Dashboards started from this test keep off the real config, data, log and keyring."""
    for variable in ("HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME"):
        monkeypatch.setenv(variable, str(root / variable.lower()))
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyring.backends.fail.Keyring")
    for name in ("BASE_URL", "API_KEY", "API_SECRET", "PROFILE", "DATA_DIR"):
        monkeypatch.delenv(f"ACCOUNTDESK_{name}", raising=False)


def isolated_environment(root: Path) -> dict[str, str]:
    """The same, as an environment for a subprocess."""
    environment = {
        name: value for name, value in os.environ.items() if not name.startswith("ACCOUNTDESK_")
    }
    for variable in ("HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME"):
        environment[variable] = str(root / variable.lower())
    environment["PYTHON_KEYRING_BACKEND"] = "keyring.backends.fail.Keyring"
    return environment
