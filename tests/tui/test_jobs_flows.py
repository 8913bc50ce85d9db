"""The jobs screen and job tracking in the whole app, against the sandbox."""

from __future__ import annotations

import datetime as dt
from typing import Any

import httpx
import pytest
from textual.widgets import DataTable, Static
from tui_helpers import (
    FROZEN_NOW,
    HandClock,
    open_account,
    settle,
    sign_in,
    start_mfa_refresh,
    state_dir,
)

from accountdesk.core.jobs.poller import PollerState
from accountdesk.sandbox import FrozenClock, create_app
from accountdesk.tui.screens.jobs import JobsScreen
from accountdesk.tui.screens.mfa import MfaDialog


def quiet(app: Any) -> Any:
    app.desk.poll_interval = 3600.0  # rounds are driven by the test
    return app


def another_sandbox() -> httpx.ASGITransport:
    """A fresh sandbox (another run of the app): it knows none of the earlier jobs."""
    return httpx.ASGITransport(app=create_app(clock=FrozenClock(FROZEN_NOW), ids=1000))


def table_rows(screen: JobsScreen) -> list[list[str]]:
    table = screen.query_one(DataTable)
    return [[str(cell) for cell in table.get_row_at(i)] for i in range(table.row_count)]


def status_line(screen: JobsScreen) -> str:
    return str(screen.query_one("#jobs-status", Static).render())


async def start_jobs(pilot: Any) -> None:
    await sign_in(pilot)
    await open_account(pilot, "user_good")
    await pilot.press("b")  # balance refresh
    await settle(pilot)
    await pilot.press("i")  # identity
    await settle(pilot)


@pytest.mark.anyio
async def test_jobs_screen_lists_polls_and_pauses(make_app: Any, sandbox_app: Any) -> None:
    app = quiet(make_app())
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await start_jobs(pilot)
        await pilot.press("j")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, JobsScreen)
        rows = table_rows(screen)
        assert [row[:3] for row in rows] == [["user_good", "identity", "pending"],
                                             ["user_good", "balance refresh", "pending"]]  # fmt: skip
        assert "Polling live" in status_line(screen) and "2 unfinished" in status_line(screen)
        await pilot.press("p")
        assert app.desk.poller.state is PollerState.PAUSED and "Polling paused" in status_line(
            screen
        )
        assert app.desk.poller.poll_now() == 0  # paused: the timer's rounds do nothing
        sandbox_app.state.clock.advance(5)
        await pilot.press("r")  # r polls now, paused or not
        await settle(pilot)
        assert [row[2] for row in table_rows(screen)] == ["completed", "completed"]
        assert "0 unfinished" in status_line(screen)
        await pilot.press("p")
        assert app.desk.poller.state is not PollerState.PAUSED
        await pilot.press("r")
        await pilot.pause()
        assert any("No unfinished job" in n.message for n in app._notifications)
        await pilot.press("escape")
        assert not isinstance(app.screen, JobsScreen)


@pytest.mark.anyio
async def test_enter_on_a_job_waiting_for_mfa_opens_the_dialog(make_app: Any) -> None:
    app = quiet(make_app())
    async with app.run_test(size=(100, 30)) as pilot:
        await start_mfa_refresh(pilot)
        await pilot.press("escape")  # decline the dialog for now
        await settle(pilot)
        await pilot.press("j")
        await settle(pilot)
        assert "1 waiting for MFA" in status_line(app.screen)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, MfaDialog)


@pytest.mark.anyio
async def test_jobs_survive_a_restart(make_app: Any) -> None:
    first = quiet(make_app())
    async with first.run_test(size=(100, 30)) as pilot:
        await start_jobs(pilot)
    second = quiet(make_app())
    async with second.run_test(size=(100, 30)) as pilot:
        await sign_in(pilot)
        second.action_show_jobs()  # (on the lookup screen j would type into the user id)
        await settle(pilot)
        rows = table_rows(second.screen)
        assert [row[:2] for row in rows] == [
            ["user_good", "identity"],
            ["user_good", "balance refresh"],
        ]
        second.desk.poller.poll_now()  # same sandbox: both jobs are still known
        await settle(pilot)
        assert not any(job.gone for job in second.desk.tracker.jobs)


