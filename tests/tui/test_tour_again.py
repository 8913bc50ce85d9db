"""Another tour after one ended: "Guided tours…" in the palette, in the demo app only.

The demo app is ``accountdesk demo``'s (``tour_helpers.demo_app``); the
dashboard started any other way never offers tours.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.widgets import OptionList
from tour_helpers import demo_app, press, started
from tui_helpers import FROZEN_NOW, open_account, screen_text, settle, sign_in

from accountdesk.core.tours.captions import StepState
from accountdesk.core.tours.tour import parse_tour, shipped_tours
from accountdesk.tui.screens.login import LoginScreen
from accountdesk.tui.screens.tour_picker import TourPickerScreen
from accountdesk.tui.tour import current_tour

pytestmark = pytest.mark.anyio
SIZE = (100, 30)
TOURS = "Guided tours…"


def short_tour() -> Any:
    text = (
        'title = "Short"\nsummary = "For a test."\n'
        '[[steps]]\ndo = "sign_in"\nsay = "In."\n'
        '[[steps]]\ndo = "look_up"\nuser = "user_good"\nsay = "Good."\n'
    )
    return parse_tour(text, tour_id="short", source="short.toml")


def palette_titles(app: Any) -> list[str]:
    return [command.title for command in app.get_system_commands(app.screen)]


async def test_after_a_tour_the_palette_offers_another(tmp_path: Path) -> None:
    app = demo_app(tmp_path, short_tour())
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        runner = await started(pilot)
        assert TOURS not in palette_titles(app)  # not while a tour runs
        await press(pilot, runner, "space")
        await press(pilot, runner, "space")  # the last step: the tour ends
        assert current_tour(app) is None
        await app.desk.advance_sandbox_clock(600)  # the sandbox is no longer the fresh one
        command = next(c for c in app.get_system_commands(app.screen) if c.title == TOURS)
        command.callback()
        await settle(pilot)
        assert isinstance(app.screen, TourPickerScreen)
        assert TOURS not in palette_titles(app)  # open already
        assert "Enter: sign out, reset the sandbox" in screen_text(app)
        listed = widget_titles(app.screen.query_one(OptionList))
        assert listed == [*(tour.id for tour in shipped_tours()), "short"]
        await pilot.press("enter")  # the first: sign-in, whose steps start signed out
        runner = await started(pilot)
        assert runner.tour.id == "sign-in" and runner.index == 0
        assert isinstance(app.screen, LoginScreen) and not app.desk.signed_in
        await press(pilot, runner, "space")  # a wrong secret on purpose: AC-101
        assert runner.outcome.state is StepState.DONE, runner.outcome.problem
        await press(pilot, runner, "space")  # signed in: the sandbox was reset for the tour
        assert runner.outcome.state is StepState.DONE, runner.outcome.problem
        assert runner.sandbox_now == FROZEN_NOW


def widget_titles(tours: OptionList) -> list[str]:
    return [str(tours.get_option_at_index(i).id) for i in range(tours.option_count)]


async def test_the_dashboard_never_offers_tours(make_app: Any) -> None:
    app = make_app()
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        assert TOURS not in palette_titles(app)
        await sign_in(pilot)
        await open_account(pilot, "user_good")
        assert TOURS not in palette_titles(app)
