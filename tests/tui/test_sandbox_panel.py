"""The sandbox panel (F4, palette): on the embedded sandbox, on one served over HTTP, never live.

Embedded: the in-process sandbox of ``make_app`` (frozen clock, moved only
here). Over HTTP: ``accountdesk sandbox``'s app under uvicorn on an
ephemeral 127.0.0.1 port (``loopback_server``). Live: a mock service that
answers 404 on ``/_sandbox``, as a real one does.
"""

from __future__ import annotations

import datetime as dt
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from textual.widgets import Button, Input, OptionList, Static
from tui_helpers import (
    FROZEN_NOW,
    HandClock,
    open_account,
    settle,
    sign_in,
    toast_titles,
    token_handler,
    widget_text,
)

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from accountdesk.sandbox import FrozenClock, create_app
from accountdesk.tui.screens.account import AccountScreen
from accountdesk.tui.screens.confirm import ConfirmDialog
from accountdesk.tui.screens.lookup import LookupScreen
from accountdesk.tui.screens.sandbox_panel import SandboxPanel
from loopback_server import serve_app

pytestmark = pytest.mark.anyio
SIZE = (100, 30)


def clock_line(app: Any) -> str:
    return widget_text(app.screen.query_one("#sandbox-clock", Static), " ").strip()


def note(app: Any) -> str:
    return widget_text(app.screen.query_one("#sandbox-note", Static), " ").strip()


def palette_titles(app: Any) -> list[str]:
    return [command.title for command in app.get_system_commands(app.screen)]


async def open_panel(pilot: Any) -> SandboxPanel:
    await pilot.press("f4")
    await settle(pilot)
    panel = pilot.app.screen
    assert isinstance(panel, SandboxPanel)
    return panel


async def click(pilot: Any, button_id: str) -> None:
    pilot.app.screen.query_one(f"#{button_id}", Button).press()
    await settle(pilot)


async def test_embedded_sandbox_clock_reset_and_scenarios(make_app: Any, sandbox_app: Any) -> None:
    app = make_app()
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        # Its calls go through the signed-in client: offered once signed in.
        await pilot.press("f4")
        await pilot.pause()
        assert not isinstance(app.screen, SandboxPanel)
        assert "Sandbox panel" not in palette_titles(app)
        await sign_in(pilot)
        assert "Sandbox panel" in palette_titles(app)
        await open_panel(pilot)
        assert clock_line(app) == "Sandbox clock: 2026-11-20 09:30:00 UTC"
        scenarios = app.screen.query_one("#sandbox-scenarios", OptionList)
        assert "user_mfa" in widget_text(scenarios, " ") and scenarios.option_count == 8
        await click(pilot, "plus-5m")
        assert sandbox_app.state.clock.now() == FROZEN_NOW + dt.timedelta(minutes=5)
        assert clock_line(app).endswith("09:35:00 UTC") and note(app) == "Moved the clock +5 min."
        await click(pilot, "plus-1m")
        await click(pilot, "plus-15m")
        assert clock_line(app).endswith("09:51:00 UTC")
        field = app.screen.query_one("#clock-step", Input)
        field.focus()
        field.value = "90s"
        await pilot.press("enter")  # an input with focus keeps Enter: it moves the clock
        await settle(pilot)
        assert clock_line(app).endswith("09:52:30 UTC") and field.value == ""
        await click(pilot, "reset-sandbox")  # asks first: one key press wipes jobs and blocks
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("n")
        await settle(pilot)
        assert clock_line(app).endswith("09:52:30 UTC")
        await click(pilot, "reset-sandbox")
        await pilot.press("y")
        await settle(pilot)
        assert sandbox_app.state.clock.now() == FROZEN_NOW
        assert clock_line(app).endswith("09:30:00 UTC") and note(app).startswith("Reset")
        await pilot.press("f4")  # F4 again closes it
        await pilot.pause()
        assert isinstance(app.screen, LookupScreen)


