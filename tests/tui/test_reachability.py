"""Where you are, always: the header says the service is unreachable until it answers;
a panel whose reload failed keeps what it showed, marked stale with the time it was read."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from textual.widgets import Static
from tui_helpers import HandClock, open_account, screen_line, settle, sign_in, widget_text

pytestmark = pytest.mark.anyio


class Switch:
    """Wraps a transport; while ``down``, every request is refused at connect."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.down = False

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if self.down:
            raise httpx.ConnectError("connection refused", request=request)
        return await self.inner.handle_async_request(request)

    async def aclose(self) -> None:
        pass


async def test_the_header_says_unreachable_until_the_service_answers(
    make_app, sandbox_transport
) -> None:
    switch = Switch(sandbox_transport)
    clock = HandClock()
    app = make_app(transport=switch, clock=clock)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await sign_in(pilot)
        await open_account(pilot, "user_good")
        assert "unreachable" not in screen_line(app, 0)
        switch.down = True
        await pilot.press("l")
        await settle(pilot)
        header = screen_line(app, 0)
        assert "no answer since 09:30:00" in header and "SANDBOX" in header
        # Still there on another screen, until an answer comes back.
        await pilot.press("escape")
        await settle(pilot)
        assert "no answer since" in screen_line(app, 0)
        switch.down = False
        await app.screen.run_action("app.show_jobs")  # nothing asked yet: still unknown
        await settle(pilot)
        assert "no answer since" in screen_line(app, 0)
        await pilot.press("escape")
        await open_account(pilot, "user_good")
        assert "no answer since" not in screen_line(app, 0)


async def test_a_failed_reload_keeps_the_record_marked_stale(make_app, sandbox_transport) -> None:
    switch = Switch(sandbox_transport)
    clock = HandClock()
    app = make_app(transport=switch, clock=clock)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await sign_in(pilot)
        await open_account(pilot, "user_good")
        screen = app.screen
        switch.down = True
        clock.advance(75)
        await pilot.press("l")
        await settle(pilot)
        account = widget_text(screen.query_one("#account-fields", Static), " ")
        assert "Northwind Savings Bank" in account  # what we knew is still shown...
        assert "stale" in account and "read at 09:30:00" in account  # ...and says how old
        balance = widget_text(screen.query_one("#balance-fields", Static), " ")
        assert "1,234.56" in balance and "stale" in balance
        switch.down = False
        await pilot.press("l")
        await settle(pilot)
        assert "stale" not in widget_text(screen.query_one("#account-fields", Static), " ")


async def _until(pilot: Any, holds: Any, within: float = 15.0) -> None:
    for _ in range(int(within / 0.05)):
        if holds():
            return
        await pilot.pause(0.05)
    raise AssertionError("never held")


async def test_an_outage_is_one_error_not_one_per_job_polled(make_app, sandbox_transport) -> None:
    # A 5-second drop with 100 jobs polled recorded 70 "Cannot connect"
    # errors (one per job whose poll failed): 70 lines in the error log, and
    # each held for the session. The header already says the service gives no
    # answer until one comes, and each row is marked stale.
    switch = Switch(sandbox_transport)
    clock = HandClock()
    app = make_app(transport=switch, clock=clock)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await sign_in(pilot)
        desk = app.desk

        def connection_errors() -> int:
            return sum(1 for record in desk.error_log.records if record.failure is not None)

        for outage in (1, 2):
            # Jobs new each time, as the soak's are (a job reports an error once).
            tracked = []
            for _ in range(3):
                job = await desk.client.refresh_balance("user_good")
                tracked.append(desk.tracker.track(job, "user_good", desk.now()))
            jobs = tuple(tracked)
            await _until(pilot, lambda jobs=jobs: all(job.last_poll_at for job in jobs))
            switch.down = True
            clock.advance(60)  # every job due again
            await _until(pilot, lambda jobs=jobs: all(job.reported_errors for job in jobs))
            await settle(pilot)
            assert connection_errors() == outage
            assert "no answer since" in screen_line(app, 0)
            switch.down = False
            await open_account(pilot, "user_good")  # an answer: the outage is over
            await pilot.press("escape")
            assert desk.unreachable_since is None
