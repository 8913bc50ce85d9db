"""A screen closed is let go: opening and closing one again and again leaves no more behind.

What the soak's memory grew by (issue 33, "Memory over a working day"),
one churn step at a time, counted in objects of the kind that stayed:

- every jobs and account screen closed stayed alive, whole, until a tracked
  job next changed (the jobs signal kept it): none changes here (both
  clocks are frozen), as none does while a person reads;
- Textual kept the rendered lines of the last 1,024 widgets it drew, removed
  or not: each widget's line cache (``StylesCache``) with them;
- each toast that came left the toasts it redrew behind, as empty holders
  that stayed on the screen (a burst of "Cannot connect" toasts at a dropped
  connection: dozens, each laid out with every frame);
- a table kept every rendering of its cells, rows and lines made before its
  last change, up to 10,000 cells: the jobs screen open, its ages step
  every 10 s, reached that in 12 minutes (or a dropped connection's burst
  of failures in seconds).
"""

from __future__ import annotations

import gc
import sys
from collections import Counter
from typing import Any

import pytest
from textual.widget import Widget
from tui_helpers import open_account, settle, sign_in

from accountdesk.tui.screens.account import AccountScreen
from accountdesk.tui.screens.jobs import JobsScreen
from accountdesk.tui.screens.lookup import LookupScreen
from accountdesk.tui.seams.memory import StylesCache  # the kind that stayed
from accountdesk.tui.widgets.fitted_table import FittedTable, cell

pytestmark = pytest.mark.anyio

#: Churn steps counted (after as many untimed, so every first-use cache is filled).
STEPS = 8


async def _alive(pilot: Any) -> Counter[str]:
    """Objects alive by kind; ``heap blocks``: Python's allocated blocks (as the soak counts)."""
    # asyncio keeps a timer that was cancelled until its time comes, and
    # with it the context it was made in, which names the screen: the jobs
    # screen's one-second clock, a request's deadline. Waited out.
    await pilot.pause(1.1)
    gc.collect()
    found: Counter[str] = Counter()
    for thing in gc.get_objects():
        if isinstance(thing, StylesCache):
            found["line caches"] += 1
        elif isinstance(thing, Widget):
            found["widgets"] += 1
            found[type(thing).__name__] += 1
    # Each widget has one line cache: the others belong to widgets removed.
    found["line caches of removed widgets"] = found["line caches"] - found["widgets"]
    found["heap blocks"] = sys.getallocatedblocks()
    return found


async def _churn(pilot: Any, step: Any) -> Counter[str]:
    """What ``STEPS`` more runs of ``step`` left alive, by kind (after as many untimed)."""
    # What earlier tests in this process left in Textual's cache, counted
    # against none of them: otherwise a full cache hides the growth.
    StylesCache.get_inner_outer.cache_clear()
    for _ in range(STEPS):
        await step()
    before = await _alive(pilot)
    for _ in range(STEPS):
        await step()
    after = await _alive(pilot)
    after.subtract(before)
    return after


async def test_a_closed_jobs_screen_leaves_nothing_behind(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await sign_in(pilot)
        await open_account(pilot, "user_good")
        await pilot.press("b")  # a job, so the screen has a row
        await settle(pilot)

        async def jobs_screen_and_back() -> None:
            await pilot.press("j")
            await settle(pilot)
            assert isinstance(app.screen, JobsScreen)
            await pilot.press("escape")
            await settle(pilot)
            assert isinstance(app.screen, AccountScreen)

        grown = await _churn(pilot, jobs_screen_and_back)
    assert grown["JobsScreen"] <= 0, grown
    # A screen's worth is ~20 line caches: at most one screen's may wait.
    assert grown["line caches of removed widgets"] <= 20, grown


async def test_a_closed_account_screen_leaves_nothing_behind(make_app) -> None:
    # A finished request's deadline keeps its screen until its time (10-25
    # s: bounded, see _alive): short ones here, waited out before each count.
    deadlines = {"attempt_timeout": 0.2, "call_timeout": 0.3}
    app = make_app(client_options=deadlines)
    async with app.run_test(size=(100, 30)) as pilot:
        await sign_in(pilot)

        async def account_and_back() -> None:
            await open_account(pilot, "user_good")
            await pilot.press("escape")
            await settle(pilot)
            assert isinstance(app.screen, LookupScreen)

        grown = await _churn(pilot, account_and_back)
    assert grown["AccountScreen"] <= 0, grown
    assert grown["line caches of removed widgets"] <= 20, grown


async def test_toasts_that_come_and_go_leave_nothing_behind(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await sign_in(pilot)
        messages = iter(range(1000))

        async def a_toast() -> None:
            # Another each time: the whole stack (three at most) is drawn again.
            app.notify(f"Job {next(messages)} completed", title="Job completed")
            await settle(pilot)
            await pilot.pause(0.05)  # drawn

        grown = await _churn(pilot, a_toast)
        holders = app.screen.query("ToastHolder")
    assert grown["ToastHolder"] <= 0, grown
    # One stack's worth (three toasts and their holders) at most.
    assert grown["line caches of removed widgets"] <= 6, grown
    assert len(holders) <= 3


async def test_a_table_changed_again_and_again_keeps_one_rendering(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await sign_in(pilot)
        await open_account(pilot, "user_good")
        desk = app.desk
        for _ in range(20):  # a screenful of rows
            desk.tracker.track(
                await desk.client.refresh_balance("user_good"), "user_good", desk.now()
            )
        await pilot.press("j")
        await settle(pilot)
        table = app.screen.query_one(FittedTable)
        first = next(iter(table.rows))
        notes = iter(range(1000))

        async def a_cell_changes() -> None:
            table.update_cell(first, "note", cell(f"note {next(notes)}"))
            await pilot.pause()  # drawn

        grown = await _churn(pilot, a_cell_changes)
    # Each change drew the 20 rows again (~2,500 blocks): none of it may stay.
    assert grown["heap blocks"] <= 1_500, grown


async def test_an_open_error_log_taking_error_after_error_keeps_one_rendering(make_app) -> None:
    # The log at its limit: each error adds a row and lets the oldest go, so
    # every row moves up and each one is drawn again. What was drawn of rows
    # that moved or went must not stay (Textual keeps it until its caches of
    # 1,000 rows and lines and 10,000 cells are full).
    from accountdesk.client import TransportError

    app = make_app()
    desk = app.desk
    desk.error_log.limit = 20
    numbers = iter(range(1000))

    def fail() -> None:
        # Texts of 30 kinds: rich keeps the widths of the last 4,096 texts drawn.
        n = next(numbers) % 30
        error = TransportError("connect", f"refused {n}", method="GET", path=f"/jobs/u/job_{n}")
        desk.listener.error_recorded(desk.record_error(error))

    async with app.run_test(size=(100, 30)) as pilot:
        for _ in range(20):
            fail()
        await pilot.press("f3")
        await settle(pilot)

        async def an_error_comes() -> None:
            fail()
            await pilot.pause()  # drawn

        grown = await _churn(pilot, an_error_comes)
    assert grown["heap blocks"] <= 1_500, grown
