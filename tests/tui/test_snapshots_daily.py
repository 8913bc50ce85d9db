"""Snapshots of daily work on a live service: a lockout on the jobs screen, leaving with
unfinished jobs, an unreachable service with stale panels, repeated toasts.

Deterministic like the others: frozen clocks, seeded ids, no cursor blink,
toasts that outlive the run. Accept changes only after looking at the SVGs.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from tui_helpers import HandClock, answer_mfa, open_account, settle, sign_in, start_mfa_refresh

SIZES = pytest.mark.parametrize("size", [(100, 30), (80, 24)], ids=["100x30", "80x24"])


@pytest.fixture
def make_app(make_app: Any) -> Any:
    def factory(**overrides: Any) -> Any:
        app = make_app(poll_interval=3600, clock=HandClock(), **overrides)
        app.NOTIFICATION_TIMEOUT = 600
        return app

    return factory


@SIZES
def test_jobs_screen_with_a_lockout(
    snap_compare: Any, make_app: Any, size: tuple[int, int]
) -> None:
    async def run_before(pilot: Any) -> None:
        await start_mfa_refresh(pilot)
        for wrong in ("0000", "1111", "2222"):
            await answer_mfa(pilot, wrong)
        await pilot.press("escape")
        await open_account(pilot, "user_good")
        await pilot.press("i")
        await settle(pilot)
        await pilot.app.run_action("show_jobs")
        await settle(pilot)
        await pilot.press("down")  # the failed job: its details below the table
        pilot.app.clear_notifications()
        await settle(pilot)

    assert snap_compare(make_app(), terminal_size=size, run_before=run_before)


@SIZES
def test_quitting_with_a_running_job_asks(
    snap_compare: Any, make_app: Any, size: tuple[int, int]
) -> None:
    async def run_before(pilot: Any) -> None:
        await sign_in(pilot)
        await open_account(pilot, "user_good")
        await pilot.press("i")
        await settle(pilot)
        pilot.app.clear_notifications()
        await pilot.press("ctrl+q")
        await settle(pilot)

    assert snap_compare(make_app(), terminal_size=size, run_before=run_before)


class Switch:
    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.down = False

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if self.down:
            raise httpx.ConnectError("connection refused", request=request)
        return await self.inner.handle_async_request(request)

    async def aclose(self) -> None:
        pass


@SIZES
def test_unreachable_service_with_stale_panels(
    snap_compare: Any, make_app: Any, sandbox_transport: Any, size: tuple[int, int]
) -> None:
    switch = Switch(sandbox_transport)
    clock = HandClock()

    async def run_before(pilot: Any) -> None:
        await sign_in(pilot)
        await open_account(pilot, "user_good")
        switch.down = True
        clock.advance(75)
        for _ in range(3):  # three failed reloads: one toast, counted
            await pilot.press("l")
            await settle(pilot)

    app = make_app(transport=switch)
    app.desk.clock = clock
    assert snap_compare(app, terminal_size=size, run_before=run_before)
