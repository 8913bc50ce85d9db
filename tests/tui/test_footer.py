"""The key bar: the app's keys first, and when space is short the least needed keys go first."""

from __future__ import annotations

import re

import pytest
from textual.widgets._footer import FooterKey
from tui_helpers import (
    footer_composes,
    open_account,
    screen_line,
    settle,
    sign_in,
    widget_text,
)

from accountdesk.tui.driver import Driver
from accountdesk.tui.screenshots import SCREENS
from accountdesk.tui.widgets.footer import AppFooter

pytestmark = pytest.mark.anyio

GLOBAL = ("Quit", "Help", "Jobs", "Errors")
#: The screen each app key opens: there its key is left out first.
OPENS = {"Jobs": "JobsScreen", "Errors": "ErrorLogScreen"}


@pytest.mark.parametrize("width", [80, 100])
async def test_the_apps_keys_are_always_drawn(make_app, width: int) -> None:
    """Quit, Jobs and Errors in the bar (but the key of the screen you are on); F1 help in the
    header when the bar has no room for it."""
    app = make_app(poll_interval=3600)
    async with app.run_test(size=(width, 24), notifications=True) as pilot:
        await sign_in(pilot)
        await open_account(pilot, "user_good")
        for action in ("", "app.show_jobs", "app.show_error_log", "view_transactions"):
            if action:
                await app.screen.run_action(action)
                await settle(pilot)
            screen = type(app.screen).__name__
            footer = screen_line(app, 23)
            wanted = [word for word in GLOBAL if word != "Help" and OPENS.get(word) != screen]
            missing = [word for word in wanted if f" {word}" not in f" {footer} "]
            assert not missing, (screen, footer)
            assert " Help" in f" {footer}" or "F1 help" in screen_line(app, 0), (screen, footer)
            if action and action != "":
                await pilot.press("escape")
                await settle(pilot)


