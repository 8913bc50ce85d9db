"""Every screen and dialog survives every terminal size, down to 1x1.

A sweep, not one size by hand: each screen and dialog of the dashboard is
opened (at 100x30, and once opened while the terminal is tiny), then the
terminal is resized through sizes below, at and above the minimum. Below the
minimum the app shows one line saying what it needs; at the minimum and above
it draws normally again. A test fails when a screen class exists that the
sweep does not open.
"""

from __future__ import annotations

import asyncio
import importlib
import inspect
import pkgutil
import re
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from textual import events
from textual.command import CommandPalette
from textual.geometry import Size
from textual.screen import Screen
from textual.widgets import Input
from tui_helpers import screen_text, widget_text

import accountdesk.tui.screens as screens_package
from accountdesk.tui.app import MIN_SIZE
from accountdesk.tui.base import too_small_text
from accountdesk.tui.driver import Driver
from accountdesk.tui.screenshots import SCREENS

pytestmark = pytest.mark.anyio

Steps = Callable[[Driver], Awaitable[None]]

# From 100x30 straight to a narrow width (the 20-column crash), the tiny
# sizes, both sides of the minimum, wide and tall, then back.
# (Opened while tiny, at 20x6, in the test below; the sizes between the
# minimum and 80x24 draw as one of those two does.)
BELOW = [(20, 24), (1, 1), (40, 12), (MIN_SIZE[0] - 1, MIN_SIZE[1]), (MIN_SIZE[0], 15)]
AT_OR_ABOVE = [MIN_SIZE, (80, 24), (250, 16), (60, 70)]
SWEPT = [*BELOW, *AT_OR_ABOVE, (20, 6), (100, 30)]
TOO_SMALL = "needs at least"


async def _sandbox_panel(driver: Driver) -> None:
    await driver.sign_in()
    await driver.run("app.sandbox_panel")


async def _tour_picker(driver: Driver) -> None:
    from accountdesk.core.tours.tour import shipped_tours
    from accountdesk.tui.tour import offer_tours

    offer_tours(driver.app, shipped_tours())
    await driver.settle()


async def _confirm(driver: Driver) -> None:
    await driver.sign_in()
    await driver.open_account("user_mfa")
    await driver.run("refresh_balance")  # waits at MFA: unfinished
    await driver.run("app.quit")  # asks first


async def _clipboard(driver: Driver) -> None:
    from accountdesk.tui.screens.clipboard import copy_text

    await driver.sign_in()
    copy_text(driver.app.screen, "a line to copy", title="A test text", name="sweep")
    await driver.settle()


async def _record_case(driver: Driver) -> None:
    await driver.sign_in()
    await driver.open_account("user_good")
    await driver.run("record_scenario")


async def _mfa_blocked(driver: Driver) -> None:
    """The MFA dialog of a blocked user: three wrong answers, then an identity job (AC-108)."""
    await driver.sign_in()
    await driver.open_account("user_mfa")
    await driver.run("refresh_balance")
    for wrong in ("0000", "1111", "2222"):
        await driver.answer_mfa(wrong)
    await driver.run("start_identity")  # starts, and waits with no attempts left


async def _palette(driver: Driver) -> None:
    await driver.sign_in()
    await driver.run("app.command_palette")


#: Name -> the steps that open it and the screen class that should then be on top.
SWEEP: dict[str, Steps] = {
    **SCREENS,
    "sandbox_panel": _sandbox_panel,
    "tour_picker": _tour_picker,
    "confirm": _confirm,
    "clipboard": _clipboard,
    "command_palette": _palette,
    "record_case": _record_case,
    "mfa_blocked": _mfa_blocked,
}


def _screen_classes() -> set[type[Screen[Any]]]:
    found = set()
    for module in pkgutil.iter_modules(screens_package.__path__):
        loaded = importlib.import_module(f"{screens_package.__name__}.{module.name}")
        for _name, value in inspect.getmembers(loaded, inspect.isclass):
            if issubclass(value, Screen) and value.__module__ == loaded.__name__:
                found.add(value)
    return found


def _only_the_line(app: Any) -> str:
    """What the screen shows besides the one line of a terminal too small ("" if nothing)."""
    shown = "".join(screen_text(app).split())
    said = "".join(too_small_text(app.size).split())
    return "" if shown and said.startswith(shown) else shown


async def _resize_through(pilot: Any, sizes: list[tuple[int, int]], name: str) -> None:
    app = pilot.app
    top = type(app.screen)
    for size in sizes:
        await pilot.resize_terminal(*size)  # pauses once itself
        await pilot.pause()
        assert app.is_running, f"{name} ended at {size}"
        small = size[0] < MIN_SIZE[0] or size[1] < MIN_SIZE[1]
        if small and top is CommandPalette:  # closed by the first size too small
            await pilot.pause()
            top = type(app.screen_stack[-1])
            assert top is not CommandPalette, f"{name}: still open at {size}"
        assert type(app.screen) is top, f"{name}: the screen changed at {size}"
        assert app.has_class("-too-small") is small, f"{name} at {size}"
        if small:
            # The one line and nothing else: no widget left showing (a display
            # set on a widget by its screen outranks the stylesheet's rule).
            assert not _only_the_line(app), f"{name} at {size}: {_only_the_line(app)[:60]!r}"