@pytest.mark.anyio
async def test_jobs_of_an_earlier_sandbox_are_marked_gone(make_app: Any) -> None:
    first = quiet(make_app())
    async with first.run_test(size=(100, 30)) as pilot:
        await start_jobs(pilot)
    second = quiet(make_app(transport=another_sandbox()))
    async with second.run_test(size=(100, 30), notifications=True) as pilot:
        await sign_in(pilot)
        second.desk.poller.poll_now()
        await settle(pilot)
        jobs = second.desk.tracker.jobs
        assert len(jobs) == 2 and all(job.gone and not job.is_pollable for job in jobs)
        assert not any(n.title and n.title.startswith("AC-109") for n in second._notifications)
        assert second.desk.poller.poll_now(force=True) == 0  # never polled again
        second.action_show_jobs()
        await settle(pilot)
        assert [row[2] for row in table_rows(second.screen)] == ["gone", "gone"]
        assert [row[5] for row in table_rows(second.screen)] == ["gone (AC-109)"] * 2


@pytest.mark.anyio
async def test_the_gone_note_is_shown_whole_at_80_columns(make_app: Any) -> None:
    first = quiet(make_app())
    async with first.run_test(size=(80, 24)) as pilot:
        await start_jobs(pilot)
    second = quiet(make_app(transport=another_sandbox()))
    async with second.run_test(size=(80, 24)) as pilot:
        await sign_in(pilot)
        second.desk.poller.poll_now()
        await settle(pilot)
        second.action_show_jobs()
        await settle(pilot)
        table = second.screen.query_one(DataTable)
        assert table.virtual_size.width <= table.scrollable_content_region.width
        lines = [strip.text for strip in table.render_lines(table.region.reset_offset)]
        assert sum("gone (AC-109)" in line for line in lines) == 2, lines


@pytest.mark.anyio
async def test_age_counts_on_the_app_clock_when_the_service_clock_is_ahead(
    make_app: Any, sandbox_app: Any
) -> None:
    clock = HandClock()
    app = quiet(make_app(clock=clock))
    async with app.run_test(size=(100, 30)) as pilot:
        await sign_in(pilot)
        await open_account(pilot, "user_good")
        sandbox_app.state.clock.advance(3600)  # the service's created_at is an hour ahead of ours
        await pilot.press("b")
        await settle(pilot)
        clock.now = FROZEN_NOW + dt.timedelta(seconds=12)
        await pilot.press("j")
        await settle(pilot)
        [row] = table_rows(app.screen)
        assert row[3] == "12s"  # not "0s" until our clock catches up
        assert app.desk.tracker.jobs[0].created_at == FROZEN_NOW + dt.timedelta(hours=1)


@pytest.mark.anyio
async def test_a_corrupt_jobs_file_does_not_stop_the_app(
    make_app: Any, app_dirs: dict[str, Any]
) -> None:
    folder = state_dir(app_dirs)
    (folder / "jobs.json").write_text('{"services": {"sandbox": [tru')
    app = quiet(make_app())
    async with app.run_test(size=(100, 30)) as pilot:
        await start_jobs(pilot)
        assert len(app.desk.tracker) == 2
    [aside] = folder.glob("jobs.json.unreadable-*")
    assert aside.read_text().endswith("[tru")
    assert '"user_good"' in (folder / "jobs.json").read_text()


@pytest.mark.anyio
async def test_ages_after_f4_and_a_restart_are_on_the_clock_each_job_started_on(
    make_app: Any, sandbox_app: Any
) -> None:
    """F4 +5 min, quit, restart: an age is never 0s for a job minutes old, nor 5 min short."""
    clock = HandClock()
    app = quiet(make_app(clock=clock))
    async with app.run_test(size=(100, 30)) as pilot:
        await sign_in(pilot)
        await open_account(pilot, "user_good")
        await pilot.press("i")  # identity, at 09:30:00
        await settle(pilot)
        clock.advance(60)
        sandbox_app.state.clock.advance(60)  # a minute passes on both clocks
        await app.desk.advance_sandbox_clock(300)  # what F4's +5 min does
        await pilot.press("b")  # a refresh, started after the move
        await settle(pilot)
    clock.advance(180)  # restarted three minutes later, on a new embedded sandbox
    again = quiet(make_app(clock=clock, transport=another_sandbox()))
    async with again.run_test(size=(100, 30)) as pilot:
        await sign_in(pilot)
        await pilot.press("f2")
        await settle(pilot)
        ages = {row[1]: row[3] for row in table_rows(again.screen)}
        assert ages == {"identity": "9m 00s", "balance refresh": "3m 00s"}
