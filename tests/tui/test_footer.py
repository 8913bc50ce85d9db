"""The footer always shows Quit, Help, Jobs and Errors, at 80 and 100 columns, on every screen."""

from __future__ import annotations

import pytest
from textual.widgets._footer import FooterKey
from tui_helpers import footer_composes, open_account, screen_line, settle, sign_in

from accountdesk.tui.widgets.footer import AppFooter

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
            assert shown[:4] == ["^q Quit", "f1 Help", "j Jobs", "e Errors"]
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
