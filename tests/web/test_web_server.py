"""The web-mode server on a real loopback socket, with a fake dashboard behind each tab.

Each websocket must be its own process with its own data folder (sandbox),
never inherit a live credential on the sandbox, end when the tab goes (killed
when it does not quit), and be refused when another site opens it.
"""

from __future__ import annotations

import asyncio
import os
import re
import sys
from pathlib import Path

import aiohttp
import pytest
from web_helpers import (
    TOKEN,
    LogLines,
    alive,
    closed,
    fake_argv,
    first_report,
    isolate_user_dirs,
    next_echo,
    serving,
    sign_in,
    signed_in,
    until,
)

from accountdesk.web.options import ServeOptions
from accountdesk.web.server import DashboardServer

pytestmark = [pytest.mark.anyio, pytest.mark.loopback]


def _ws_url(base: str) -> str:
    return base.replace("http://", "ws://") + "/ws?width=100&height=30"


async def test_each_tab_is_its_own_process_with_its_own_data_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ACCOUNTDESK_API_SECRET", "live-secret")
    monkeypatch.setenv("ACCOUNTDESK_API_KEY", "live-key")
    monkeypatch.setenv("ACCOUNTDESK_SERVE_TOKEN", TOKEN)
    async with (
        serving(data_root=tmp_path) as (server, base),
        signed_in(base) as http,
    ):
        first = await http.ws_connect(_ws_url(base), origin=base)
        second = await http.ws_connect(_ws_url(base), origin=base)
        one, two = await first_report(first), await first_report(second)

        assert one["pid"] != two["pid"] and alive(one["pid"]) and alive(two["pid"])
        folders = {Path(one["data_dir"]), Path(two["data_dir"])}
        assert len(folders) == 2 and all(f.parent == tmp_path and f.is_dir() for f in folders)
        assert {folder.stat().st_mode & 0o777 for folder in folders} == {0o700}
        # A demo page must not be able to show the operator's live credential.
        assert "ACCOUNTDESK_API_SECRET" not in one["inherited"]
        assert "ACCOUNTDESK_API_KEY" not in one["inherited"]
        assert "ACCOUNTDESK_SERVE_TOKEN" not in one["inherited"]  # the page's, not the app's
        assert one["size"] == ["100", "30"]
        assert len(server.sessions) == 2

        await first.close()
        await until(lambda: len(server.sessions) == 1)
        assert not alive(one["pid"]) and alive(two["pid"])
        assert not Path(one["data_dir"]).exists() and Path(two["data_dir"]).exists()
        await second.close()
        await until(lambda: not server.sessions)
        assert not alive(two["pid"]) and not Path(two["data_dir"]).exists()


async def test_a_live_service_session_keeps_the_user_data_folder_and_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("ACCOUNTDESK_API_KEY", "live-key")
    monkeypatch.setenv("ACCOUNTDESK_SERVE_TOKEN", TOKEN)
    monkeypatch.delenv("ACCOUNTDESK_DATA_DIR", raising=False)
    options = ServeOptions(base_url="https://api.bank.example")
    async with (
        serving(options=options, data_root=None) as (_, base),
        signed_in(base) as http,
    ):
        ws = await http.ws_connect(_ws_url(base), origin=base)
        report = await first_report(ws)
        assert report["data_dir"] is None and "ACCOUNTDESK_API_KEY" in report["inherited"]
        assert "ACCOUNTDESK_SERVE_TOKEN" not in report["inherited"]
        await ws.close()


async def test_keys_and_sizes_reach_the_dashboard_and_junk_is_ignored() -> None:
    async with serving() as (_, base), signed_in(base) as http:
        ws = await http.ws_connect(_ws_url(base), origin=base)
        await first_report(ws)
        await ws.send_str("not json")
        await ws.send_str('["resize"]')
        await ws.send_json(["resize", {"width": 10**9, "height": "x"}])
        assert await next_echo(ws, "meta") == {"type": "resize", "width": 500, "height": 24}
        await ws.send_json(["stdin", "q"])
        assert await next_echo(ws, "stdin") == "q"
        await ws.send_json(["ping", "7"])
        message = await ws.receive(timeout=20)
        assert message.json() == ["pong", "7"]
        await ws.close()


@pytest.mark.parametrize(
    "origin",
    [
        "http://evil.example",
        "null",
        "",
        "http://127.0.0.1:1",
        "file://",
        "http://evil\u009b31m.example",
    ],
)
async def test_a_websocket_from_another_site_is_refused(origin: str) -> None:
    logged = LogLines("accountdesk.web.server")
    async with serving() as (server, base), signed_in(base) as http:
        headers = {"Origin": origin} if origin else {}
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await http.ws_connect(_ws_url(base), headers=headers)
        assert refused.value.status == 403 and not server.sessions
    # The refusal is logged to the operator's terminal: never a raw control character.
    logged.close()
    assert "refused" in logged.text and "\u009b" not in logged.text


