"""Every state reads without colour: ticks, the cursor row, the highlighted option, focus."""

from __future__ import annotations

from typing import Any

import pytest
from textual.widgets import Checkbox, DataTable, OptionList
from tui_helpers import open_account, settle, sign_in

pytestmark = pytest.mark.anyio


def _styles_of_row(widget: Any, y: int) -> set[str]:
    """The non-colour attributes drawn on row ``y`` of ``widget`` (bold, reverse, ...)."""
    strip = widget.render_line(y)
    found: set[str] = set()
    for segment in strip:
        style = segment.style
        if style is None:
            continue
        found |= {name for name in ("bold", "reverse", "underline") if getattr(style, name)}
    return found


async def test_the_remember_box_shows_its_state_by_its_mark(make_app: Any) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        box = app.screen.query_one("#remember-secret", Checkbox)
        assert box.value is False
        assert "▐ ▌" in str(box.render()) and "X" not in str(box.render())
        box.value = True
        await pilot.pause()
        assert "▐X▌" in str(box.render())


async def test_under_no_colour_the_cursor_and_the_highlight_are_not_a_shade(
    make_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    app = make_app()
    assert app.no_color
    async with app.run_test(size=(100, 30)) as pilot:
        await sign_in(pilot)
        scenarios = app.screen.query_one("#scenarios", OptionList)
        scenarios.focus()
        scenarios.highlighted = 1
        await settle(pilot)
        assert "underline" in _styles_of_row(scenarios, 1)  # user_mfa's row
        assert "underline" not in _styles_of_row(scenarios, 0)
        await open_account(pilot, "nobody")
        await app.screen.run_action("app.show_error_log")
        await settle(pilot)
        table = app.screen.query_one(DataTable)
        assert "underline" in _styles_of_row(table, 1)  # the cursor row under the header