@pytest.mark.parametrize("name", sorted(SWEEP))
async def test_every_size_from_1x1_up(name: str, make_app: Any) -> None:
    app = make_app(clipboard="file")
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await SWEEP[name](Driver(app, pilot.pause))
        await pilot.pause()
        focused = app.focused
        if isinstance(app.screen, CommandPalette):  # closed by a size too small:
            focused = app.screen_stack[-2].focused  # the screen beneath has the keys again
        await _resize_through(pilot, SWEPT, name)
        assert TOO_SMALL not in screen_text(app)
        assert app.focused is focused  # where the person left it


@pytest.mark.parametrize("name", ["login", "account", "mfa", "transactions", "sandbox_panel"])
async def test_opened_while_tiny_then_grown(name: str, make_app: Any) -> None:
    app = make_app(clipboard="file")
    async with app.run_test(size=(20, 6), notifications=True) as pilot:
        await pilot.pause()
        assert "needs at least 60x16; this terminal is 20x6" in " ".join(screen_text(app).split())
        await SWEEP[name](Driver(app, pilot.pause))
        await pilot.resize_terminal(*MIN_SIZE)
        await pilot.pause()
        await pilot.pause()
        assert app.is_running and not app.has_class("-too-small")
        assert TOO_SMALL not in screen_text(app)


def _mfa_facts_apart(app: Any) -> None:
    """The block, its warning and the session countdown are each drawn whole, apart."""
    drawn = screen_text(app)
    assert re.search(r"Blocked until 09:45:00 UTC(?: \(in 15 min\))?\s{2}", drawn), drawn
    assert re.search(r"\s{2}Session expires in 05:00", drawn), drawn
    said = " ".join(widget_text(app.screen.query_one("#mfa-message"), " ").split())
    assert "(AC-108): The block lifts at 09:45:00 UTC (in 15 min)." in said, said


@pytest.mark.parametrize(
    "size", [(100, 30), *AT_OR_ABOVE], ids=lambda size: "x".join(map(str, size))
)
async def test_the_blocked_users_mfa_dialog_draws_each_fact_apart(
    size: tuple[int, int], make_app: Any
) -> None:
    app = make_app(poll_interval=3600)
    async with app.run_test(size=(100, 30)) as pilot:
        await _mfa_blocked(Driver(app, pilot.pause))
        await pilot.resize_terminal(*size)
        await pilot.pause()
        assert type(app.screen).__name__ == "MfaDialog"
        _mfa_facts_apart(app)


def test_the_sweep_opens_every_screen_and_dialog() -> None:
    # The steps of SWEEP name what they open by what ends on top; a new screen
    # class needs a row here.
    opened_classes = {
        "AccountScreen", "ClipboardDialog", "ConfirmDialog", "ErrorLogScreen", "HelpScreen",
        "IdentityScreen", "JobsScreen", "LoginScreen", "LookupScreen", "MfaDialog",
        "RecordCaseDialog", "SandboxPanel", "TourPickerScreen", "TransactionsScreen",
    }  # fmt: skip
    assert {cls.__name__ for cls in _screen_classes()} <= opened_classes
    assert CommandPalette.__name__ and "command_palette" in SWEEP


async def test_an_empty_screens_line_is_hidden_too_when_tiny(make_app: Any) -> None:
    """ "No jobs yet" and "No errors in this session" stand where a table would: hidden alike."""
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        driver = Driver(app, pilot.pause)
        await driver.sign_in()
        await pilot.resize_terminal(40, 12)
        for action in ("app.show_jobs", "app.show_error_log"):
            await driver.run(action)
            await pilot.pause()
            assert not _only_the_line(app), f"{action}: {_only_the_line(app)[:60]!r}"
        await pilot.resize_terminal(100, 30)
        await pilot.pause()
        assert "No errors in this session." in screen_text(app)


async def test_the_palette_does_not_open_in_a_terminal_too_small(make_app: Any) -> None:
    app = make_app()
    async with app.run_test(size=(40, 12)) as pilot:
        await pilot.press("ctrl+p")
        await pilot.pause()
        assert not CommandPalette.is_open(app)
        assert not _only_the_line(app)  # the one line, nothing drawn over it
        await pilot.resize_terminal(*MIN_SIZE)
        await pilot.pause()
        await pilot.press("ctrl+p")  # big enough again: it opens
        await pilot.pause()
        assert CommandPalette.is_open(app)


async def test_a_terminal_shrinking_under_the_palette_closes_it(make_app: Any) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        under = app.screen
        focused = app.focused
        await pilot.press("ctrl+p")
        await pilot.pause()
        assert CommandPalette.is_open(app)
        await pilot.resize_terminal(MIN_SIZE.width - 1, MIN_SIZE.height - 1)
        await pilot.pause()
        await pilot.pause()
        assert not CommandPalette.is_open(app) and app.screen is under
        assert not _only_the_line(app)
        await pilot.resize_terminal(100, 30)
        await pilot.pause()
        assert TOO_SMALL not in screen_text(app) and app.focused is focused


