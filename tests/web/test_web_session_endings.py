"""However a dashboard's session ends, the server closes its tab.

The browser otherwise keeps a terminal that no longer answers (and a test
waiting for the close waits forever). Each case is forced, not waited for:
the race it stands for happened once in many runs on a loaded machine.
"""

from __future__ import annotations

import asyncio
import sys
from asyncio.subprocess import Process

import pytest
from web_helpers import LogLines, alive, closed, serving, signed_in, until

from accountdesk.web.sessions import DashboardSession

pytestmark = [pytest.mark.anyio, pytest.mark.loopback]


def _ws_url(base: str) -> str:
    return base.replace("http://", "ws://") + "/ws?width=100&height=30"


async def test_a_dashboard_whose_output_ended_before_it_was_read_ends_the_tab(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Under load the dashboard can start, print and exit before the session's
    # output task first runs: its whole output and the end of it are then
    # read without the task ever waiting. textual-serve's stderr reader,
    # created just before, was cancelled before its first step, and awaiting
    # it raised CancelledError in the output task: it ended "cancelled"
    # without closing the tab (a CI run hung on this).
    opened = DashboardSession._open_app_process

    async def all_said_before_read(self: DashboardSession, width: int, height: int) -> Process:
        process = await opened(self, width, height)
        assert process.stdout is not None
        said = await process.stdout.read()  # up to its end: the process is done
        await process.wait()
        buffered = asyncio.StreamReader()
        buffered.feed_data(said)
        buffered.feed_eof()
        process.stdout = buffered
        return process

    monkeypatch.setattr(DashboardSession, "_open_app_process", all_said_before_read)
    argv = [sys.executable, "-c", "print('__GANGLION__', flush=True)"]
    async with serving(argv) as (server, base), signed_in(base) as http:
        ws = await http.ws_connect(_ws_url(base), origin=base)
        assert await closed(ws, within=10)
        await until(lambda: not server.sessions)


_GARBAGE = (
    "import sys, time\n"
    "sys.stdout.buffer.write(b'__GANGLION__\\n' + b'M' + (8).to_bytes(4, 'big') + b'not json')\n"
    "sys.stdout.buffer.flush()\n"
    "print(sys.argv[1:], file=sys.stderr, flush=True)\n"
    "time.sleep(60)\n"
)


async def test_a_dashboard_whose_output_cannot_be_read_ends_the_tab_and_the_process() -> None:
    lines = LogLines("accountdesk.web")
    try:
        argv = [sys.executable, "-c", _GARBAGE]
        async with serving(argv, quit_grace=0.1) as (server, base), signed_in(base) as http:
            ws = await http.ws_connect(_ws_url(base), origin=base)
            await until(lambda: any(session.pid for session in server.sessions))
            pid = next(iter(server.sessions)).pid
            assert pid is not None and alive(pid)
            assert await closed(ws, within=10)
            await until(lambda: not server.sessions)
            assert not alive(pid)
        assert "the dashboard's output could not be read" in lines.text
    finally:
        lines.close()
