"""A job key pressed again while its start is on its way: the first start is kept.

On a slow service a person presses ``i`` (or ``b``, ``t``) and, seeing
nothing yet, presses it again. The first request has reached the service,
which started the job: the app must track that job, not drop it when the
second press comes (the jobs screen would not list it, and for identity and
transactions the service answers the second start with AC-112, "wait for
the running job (jobs screen)", about a job that screen does not show).
"""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest
from tui_helpers import open_account, settle, sign_in, toasts

pytestmark = pytest.mark.anyio


class SlowAnswers(httpx.AsyncBaseTransport):
    """The sandbox; the answer to a job start waits for ``release`` (the job is started)."""

    def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
        self.inner = inner
        self.sent = asyncio.Event()
        self.release = asyncio.Event()
        self.starts = 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        answer = await self.inner.handle_async_request(request)
        if request.method == "POST" and request.url.path.endswith("/identity"):
            self.starts += 1
            self.sent.set()
            await self.release.wait()
        return answer

    async def aclose(self) -> None:
        await self.inner.aclose()


async def test_a_second_press_while_the_first_start_is_on_its_way_keeps_the_first(
    make_app: Any, sandbox_transport: Any
) -> None:
    transport = SlowAnswers(sandbox_transport)
    app = make_app(transport=transport, poll_interval=3600)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await sign_in(pilot)
        await open_account(pilot, "user_good")
        await pilot.press("i")
        await asyncio.wait_for(transport.sent.wait(), 10)  # the service has started the job
        await pilot.press("i")
        await pilot.pause()
        transport.release.set()
        await settle(pilot)
        assert [str(job.kind) for job in app.desk.tracker.jobs] == ["identity"]
        assert transport.starts == 1  # the second press sent nothing: the first is on its way
        titles = [title for title, _message, _severity in toasts(app)]
        assert "Job started" in titles and not any("AC-112" in title for title in titles)