async def test_toasts_over_the_palette_survive_a_terminal_shrinking_to_20x6(make_app: Any) -> None:
    # The palette, on top, was laid out at the new size before the screens
    # beneath hid everything: its toasts, wrapped 0 cells wide, crashed rich.
    app = make_app()
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        driver = Driver(app, pilot.pause)
        await driver.sign_in()
        await driver.open_account("user_good")
        app.notify("Balance refresh job_0001 started for user_good.", title="Job started")
        await pilot.press("ctrl+p")
        await pilot.pause()
        assert CommandPalette.is_open(app)
        await pilot.resize_terminal(20, 6)
        await pilot.pause()
        await pilot.pause()
        assert app.is_running and not CommandPalette.is_open(app)
        assert not _only_the_line(app)
        await pilot.resize_terminal(100, 30)
        await pilot.pause()
        assert "Job started" in screen_text(app)  # the toasts waited, and are back


@pytest.mark.parametrize("name", ["help", "account", "transactions"])
async def test_a_frame_painted_before_the_screens_have_the_new_size_does_not_crash(
    name: str, make_app: Any
) -> None:
    """Textual hands the screens a new size 1/120 s after the app gets it.

    A frame painted in between (a key's answer, or a change the screen paints
    on its next idle) is laid out at the size the screen still has: growing
    from 20x6, the widgets shown again were laid out 20 cells wide, and a
    line 0 cells wide crashed rich.
    """
    app = make_app(clipboard="file")
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await SWEEP[name](Driver(app, pilot.pause))
        await pilot.resize_terminal(20, 6)
        await pilot.pause()
        grown = Size(100, 30)
        app.post_message(events.Resize(grown, grown))
        while app._resize_timer is None:  # the app has it, the screens not yet
            await asyncio.sleep(0)
        assert app.screen.outer_size == Size(20, 6)
        assert not app.has_class("-too-small")  # shown at once (keys typed now reach it)
        app.screen.refresh(layout=True)
        app.screen._on_timer_update()  # the frame in between
        await pilot.pause(0.05)
        assert app.is_running
        assert app.screen.outer_size == grown
        assert not app.has_class("-too-small")
        assert TOO_SMALL not in screen_text(app)


async def test_keys_typed_as_the_terminal_grows_back_go_on_where_the_person_was(
    make_app: Any,
) -> None:
    """The box focused before the terminal shrank has the keys typed right after it grew back.

    It keeps what was typed before: it was given its focus back with its
    text selected (Textual's Input selects on focus), and the next key
    typed over it; and the keys typed before the next frame went nowhere.
    """
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await Driver(app, pilot.pause).sign_in()
        box = app.screen.query_one("#user-id", Input)
        assert app.focused is box
        await pilot.press(*"user_go")
        await pilot.resize_terminal(20, 6)
        await pilot.pause()
        assert app.focused is None  # hidden
        grown = Size(100, 30)
        app.post_message(events.Resize(grown, grown))
        for key in "od":  # behind the resize, as a terminal sends them
            app.post_message(events.Key(key, key))
        await pilot.pause()
        await pilot.pause()
        assert app.focused is box
        assert box.value == "user_good"


async def test_keys_typed_while_the_terminal_is_too_small_do_nothing_but_quit(
    make_app: Any,
) -> None:
    """Nothing shows but the one line: `j` opened the jobs screen unseen, letters went into the box."""
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await Driver(app, pilot.pause).sign_in()
        lookup = app.screen
        box = lookup.query_one("#user-id", Input)
        await pilot.resize_terminal(20, 6)
        await pilot.pause()
        await pilot.press("j", "e", "u")
        await pilot.pause()
        assert app.screen is lookup and box.value == ""
        await pilot.resize_terminal(100, 30)
        await pilot.pause()
        await pilot.press("u")
        assert app.screen is lookup and box.value == "u"  # as before it shrank
        await pilot.resize_terminal(20, 6)
        await pilot.pause()
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert not app.is_running


async def test_every_frame_at_the_grown_size_has_the_layout_for_its_height(make_app: Any) -> None:
    """Found in tmux: after growing from 20x6, one frame drew the layout for short terminals.

    Textual lays a screen out at its new size and paints it, then sets the
    height class (``-short`` under 24 lines, ``-tall`` from 24) for that
    size: the first frame at 100x30 had one-line fields and buttons.
    """
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.resize_terminal(20, 6)
        await pilot.pause()
        screen = app.screen
        assert screen.has_class("-short")
        frames: list[tuple[Size, bool]] = []
        paint = screen._compositor_refresh

        def recorded() -> None:
            frames.append((screen.outer_size, screen.has_class("-tall")))
            paint()

        screen._compositor_refresh = recorded  # type: ignore[method-assign]
        await pilot.resize_terminal(100, 30)
        await pilot.pause()
        await pilot.pause()
        grown = [tall for size, tall in frames if size == Size(100, 30)]
        assert grown, frames  # frames were painted at the grown size
        assert all(grown), frames