async def test_a_focus_change_that_leaves_the_keys_as_they_were_composes_nothing(
    make_app, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Textual composes the footer again at every focus change; ours only when its keys change."""
    composed = footer_composes(monkeypatch)
    app = make_app(poll_interval=3600)
    async with app.run_test(size=(100, 24)) as pilot:
        app.screen.query_one("#api-key").focus()
        await settle(pilot)
        before_key, before_footer = len(composed), screen_line(app, 23)
        app.screen.query_one("#api-secret").focus()  # both inputs show the same keys
        await settle(pilot)
        assert app.focused is not None and app.focused.id == "api-secret"
        assert len(composed) == before_key
        assert screen_line(app, 23) == before_footer
        await sign_in(pilot)  # another screen, other keys
        await settle(pilot)
        assert len(composed) > before_key
        assert "Sign out" in screen_line(app, 23) and "Sign out" not in before_footer


async def test_footer_keys_are_not_restyled_one_by_one_when_composed(
    make_app, monkeypatch: pytest.MonkeyPatch
) -> None:
    restyled: list[object] = []
    real_update = FooterKey.update_node_styles

    def counting(key: FooterKey, animate: bool = True) -> None:
        restyled.append(key)
        real_update(key, animate)

    monkeypatch.setattr(FooterKey, "update_node_styles", counting)
    app = make_app(poll_interval=3600)
    async with app.run_test(size=(100, 24)) as pilot:
        await sign_in(pilot)
        await settle(pilot)
        keys = list(app.screen.query(FooterKey))
        assert keys and all(key.has_class("-compact") for key in keys)
        assert restyled == []


def _footer_keys(app) -> list[str]:  # type: ignore[no-untyped-def]
    """The keys the bar draws, as "key description" strings, in order (hidden ones left out)."""
    footer = app.screen.query_one(AppFooter)
    return [
        f"{key.key_display} {key.description}".strip()
        for key in footer.query(FooterKey)
        if key.display and key.region.width
    ]


@pytest.mark.parametrize("size", [(60, 16), (80, 24), (100, 30)])
async def test_a_key_that_does_not_fit_is_left_out_whole(make_app, size) -> None:  # type: ignore[no-untyped-def]
    app = make_app(poll_interval=3600)
    async with app.run_test(size=size) as pilot:
        await sign_in(pilot)
        await open_account(pilot, "user_good")
        for action in ("", "view_transactions", "app.show_error_log"):
            if action:
                await app.screen.run_action(action)
                await settle(pilot)
            line = screen_line(app, size[1] - 1)
            shown = _footer_keys(app)
            # Every key shown is whole on the line, and nothing else is there.
            assert " ".join(shown) == " ".join(line.split()), (type(app.screen).__name__, line)
            assert line.startswith(shown[0])  # no stray spaces before the first key
            # The app's keys drawn come first, in their order, whichever were left out.
            app_keys = ["^q Quit", "f1 Help", "j Jobs", "e Errors"]
            drawn = [key for key in shown if key in app_keys]
            assert shown[: len(drawn)] == drawn == [key for key in app_keys if key in drawn]
            on_error_log = type(app.screen).__name__ == "ErrorLogScreen"
            assert "^q Quit" in drawn and ("e Errors" in drawn or on_error_log)
            if action:
                await pilot.press("escape")
                await settle(pilot)


async def test_the_sort_keys_show_as_one_group(make_app) -> None:  # type: ignore[no-untyped-def]
    app = make_app(poll_interval=3600)
    async with app.run_test(size=(120, 30)) as pilot:
        await sign_in(pilot)
        await open_account(pilot, "user_good")
        await app.screen.run_action("view_transactions")
        await settle(pilot)
        assert "1-5 Sort" in _footer_keys(app)
        assert screen_line(app, 29).startswith("^q Quit")


#: The keys the manual's daily-use pages (docs/agent/index.md, errors.md) teach
#: for each screen, as the key bar draws them; the account's ``s`` is the
#: recording the trainer's manual teaches (docs/trainer/cases.md).
TAUGHT = {
    "login": ["^q", "^s", "^t", "e"],
    "lookup": ["^q", "f2", "f3", "^o"],
    "account": ["^q", "j", "e", "esc", "b", "i", "t", "v", "x", "r", "l", "s"],
    "transactions": ["^q", "j", "e", "esc", "/", "d", "s", "l", "1-5"],
    "jobs": ["^q", "e", "m", "c", "/", "p", "r"],
    "error_log": ["^q", "j", "esc", "c", "u", "m", "J", "s"],
}


def _drawn_keys(app, height: int) -> list[str]:  # type: ignore[no-untyped-def]
    """What shows a key on screen: the key bar's line, each button drawn (it says its key) and
    each box's placeholder ("( / )"), as "key description"."""
    from textual.widgets import Button, Input

    buttons = [
        widget_text(button, " ")
        for button in app.screen.query(Button)
        if button.display and button.region.width
    ]
    boxes = [
        re.sub(r"\( (\S+) \)", r"\1 box", widget_text(box, " "))
        for box in app.screen.query(Input)
        if box.display and box.region.width and not box.value
    ]
    return [screen_line(app, height - 1), *buttons, *boxes]


@pytest.mark.parametrize("size", [(80, 24), (120, 30)], ids=["80", "120"])
@pytest.mark.parametrize("name", sorted(TAUGHT))
async def test_the_keys_the_manual_teaches_for_a_screen_are_drawn(
    make_app, name: str, size: tuple[int, int]
) -> None:  # type: ignore[no-untyped-def]
    app = make_app(poll_interval=3600)
    async with app.run_test(size=size) as pilot:
        await SCREENS[name](Driver(app, pilot.pause))
        await settle(pilot)
        drawn = _drawn_keys(app, size[1])
        missing = [
            key
            for key in TAUGHT[name]
            if not any(re.search(rf"(?:^|\s){re.escape(key)} \S", text) for text in drawn)
        ]
        assert not missing, (missing, drawn)


def test_every_key_need_names_a_binding_of_its_screen() -> None:
    """A renamed binding id would silently fall back to USEFUL: each name in the table is real."""
    from textual.binding import Binding

    from accountdesk.tui.app import AccountDeskApp
    from accountdesk.tui.key_needs import APP_KEY_NEEDS, SCREEN_KEY_NEEDS, Need
    from accountdesk.tui.screens import account, error_log, jobs, transactions

    def ids(cls: type) -> set[str]:
        return {b.id for b in Binding.make_bindings(cls.BINDINGS) if b.id}

    app_ids = ids(AccountDeskApp)
    assert set(APP_KEY_NEEDS) <= app_ids
    screens = [account.AccountScreen, jobs.JobsScreen, transactions.TransactionsScreen]
    screens.append(error_log.ErrorLogScreen)
    assert {cls.__name__ for cls in screens} == set(SCREEN_KEY_NEEDS)
    for cls in screens:
        unknown = set(SCREEN_KEY_NEEDS[cls.__name__]) - ids(cls) - app_ids
        assert not unknown, (cls.__name__, unknown)
    # The account's buttons say their keys: exactly those give way on its bar.
    buttons = {action.removeprefix("app.") for action, _ in account._ACTION_BUTTONS}
    on_screen = {i for i, n in SCREEN_KEY_NEEDS["AccountScreen"].items() if n is Need.ON_SCREEN}
    assert on_screen == buttons
