"""Snapshots at the minimum size (60x16), and of the one line below it.

At 40x12 the account fields wrapped a letter a line, the filter box was 4
cells wide and the MFA dialog hid Submit: the app now asks for at least
60x16 and every screen is laid out for it (one-line fields under 24 lines).
"""

from __future__ import annotations

from typing import Any

import pytest

from accountdesk.tui.app import MIN_SIZE
from accountdesk.tui.driver import Driver
from accountdesk.tui.screenshots import SCREENS

SIZE = (MIN_SIZE.width, MIN_SIZE.height)


@pytest.mark.parametrize(
    "name", ["login", "lookup", "account", "transactions", "mfa", "jobs", "error_log"]
)
def test_at_the_minimum_size(snap_compare: Any, make_app: Any, name: str) -> None:
    async def run_before(pilot: Any) -> None:
        await SCREENS[name](Driver(pilot.app, pilot.pause))

    # Polled once an hour, as the screenshots are: a poll never lands mid-run.
    assert snap_compare(make_app(poll_interval=3600), terminal_size=SIZE, run_before=run_before)


def test_below_the_minimum_one_line_says_what_it_needs(snap_compare: Any, make_app: Any) -> None:
    async def run_before(pilot: Any) -> None:
        await SCREENS["account"](Driver(pilot.app, pilot.pause))
        await pilot.resize_terminal(40, 12)

    # Polled once an hour, as the screenshots are: a poll never lands mid-run.
    assert snap_compare(make_app(poll_interval=3600), terminal_size=SIZE, run_before=run_before)