async def test_a_host_name_rebound_to_loopback_reaches_nothing() -> None:
    async with serving() as (server, base), signed_in(base) as http:
        port = base.rsplit(":", 1)[1]
        rebound = {"Host": f"evil.example:{port}"}
        async with http.get(base + "/", headers=rebound) as page:
            assert page.status == 403
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await http.ws_connect(
                _ws_url(base), headers={**rebound, "Origin": f"http://evil.example:{port}"}
            )
        assert refused.value.status == 403 and not server.sessions
        async with http.get(f"http://localhost:{port}/?token={TOKEN}") as page:
            assert page.status == 200  # redirected to the clean address, cookie set


async def test_a_non_loopback_server_accepts_any_host_but_only_its_own_pages() -> None:
    options = ServeOptions(host="0.0.0.0")
    async with serving(options=options) as (_, base), signed_in(base) as http:
        port = base.rsplit(":", 1)[1]
        named = {"Host": f"demo-box.lan:{port}"}
        async with http.get(base + "/", headers=named) as page:
            assert page.status == 200
        ws = await http.ws_connect(
            _ws_url(base), headers={**named, "Origin": f"http://demo-box.lan:{port}"}
        )
        await first_report(ws)
        await ws.close()
        with pytest.raises(aiohttp.WSServerHandshakeError):
            await http.ws_connect(_ws_url(base), headers={**named, "Origin": "http://evil.example"})


async def test_sessions_are_bounded() -> None:
    async with (
        serving(options=ServeOptions(max_sessions=1)) as (server, base),
        signed_in(base) as http,
    ):
        ws = await http.ws_connect(_ws_url(base), origin=base)
        await first_report(ws)
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await http.ws_connect(_ws_url(base), origin=base)
        assert refused.value.status == 503 and len(server.sessions) == 1
        await ws.close()
        await until(lambda: not server.sessions)
        again = await http.ws_connect(_ws_url(base), origin=base)
        await first_report(again)
        await again.close()


async def test_a_dashboard_that_does_not_quit_is_killed() -> None:
    async with (
        serving(fake_argv("--ignore-quit"), quit_grace=0.3) as (server, base),
        signed_in(base) as http,
    ):
        ws = await http.ws_connect(_ws_url(base), origin=base)
        report = await first_report(ws)
        await ws.close()
        await until(lambda: not server.sessions)
        assert not alive(report["pid"])


async def test_a_dashboard_that_exits_ends_the_tab() -> None:
    argv = [sys.executable, "-c", "print('__GANGLION__', flush=True)"]
    async with serving(argv) as (server, base), signed_in(base) as http:
        ws = await http.ws_connect(_ws_url(base), origin=base)
        assert await closed(ws)
        await until(lambda: not server.sessions)


async def test_shutting_down_ends_every_dashboard(tmp_path: Path) -> None:
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
        async with serving(fake_argv("--ignore-quit"), data_root=tmp_path, quit_grace=0.3) as (
            server,
            base,
        ):
            await sign_in(http, base)
            sockets = [await http.ws_connect(_ws_url(base), origin=base) for _ in range(3)]
            reports = [await first_report(ws) for ws in sockets]
            assert all(alive(report["pid"]) for report in reports)
        assert not server.sessions
        assert not any(alive(report["pid"]) for report in reports)
        assert list(tmp_path.iterdir()) == []
        for ws in sockets:
            assert await closed(ws)


async def test_the_page_fetches_nothing_from_elsewhere_and_names_the_service() -> None:
    async with serving() as (_, base), signed_in(base) as http:
        async with http.get(base + "/?fontsize=400") as page:
            text = await page.text()
            assert page.headers["X-Frame-Options"] == "DENY"
        assert "<title>accountdesk · SANDBOX</title>" in text
        assert "googleapis" not in text and "https://" not in text
        assert 'data-font-size="48"' in text
        for asset in ("/static/js/textual.js", "/static/css/xterm.css"):
            assert asset in text
            async with http.get(base + asset) as response:
                assert response.status == 200


def test_the_default_command_is_this_python_running_the_dashboard() -> None:
    server = DashboardServer(ServeOptions())
    assert server.argv[:3] == [sys.executable, "-m", "accountdesk"]
    assert "--sandbox" in server.argv
    assert os.path.isabs(server.argv[0])


_ESCAPES = re.compile(rb"\x1b\[[0-9;?<>=$]*[ -/]*[@-~]|\x1b[()][A-Za-z0-9]|\x1b[=>78]")


@pytest.mark.slow
async def test_the_real_dashboard_draws_its_sign_in_screen_in_a_session(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    isolate_user_dirs(monkeypatch, tmp_path)
    options = ServeOptions(config=tmp_path / "config.toml")
    async with (
        serving(options.session_argv(), options=options, data_root=tmp_path / "sessions") as (
            server,
            base,
        ),
        signed_in(base) as http,
    ):
        ws = await http.ws_connect(_ws_url(base), origin=base)
        [session] = server.sessions
        drawn = b""
        async with asyncio.timeout(30):
            while b"Sign in to the Account Data Service" not in drawn or b"SANDBOX" not in drawn:
                message = await ws.receive()
                assert message.type == aiohttp.WSMsgType.BINARY, message
                drawn += _ESCAPES.sub(b"", message.data)
        pid = session.pid
        assert pid is not None and alive(pid)
        await ws.close()
        await until(lambda: not server.sessions)
        assert not alive(pid)
        assert list((tmp_path / "sessions").iterdir()) == []
