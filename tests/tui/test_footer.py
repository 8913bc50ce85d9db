"""The footer always shows Quit, Help, Jobs and Errors, at 80 and 100 columns, on every screen."""

from __future__ import annotations

import pytest
from tui_helpers import open_account, screen_line, settle, sign_in

pytestmark = pytest.mark.anyio

GLOBAL = ("Quit", "Help", "Jobs", "Errors")


@pytest.mark.parametrize("width", [80, 100])
async def test_the_four_global_keys_are_always_in_the_footer(make_app, width: int) -> None:
    app = make_app(poll_interval=3600)
    async with app.run_test(size=(width, 24), notifications=True) as pilot:
        await sign_in(pilot)
        await open_account(pilot, "user_good")
        for action in ("", "app.show_jobs", "app.show_error_log", "view_transactions"):
            if action:
                await app.screen.run_action(action)
                await settle(pilot)
            footer = screen_line(app, 23)
            missing = [word for word in GLOBAL if f" {word}" not in f" {footer} "]
            assert not missing, (type(app.screen).__name__, footer)
            if action and action != "":
                await pilot.press("escape")
                await settle(pilot)
