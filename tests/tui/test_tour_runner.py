"""The tour runner on the real screens: keys, repeats, leaving, and steps that go wrong.

Each test runs a small tour of its own (``parse_tour``) on the demo's desk
(a fresh embedded sandbox, stopped clock). Waits are on the step's task and
Pilot, never sleeps.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input, OptionList
from tour_helpers import demo_app, press, started, step_done
from tui_helpers import screen_text, toast_titles, widget_text

from accountdesk.client import InvalidRequestError
from accountdesk.core.tours.captions import StepState
from accountdesk.core.tours.tour import parse_tour, shipped_tours
from accountdesk.tui import tour_steps
from accountdesk.tui.driver import Driver
from accountdesk.tui.screens.account import AccountScreen
from accountdesk.tui.screens.login import LoginScreen
from accountdesk.tui.screens.lookup import LookupScreen
from accountdesk.tui.screens.sandbox_panel import SandboxPanel
from accountdesk.tui.screens.tour_picker import TourPickerScreen
from accountdesk.tui.tour import CaptionPanel, current_tour, start_tour

pytestmark = pytest.mark.anyio
SIZE = (100, 30)


def tour(*steps: str, title: str = "Test tour") -> Any:
    text = f'title = "{title}"\nsummary = "For a test."\n' + "".join(
        f"[[steps]]\n{step}\n" for step in steps
    )
    return parse_tour(text, tour_id="test", source="test.toml")


SIGN_IN = 'do = "sign_in"\nsay = "In."'
MANUAL = 'do = "look_up"\nuser = "user_manual"\nsay = "Manual."\nexpect = "AC-105"'
REFRESH_REFUSED = 'do = "refresh_balance"\nsay = "Refused."\nexpect = "AC-107"'


def caption(app: Any) -> str:
    return widget_text(app.screen.query_one(CaptionPanel), " ")


async def test_space_and_enter_go_on_backspace_repeats_esc_leaves(tmp_path: Path) -> None:
    app = demo_app(tmp_path, tour(SIGN_IN, MANUAL, REFRESH_REFUSED, 'say = "End."'))
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        runner = await started(pilot)
        assert runner.index == 0 and isinstance(app.screen, LookupScreen)
        assert app.focused is app.screen.query_one(CaptionPanel)  # the keys are the tour's
        await press(pilot, runner, "enter")
        assert isinstance(app.screen, AccountScreen) and runner.outcome.state is StepState.DONE
        await press(pilot, runner, "space")
        codes = [record.code for record in app.desk.error_log.records]
        assert codes == ["AC-105", "AC-107"]
        assert toast_titles(app) == ["AC-107 · 405"]  # this step's toasts only
        await press(pilot, runner, "backspace")  # the refresh again: refused again
        assert runner.index == 2 and runner.outcome.state is StepState.DONE
        assert [record.code for record in app.desk.error_log.records][-1] == "AC-107"
        assert len(app.desk.error_log) == 3
        await press(pilot, runner, "escape")
        assert current_tour(app) is None and not app.query(CaptionPanel)
        assert isinstance(app.screen, AccountScreen)  # the app stays where it is
        assert "Tour" in toast_titles(app)
        # The key bar and F1 show the screen's Esc again, not a hidden tour key.
        shown = app.screen.active_bindings
        assert shown["escape"].binding.action == "back"
        assert not [
            key for key, active in shown.items() if active.binding.action.startswith("tour")
        ]
        await pilot.press("escape")  # the key is the screen's again
        await pilot.pause()
        assert isinstance(app.screen, LookupScreen)


async def test_an_input_with_focus_keeps_its_keys(tmp_path: Path) -> None:
    app = demo_app(tmp_path, tour(SIGN_IN, 'say = "Two."', 'say = "Three."'))
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        runner = await started(pilot)
        field = app.screen.query_one("#user-id", Input)
        field.focus()
        await pilot.press("a", "space", "b", "backspace", "backspace")
        await pilot.pause()
        assert field.value == "a" and runner.index == 0
        await pilot.press("escape")  # Esc is always the tour's
        await pilot.pause()
        assert current_tour(app) is None
        assert app.focused is field  # focus is given back where the presenter left it


async def test_the_caption_drops_its_keys_while_the_sandbox_panel_has_them(
    tmp_path: Path,
) -> None:
    app = demo_app(tmp_path, tour(SIGN_IN, 'say = "End."'))
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        runner = await started(pilot)
        caption_panel = app.screen.query_one(CaptionPanel)
        await pilot.press("f4")  # over the caption: Space and Esc are the panel's now
        await pilot.pause()
        assert isinstance(app.screen, SandboxPanel)
        assert "Space" not in str(caption_panel.border_subtitle)
        await pilot.press("escape")  # closes the panel, not the tour
        await pilot.pause()
        assert current_tour(app) is runner
        assert "Space next" in str(caption_panel.border_subtitle)


async def test_the_last_step_ends_the_tour(tmp_path: Path) -> None:
    app = demo_app(tmp_path, tour(SIGN_IN, 'say = "End."'))
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        runner = await started(pilot)
        await press(pilot, runner, "space")
        assert runner.at_end and "Space ends the tour" in caption(app)
        await press(pilot, runner, "space")
        assert current_tour(app) is None and not app.query(CaptionPanel)
        app.screen.query_one("#user-id", Input).focus()
        await pilot.press("space")
        assert app.screen.query_one("#user-id", Input).value == " "  # keys are ordinary again


async def test_a_step_that_cannot_run_says_so_and_the_tour_goes_on(tmp_path: Path) -> None:
    steps = (SIGN_IN, 'do = "answer_mfa"\nanswer = "1234"\nsay = "Answer."', MANUAL)
    app = demo_app(tmp_path, tour(*steps))
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        runner = await started(pilot)
        await press(pilot, runner, "space")
        assert runner.outcome.state is StepState.FAILED
        assert "No MFA dialog is open" in caption(app)
        assert "did not go as planned" in caption(app)
        assert app.screen.query_one(CaptionPanel).has_class("-failed")
        await press(pilot, runner, "space")
        assert runner.index == 2 and runner.outcome.state is StepState.DONE
        assert not app.screen.query_one(CaptionPanel).has_class("-failed")


@pytest.mark.parametrize(
    ("step", "problem"),
    [
        # The service answered something the script did not expect...
        ('do = "look_up"\nuser = "user_manual"\nsay = "x"', "Unexpected answer: AC-105 · 405"),
        # ... or not what it expected.
        ('do = "look_up"\nuser = "user_good"\nsay = "x"\nexpect = "AC-105"', "Expected AC-105"),
    ],
)
async def test_an_unexpected_answer_fails_the_step(tmp_path: Path, step: str, problem: str) -> None:
    app = demo_app(tmp_path, tour(SIGN_IN, step))
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        runner = await started(pilot)
        await press(pilot, runner, "space")
        assert runner.outcome.state is StepState.FAILED
        assert problem in (runner.outcome.problem or "")
        assert problem in caption(app)


async def test_a_step_that_hangs_is_given_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = demo_app(tmp_path, tour(SIGN_IN, 'say = "Hangs."', 'say = "After."'))
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        runner = await started(pilot)

        async def hang(driver: Any, step: Any) -> None:
            await asyncio.Event().wait()

        monkeypatch.setattr("accountdesk.tui.tour.perform", hang)
        runner.step_timeout = 0.05
        await press(pilot, runner, "space")
        assert runner.outcome.state is StepState.FAILED
        assert "did not finish within 0.05 s" in caption(app)
        await press(pilot, runner, "escape")
        assert current_tour(app) is None


async def test_a_sandbox_refusal_fails_the_step_and_is_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = demo_app(tmp_path, tour(SIGN_IN, 'do = "advance_clock"\nseconds = 60\nsay = "x"'))
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        runner = await started(pilot)

        async def refuse(seconds: float) -> Any:
            raise InvalidRequestError(400, "AC-100", "Required attributes are missing")

        monkeypatch.setattr(app.desk, "advance_sandbox_clock", refuse)
        await press(pilot, runner, "space")
        assert runner.outcome.state is StepState.FAILED
        assert "The sandbox answered: AC-100" in caption(app)
        assert "AC-100 · 400" in toast_titles(app)  # the one failure path


async def test_a_bug_in_a_step_is_an_internal_error_not_a_hang(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = demo_app(tmp_path, tour(SIGN_IN, 'say = "Breaks."'))
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        runner = await started(pilot)

        async def broken(driver: Any, step: Any) -> None:
            raise KeyError("oops")

        monkeypatch.setattr("accountdesk.tui.tour.perform", broken)
        await press(pilot, runner, "space")
        assert "It could not run (details are in the log)" in caption(app)
        assert "Internal error" in toast_titles(app)


async def test_moving_the_clock_shows_in_the_caption(tmp_path: Path) -> None:
    steps = (SIGN_IN, 'do = "advance_clock"\nseconds = 300\nsay = "Five minutes."')
    app = demo_app(tmp_path, tour(*steps))
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        runner = await started(pilot)
        assert "Sandbox 09:30:00 UTC ·" in str(app.screen.query_one(CaptionPanel).border_subtitle)
        await press(pilot, runner, "space")
        subtitle = str(app.screen.query_one(CaptionPanel).border_subtitle)
        assert "Sandbox 09:35:00 UTC (+5 min)" in subtitle
        assert app.desk.now().strftime("%H:%M") == "09:35"  # the app clock follows


async def test_a_step_goes_back_to_where_it_can_run(tmp_path: Path) -> None:
    steps = (
        SIGN_IN,
        'do = "look_up"\nuser = "user_good"\nsay = "x"',
        'do = "view_identity"\nsay = "x"',
        'do = "refresh_balance"\nsay = "x"',  # from identity: back to the account
        'do = "look_up"\nuser = "user_mfa"\nsay = "x"',  # from the account: back to lookup
    )
    app = demo_app(tmp_path, tour(*steps))
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        runner = await started(pilot)
        for _ in range(4):
            await press(pilot, runner, "space")
            assert runner.outcome.state is StepState.DONE, runner.outcome.problem
        assert isinstance(app.screen, AccountScreen) and app.screen.user_id == "user_mfa"
        assert [type(screen) for screen in app.screen_stack] == [LookupScreen, AccountScreen]


async def test_the_picker_starts_the_chosen_tour(tmp_path: Path) -> None:
    app = demo_app(tmp_path, shipped_tours())
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await picker_shown(pilot)
        assert isinstance(app.screen, TourPickerScreen)
        titles = widget_text(app.screen.query_one(OptionList), " ")
        assert all(tour.title in titles for tour in shipped_tours())
        await pilot.press("down", "enter")
        runner = await started(pilot)
        assert runner.tour.id == shipped_tours()[1].id


async def picker_shown(pilot: Any) -> None:
    """Until the picker the app pushes after its first frame is up (not one pause: a
    loaded machine, or shorter idle waits, took the sign-in screen for it)."""
    for _ in range(200):
        if isinstance(pilot.app.screen, TourPickerScreen) and pilot.app.screen.is_mounted:
            await pilot.pause()
            return
        await pilot.pause()
    raise AssertionError(f"no tour picker; the screen is {pilot.app.screen!r}")


async def test_the_picker_scrolls_to_the_highlighted_tour_at_80x24(tmp_path: Path) -> None:
    # Seven tours do not fit in 24 rows: the list scrolls, never runs under the border.
    app = demo_app(tmp_path, shipped_tours())
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await picker_shown(pilot)
        box, tours = app.screen.query_one("#tour-picker"), app.screen.query_one(OptionList)
        assert tours.region.bottom <= box.content_region.bottom
        for title in (tour.title for tour in shipped_tours()[1:]):
            await pilot.press("down")
            await pilot.pause()
            assert title in screen_text(app)
        assert tours.highlighted == len(shipped_tours()) - 1


async def test_esc_in_the_picker_leaves_the_app_to_be_used_by_hand(tmp_path: Path) -> None:
    app = demo_app(tmp_path, shipped_tours())
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await picker_shown(pilot)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, LoginScreen) and current_tour(app) is None


async def test_steps_refuse_politely_before_sign_in(tmp_path: Path) -> None:
    app = demo_app(tmp_path, tour('do = "look_up"\nuser = "user_good"\nsay = "x"'))
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        runner = await started(pilot)
        assert runner.outcome.state is StepState.FAILED
        assert "Nobody is signed in" in caption(app)
        assert isinstance(app.screen, LoginScreen)
        await step_done(pilot, runner)


def test_every_step_kind_is_performed() -> None:
    # A new action must be taught to the runner, not silently do nothing.
    from accountdesk.core.tours.tour import Action

    handled = {
        Action.SAY,
        Action.SIGN_IN,
        Action.LOOK_UP,
        Action.ANSWER_MFA,
        Action.ADVANCE_CLOCK,
        Action.BACK,
        *tour_steps._ACCOUNT_ACTIONS,
        *tour_steps._APP_ACTIONS,
    }
    assert handled == set(Action)


async def test_a_step_brings_what_it_points_at_into_view_at_80x24(tmp_path: Path) -> None:
    """The bulk tour's first step points at user_bulk, the scenario list's last row."""
    bulk = next(tour for tour in shipped_tours() if tour.id == "bulk")
    app = demo_app(tmp_path, bulk)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await started(pilot)
        scenarios = app.screen.query_one("#scenarios", OptionList)
        highlighted = scenarios.highlighted_option
        assert highlighted is not None and highlighted.id == "user_bulk"
        assert "user_bulk" in screen_text(app)  # on screen, above the caption
        assert app.focused is app.screen.query_one(CaptionPanel)  # the keys stay the tour's


async def test_the_picker_shows_every_tour_at_80x24(tmp_path: Path) -> None:
    tours = shipped_tours()
    app = demo_app(tmp_path, tours)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, TourPickerScreen)
        tour_list = app.screen.query_one("#tour-list", OptionList)
        assert tour_list.max_scroll_y == 0  # nothing hidden behind a scrollbar
        text = screen_text(app)
        for listed in tours:
            assert listed.title in text and listed.id in text
        # What the highlighted tour shows, in full, under the list, on screen.
        summary = app.screen.query_one("#tour-summary")
        assert " ".join(widget_text(summary, " ").split()) == tours[0].summary
        assert summary.region.bottom <= tour_list.screen.region.bottom - 2  # above the key bar
        await pilot.press("down")
        await pilot.pause()
        assert " ".join(widget_text(summary, " ").split()) == tours[1].summary


async def test_a_caption_that_asks_for_the_focus_while_the_terminal_is_too_small_gets_it_as_it_grows(
    tmp_path: Path,
) -> None:
    # Found in tmux: a shrink and a grow during a step left the focus on the
    # widget the step had used (a button); Space then no longer moved the tour
    # on, and Enter started a job. The step ended while the terminal was too
    # small, and its caption could not take the focus then (it was hidden).
    app = demo_app(tmp_path, tour(SIGN_IN, MANUAL, 'say = "End."'))
    async with app.run_test(size=SIZE) as pilot:
        runner = await started(pilot)
        box = app.screen.query_one(Input)
        app.screen.set_focus(box)  # as a step's action does: the widget it uses
        await pilot.pause()
        await pilot.resize_terminal(20, 6)
        await pilot.pause()
        runner._take_focus()  # the step ends, the terminal still too small
        await pilot.pause()
        await pilot.resize_terminal(*SIZE)
        await pilot.pause()
        assert app.focused is app.screen.query_one(CaptionPanel)
        await press(pilot, runner, "space")  # the keys are the tour's again
        assert runner.index == 1 and runner.outcome.state is StepState.DONE


async def _picked_and_signed_in(pilot: Any) -> None:
    """A tour picked as from the palette (DemoHost), its first step (signing in) done."""
    app = pilot.app
    assert await app._fresh_start()  # what picking a tour does first
    await start_tour(app, tour(SIGN_IN, 'say = "In."', title="Picked"))
    runner = current_tour(app)
    assert runner is not None
    runner.driver = Driver(app, pilot.pause)
    await step_done(pilot, runner)
    assert runner.outcome.state is StepState.DONE, runner.outcome
    assert isinstance(app.screen, LookupScreen)


async def test_a_tour_picked_while_signed_in_signs_in_on_the_new_sign_in_screen(
    tmp_path: Path,
) -> None:
    # Found in tmux: a tour picked from the palette while signed in failed its
    # first step about one time in two ("could not run", an internal error):
    # picking it signs out, and the step filled the new sign-in screen's
    # secret box before that screen had built its widgets.
    app = demo_app(tmp_path, tour(SIGN_IN, 'say = "Signed in."'))
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        first = await started(pilot)
        assert isinstance(app.screen, LookupScreen)
        first.leave()
        await pilot.pause()
        await _picked_and_signed_in(pilot)
        assert not [
            r for r in app.desk.error_log.records if r.code is None or "internal" in r.title.lower()
        ]


async def test_a_tour_picked_over_another_screen_while_signed_out_starts_on_the_sign_in_screen(
    tmp_path: Path,
) -> None:
    # Found in tmux: signed out, with the error log open, a tour picked from
    # the palette stayed on the error log: its first step said someone was
    # signed in already, and every later step that nobody was.
    from accountdesk.tui.screens.error_log import ErrorLogScreen

    app = demo_app(tmp_path, None)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        app.action_show_error_log()
        await pilot.pause()
        assert isinstance(app.screen, ErrorLogScreen)
        await _picked_and_signed_in(pilot)


async def test_the_error_log_step_runs_before_sign_in_as_its_key_does(tmp_path: Path) -> None:
    # Found in tmux: a tour's show_errors step before its sign-in step failed
    # ("Nobody is signed in"), though `e` opens the error log then.
    from accountdesk.tui.screens.error_log import ErrorLogScreen

    app = demo_app(tmp_path, tour('do = "show_errors"\nsay = "Errors."', SIGN_IN))
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        runner = await started(pilot)
        assert runner.outcome.state is StepState.DONE, runner.outcome
        assert isinstance(app.screen, ErrorLogScreen)


async def test_leaving_a_tour_over_the_mfa_dialog_gives_the_screen_below_its_esc_back(
    tmp_path: Path,
) -> None:
    # Found in tmux: leaving the tour with Esc while the MFA dialog was open,
    # then closing the dialog, left the account screen's key bar without
    # "esc Back" (Esc still went back).
    from textual.widgets._footer import FooterKey

    from accountdesk.tui.screens.mfa import MfaDialog

    mfa_user = 'do = "look_up"\nuser = "user_mfa"\nsay = "MFA."'
    refresh = 'do = "refresh_balance"\nsay = "Refresh."'
    app = demo_app(tmp_path, tour(SIGN_IN, mfa_user, refresh, 'say = "End."'))
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        runner = await started(pilot)
        await press(pilot, runner, "space")
        await press(pilot, runner, "space")
        assert isinstance(app.screen, MfaDialog)
        await pilot.press("escape")  # leaves the tour; the dialog stays
        await pilot.pause()
        assert current_tour(app) is None and isinstance(app.screen, MfaDialog)
        await pilot.press("escape")  # closes the dialog
        await pilot.pause()
        await pilot.pause()
        assert isinstance(app.screen, AccountScreen)
        keys = [key.description for key in app.screen.query(FooterKey)]
        assert "Back" in keys, keys