async def test_the_clock_line_ticks_with_the_sandbox_without_asking_it(
    make_app: Any, sandbox_app: Any
) -> None:
    """The line shows the sandbox's time as it moves: read once, then our clock plus its offset."""
    clock = HandClock()
    app = make_app(clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await sign_in(pilot)
        reads = 0
        sandbox_clock = app.desk.sandbox_clock

        async def counted() -> dt.datetime:
            nonlocal reads
            reads += 1
            return await sandbox_clock()

        app.desk.sandbox_clock = counted
        panel = await open_panel(pilot)
        assert clock_line(app) == "Sandbox clock: 2026-11-20 09:30:00 UTC" and reads == 1
        clock.advance(7)
        panel.tick()  # what the panel's one-second timer calls
        assert clock_line(app) == "Sandbox clock: 2026-11-20 09:30:07 UTC"
        await click(pilot, "plus-5m")  # the sandbox's answer sets the line, and its offset
        assert clock_line(app) == "Sandbox clock: 2026-11-20 09:35:00 UTC"
        clock.advance(1.5)
        panel.tick()
        assert clock_line(app) == "Sandbox clock: 2026-11-20 09:35:01 UTC"
        assert reads == 1  # ticking never asks the sandbox


async def test_a_button_pressed_twice_moves_the_clock_twice(
    make_app: Any, sandbox_app: Any
) -> None:
    """Two quick presses are two moves: the second does not cancel the first."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await sign_in(pilot)
        await open_panel(pilot)
        for _ in range(2):
            app.screen.query_one("#plus-1m", Button).press()
        await settle(pilot)
        assert sandbox_app.state.clock.now() == FROZEN_NOW + dt.timedelta(minutes=2)
        assert clock_line(app) == "Sandbox clock: 2026-11-20 09:32:00 UTC"


async def test_a_typed_amount_is_checked_before_anything_is_sent(
    make_app: Any, sandbox_app: Any
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await sign_in(pilot)
        await open_panel(pilot)
        for typed in ("soon", "400d"):
            app.screen.query_one("#clock-step", Input).value = typed
            app.screen.query_one("#clock-step", Input).focus()
            await pilot.press("enter")
            await settle(pilot)
            assert app.screen.query_one("#sandbox-note").has_class("-error")
        assert sandbox_app.state.clock.now() == FROZEN_NOW


async def test_moving_the_clock_finishes_jobs_the_app_tracks(make_app: Any) -> None:
    app = make_app(poll_interval=3600.0)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await sign_in(pilot)
        await open_account(pilot, "user_good")
        await pilot.press("b")  # a balance refresh: 2 s of sandbox time
        await settle(pilot)
        (job,) = app.desk.tracker.jobs
        assert job.status != "completed"
        await open_panel(pilot)
        await click(pilot, "plus-1m")
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, AccountScreen)
        assert job.status == "completed"
        assert "Job completed" in toast_titles(app)


async def test_closing_the_panel_gives_live_polling_back(make_app: Any, sandbox_app: Any) -> None:
    # Textual runs on_mount of every class in a screen's MRO; the panel's own
    # on_mount calling super() as well once took the dialog's hold twice, and
    # closing it released only one: polling stopped for the rest of the session.
    app = make_app(poll_interval=0.05)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await sign_in(pilot)
        await open_account(pilot, "user_good")
        for close in ("escape", "f4"):
            await open_panel(pilot)
            assert app.desk.poller.held  # no live polls behind the panel
            await pilot.press(close)
            await settle(pilot)
            assert isinstance(app.screen, AccountScreen)
            assert not app.desk.poller.held, f"still held after closing with {close}"
        await pilot.press("b")  # a balance refresh: 2 s of sandbox time
        await settle(pilot)
        (job,) = app.desk.tracker.jobs
        sandbox_app.state.clock.advance(60)
        # Only the poller's own timer can finish it now (no r, no forced poll).
        for _ in range(200):
            if job.status == "completed":
                break
            await pilot.pause(0.02)
        assert job.status == "completed"


@pytest.fixture
def http_sandbox() -> Iterator[tuple[str, FrozenClock]]:
    clock = FrozenClock(FROZEN_NOW)
    with serve_app(create_app(clock=clock, ids=1)) as url:
        yield url, clock


@pytest.mark.loopback
async def test_a_sandbox_over_http_gets_the_panel_after_sign_in(
    make_app: Any, http_sandbox: tuple[str, FrozenClock]
) -> None:
    url, clock = http_sandbox
    app = make_app(
        sandbox=False,
        base_url=url,
        transport=None,
        api_key="sandbox_key",
        api_secret="sandbox_secret",
    )
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await pilot.press("f4")  # not known to be a sandbox before sign-in
        await pilot.pause()
        assert not isinstance(app.screen, SandboxPanel)
        assert "Sandbox panel" not in palette_titles(app)
        await sign_in(pilot)
        assert app.desk.is_sandbox and "Sandbox panel" in palette_titles(app)
        await open_panel(pilot)
        assert clock_line(app).endswith("09:30:00 UTC")
        await click(pilot, "plus-15m")
        assert clock.now() == FROZEN_NOW + dt.timedelta(minutes=15)  # the server's own clock
        assert clock_line(app).endswith("09:45:00 UTC")


@pytest.mark.loopback
async def test_a_guarded_sandbox_refuses_control_without_its_token(make_app: Any) -> None:
    # A shared sandbox served beyond loopback wants a control token (AC-903).
    guarded = create_app(clock=FrozenClock(FROZEN_NOW), control_token="t" * 32)
    with serve_app(guarded) as url:
        app = make_app(
            sandbox=False,
            base_url=url,
            transport=None,
            api_key="sandbox_key",
            api_secret="sandbox_secret",
        )
        async with app.run_test(size=SIZE, notifications=True) as pilot:
            await sign_in(pilot)
            await open_panel(pilot)
            await click(pilot, "plus-5m")
            assert note(app).startswith("The sandbox refused: AC-903")
            assert app.desk.error_log.records[-1].code == "AC-903"
            # The one failure path's toast waits while the panel is open.
            assert "AC-903 · 403" not in toast_titles(app)
            await pilot.press("escape")
            await settle(pilot)
            assert "AC-903 · 403" in toast_titles(app)
        # With the token in the settings (config file or environment), it obeys.
        app = make_app(
            sandbox=False,
            base_url=url,
            transport=None,
            api_key="sandbox_key",
            api_secret="sandbox_secret",
            sandbox_control_token="t" * 32,
        )
        async with app.run_test(size=SIZE, notifications=True) as pilot:
            await sign_in(pilot)
            await open_panel(pilot)
            await click(pilot, "plus-5m")
            assert clock_line(app).endswith("09:35:00 UTC") and not app.desk.error_log.records


def _live(request: httpx.Request) -> httpx.Response:
    if request.url.path.startswith("/_sandbox"):
        return httpx.Response(
            404, json={"error": {"code": "AC-904", "message": "No such endpoint"}}
        )
    return httpx.Response(200, json={"user_id": "user_good", "link_type": "fi"})


async def test_never_on_a_live_service(make_app: Any) -> None:
    app = make_app(
        sandbox=False,
        base_url="https://api.bank.example",
        transport=httpx.MockTransport(token_handler(_live)),
    )
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await sign_in(pilot, api_key="live_key", api_secret="live_secret")
        assert isinstance(app.screen, LookupScreen) and not app.desk.is_sandbox
        await pilot.press("f4")
        await pilot.pause()
        assert isinstance(app.screen, LookupScreen)
        assert "Sandbox panel" not in palette_titles(app)
        assert not app.desk.error_log.records  # nothing was even asked


def test_sandbox_panel_snapshot(snap_compare: Any, make_app: Any) -> None:
    async def run_before(pilot: Any) -> None:
        await sign_in(pilot)
        await open_panel(pilot)
        await click(pilot, "plus-5m")

    assert snap_compare(make_app(), terminal_size=SIZE, run_before=run_before)


async def test_settling_waits_out_a_pressed_buttons_flash(make_app: Any) -> None:
    # A pressed button flashes for 0.2 s on a real-time timer: a snapshot taken
    # by a fast (warm) process inside that window drew another colour, so the
    # panel's snapshot failed under xdist and passed alone.
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await sign_in(pilot)
        panel = await open_panel(pilot)
        await settle(pilot)  # the panel's first reads are answered
        await click(pilot, "plus-5m")
        assert "Moved the clock" in note(app)
        assert not panel.query_one("#plus-5m", Button).has_class("-active")
