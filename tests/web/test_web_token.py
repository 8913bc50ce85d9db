"""Web mode's token: nothing for a request without it, with a wrong one, or with a forged Origin.

Every local process can reach 127.0.0.1 and forge any header, so ``Origin``
and ``Host`` checks keep out web pages only. The page, its scripts and its
websocket need the token of this run: given once in the address ``serve``
prints (``/?token=...``), then held in a cookie (HttpOnly, SameSite=Strict)
while the address bar is redirected to the clean URL.
"""

from __future__ import annotations

import asyncio
import signal
import socket
import subprocess
import sys
from pathlib import Path

import aiohttp
import pytest
from web_helpers import TOKEN, first_report, isolated_environment, serving, sign_in, signed_in

from accountdesk.web.options import TOKEN_VARIABLE, ServeOptions

pytestmark = [pytest.mark.anyio, pytest.mark.loopback]


def _ws_url(base: str) -> str:
    return base.replace("http://", "ws://") + "/ws?width=100&height=30"


def _session() -> aiohttp.ClientSession:
    return aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))


async def _nothing_served(http: aiohttp.ClientSession, base: str, **request: object) -> None:
    """No page, no script, no websocket for this client (403 each)."""
    for path in ("/", "/?fontsize=20", "/static/js/textual.js"):
        async with http.get(base + path, allow_redirects=False, **request) as answer:  # type: ignore[arg-type]
            text = await answer.text()
            assert answer.status == 403, (path, answer.status)
            assert "textual-terminal" not in text and "Set-Cookie" not in answer.headers
            assert TOKEN not in text
    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
        await http.ws_connect(_ws_url(base), origin=base, **request)  # type: ignore[arg-type]
    assert refused.value.status == 403


async def test_without_the_token_nothing_is_served() -> None:
    async with serving() as (server, base), _session() as http:
        await _nothing_served(http, base)
        assert not server.sessions


@pytest.mark.parametrize(
    "wrong",
    ["wrong-token", TOKEN[:-1], TOKEN + "x", TOKEN.upper(), "", "%C3%A9t%C3%A9", "%00"],
    ids=["other", "short", "long", "case", "empty", "non-ascii", "nul"],
)
async def test_a_wrong_token_gets_nothing(wrong: str) -> None:
    async with serving() as (server, base), _session() as http:
        async with http.get(f"{base}/?token={wrong}", allow_redirects=False) as answer:
            assert answer.status == 403 and "Set-Cookie" not in answer.headers
        # A cookie holding a wrong value is no better (a forged one, or an old run's).
        http.cookie_jar.update_cookies({f"accountdesk-token-{base.rsplit(':', 1)[1]}": wrong})
        await _nothing_served(http, base)
        assert not server.sessions


async def test_a_forged_origin_gets_nothing() -> None:
    # A local process can send the Origin and Host a browser would; without the token: nothing.
    async with serving() as (server, base), _session() as http:
        await _nothing_served(http, base, headers={"Origin": base})
        assert not server.sessions
    # With the token but another site's Origin: still no websocket (a page elsewhere).
    async with serving() as (server, base), signed_in(base) as http:
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await http.ws_connect(_ws_url(base), origin="http://evil.example")
        assert refused.value.status == 403 and not server.sessions


async def test_the_right_token_sets_a_strict_cookie_and_leaves_the_address_bar() -> None:
    async with serving() as (server, base), _session() as http:
        async with http.get(f"{base}/?fontsize=22&token={TOKEN}", allow_redirects=False) as answer:
            assert answer.status == 303
            assert answer.headers["Location"] == "/?fontsize=22"  # the token left the URL
            assert answer.headers["Cache-Control"] == "no-store"
            cookie = answer.headers["Set-Cookie"]
        port = base.rsplit(":", 1)[1]
        assert cookie.startswith(f"accountdesk-token-{port}={TOKEN};")
        attributes = {part.strip().lower() for part in cookie.split(";")[1:]}
        assert {"httponly", "samesite=strict", "path=/"} <= attributes
        assert not any(part.startswith(("domain", "expires", "max-age")) for part in attributes)
        async with http.get(f"{base}/?fontsize=22") as page:
            assert page.status == 200 and 'data-font-size="22"' in await page.text()
            assert TOKEN not in await page.text()
        async with http.get(base + "/static/js/textual.js") as script:
            assert script.status == 200
        ws = await http.ws_connect(_ws_url(base), origin=base)
        await first_report(ws)
        assert len(server.sessions) == 1
        await ws.close()


async def test_a_token_of_another_run_gets_nothing() -> None:
    async with serving(options=ServeOptions(token="another-run-token-0123456789")) as (_, base):
        async with (
            _session() as http,
            http.get(f"{base}/?token={TOKEN}", allow_redirects=False) as answer,
        ):
            assert answer.status == 403
        async with _session() as http:
            await sign_in(http, base, "another-run-token-0123456789")
            async with http.get(base + "/") as page:
                assert page.status == 200


def test_each_run_makes_its_own_token() -> None:
    from accountdesk.web.server import DashboardServer

    first, second = DashboardServer(ServeOptions()), DashboardServer(ServeOptions())
    assert len(first.token) >= 40 and first.token != second.token
    assert first.token not in repr(ServeOptions(token=first.token))


@pytest.mark.slow
def test_the_token_is_printed_once_and_never_logged(tmp_path: Path) -> None:
    # The real command, debug logging on: the token is in the address it
    # prints and nowhere else, whatever is asked with it (no access log).
    config = tmp_path / "config.toml"
    config.write_text("")
    environment = isolated_environment(tmp_path)
    environment[TOKEN_VARIABLE] = "operator-chosen-token-0123456789"
    port = _free_port()
    command = [sys.executable, "-m", "accountdesk", "--config", str(config), "--log-level", "debug"]
    process = subprocess.Popen(
        [*command, "serve", "--port", str(port)],
        env=environment,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    lines: list[str] = []
    try:
        assert process.stderr is not None
        for line in process.stderr:
            lines.append(line)
            if "serving the dashboard" in line:
                break
        url = lines[-1].split(" at ", 1)[1].split(" ", 1)[0]
        token = environment[TOKEN_VARIABLE]
        assert url == f"http://127.0.0.1:{port}/?token={token}"
        asyncio.run(_ask_with_and_without(url, token))
    finally:
        process.send_signal(signal.SIGINT)
        _, rest = process.communicate(timeout=30)
    text = "".join(lines) + rest
    assert process.returncode == 0, text
    assert text.count(token) == 1, text  # the printed address, once
    assert "wrong-token-0123456789" not in text
    assert "refused" in text and "GET /" not in text  # refusals logged; no access log


async def _ask_with_and_without(url: str, token: str) -> None:
    base = url.split("/?", 1)[0]
    async with _session() as http:
        async with http.get(f"{base}/?token=wrong-token-0123456789") as answer:
            assert answer.status == 403
        async with http.get(base + "/") as answer:
            assert answer.status == 403
        async with http.get(url) as answer:  # redirected, cookie set: the page
            assert answer.status == 200 and str(answer.url) == base + "/"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])
