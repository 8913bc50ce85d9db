"""The sign-in form's buttons are styled as Textual's own, state by state, with a fraction of its CSS.

:class:`FormButton` carries only the rules of Textual's ``Button`` for the
kinds the sign-in form draws (see its module). Each pair below is a Textual
button and a form button of the same kind, side by side in one app; for each
state a person can put them in, the style rules that reach them must be the
same (the rules' values, not the CSS text).
"""

from __future__ import annotations

from typing import Any

import pytest
from textual.app import App, ComposeResult
from textual.widgets import Button

from accountdesk.tui.widgets.form_button import FormButton

pytestmark = pytest.mark.anyio

KINDS = [("default", False), ("default", True), ("primary", False), ("primary", True)]


class _Buttons(App[None]):
    """Buttons of one class, one of each kind: alone, so no other class's CSS is loaded."""

    AUTO_FOCUS = None  # at rest means not focused

    def __init__(self, button_class: type[Button], theme: str, ansi_color: bool) -> None:
        super().__init__(ansi_color=ansi_color)
        self._button_class = button_class
        self._theme = theme

    def compose(self) -> ComposeResult:
        for variant, compact in KINDS:
            yield self._button_class("Sign in", variant, id=_key(variant, compact), compact=compact)  # type: ignore[arg-type]

    def on_mount(self) -> None:
        self.theme = self._theme


def _key(variant: str, compact: bool) -> str:
    return f"{variant}-{'compact' if compact else 'full'}"


def _rules(button: Button) -> dict[str, Any]:
    return dict(button.styles.get_rules())


STATES = ["at rest", "focused", "hovered", "pressed", "disabled"]


async def _put(button: Button, state: str, pilot: Any) -> None:
    if state == "focused":
        button.app.set_focus(button)
        await pilot.pause()  # has_focus is set by the Focus event
    elif state == "hovered":
        button.mouse_hover = True
    elif state == "pressed":
        button.add_class("-active")  # what a press sets for its moment
    elif state == "disabled":
        button.disabled = True


async def _rules_in_each_state(
    button_class: type[Button], theme: str, ansi_color: bool
) -> dict[tuple[str, str], dict[str, Any]]:
    app = _Buttons(button_class, theme, ansi_color)
    found = {}
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        for state in STATES:
            for variant, compact in KINDS:
                button = app.query_one(f"#{_key(variant, compact)}", Button)
                await _put(button, state, pilot)
                app.stylesheet.update(button)
                found[state, button.id or ""] = _rules(button)
                button.mouse_hover = False
                button.remove_class("-active")
                button.disabled = False
                app.set_focus(None)
                await pilot.pause()
    return found


@pytest.mark.parametrize(
    ("theme", "ansi_color"),
    [("textual-dark", False), ("textual-light", False), ("textual-dark", True)],
)
async def test_each_kind_in_each_state_gets_the_rules_textuals_button_gets(
    theme: str, ansi_color: bool
) -> None:
    expected = await _rules_in_each_state(Button, theme, ansi_color)
    got = await _rules_in_each_state(FormButton, theme, ansi_color)
    assert len(expected) == len(STATES) * len(KINDS)
    for (state, key), rules in expected.items():
        assert got[state, key] == rules, (theme, ansi_color, state, key)
    # Each state is one: its rules differ from the button's at rest.
    for state in STATES[1:]:
        assert expected[state, "primary-full"] != expected["at rest", "primary-full"], state


async def test_the_form_buttons_css_is_a_fraction_of_textuals() -> None:
    # What the widget is for: less CSS parsed before the first frame.
    assert len(FormButton.DEFAULT_CSS) < len(Button.DEFAULT_CSS) / 2
    sources = [location for location, *_ in FormButton("Sign in")._get_default_css()]
    assert [name for _file, name in sources] == ["FormButton.DEFAULT_CSS", "Widget.DEFAULT_CSS"]
