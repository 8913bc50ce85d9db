"""What the app does before its first frame: only what that frame needs.

The ``first_frame`` benchmark (``python -m benchmarks``) times it; these
tests pin the structure that keeps it quick, each of which was measured.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from textual import events
from textual.css.stylesheet import Stylesheet

from accountdesk.tui.screens.login import LoginScreen

pytestmark = pytest.mark.anyio


async def test_the_sign_in_screen_does_not_parse_every_stylesheet_again(
    make_app: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    # A screen's own stylesheet met after start re-parses every source in a
    # new sheet, without the parse cache (~17 ms before the first frame).
    reparsed: list[str] = []
    reparse = Stylesheet.reparse

    def counted(self: Stylesheet) -> None:
        reparsed.append(type(self).__name__)
        reparse(self)

    monkeypatch.setattr(Stylesheet, "reparse", counted)
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, LoginScreen)
        assert reparsed == []
        assert app.screen.query_one("#login-form").styles.width is not None  # login.tcss applies


async def test_the_sign_in_screen_composes_its_key_bar_once_before_the_first_frame(
    make_app: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Focus went to the first input, then (credentials filled) to Sign in:
    # a second focus change, and a second key bar (each ~5 ms, restyled).
    # The bar is composed with the screen, and not again as focus settles.
    from accountdesk.tui.widgets.footer import AppFooter

    recomposed: list[str] = []
    recompose = AppFooter.recompose

    async def counted(footer: AppFooter) -> None:
        recomposed.append(type(footer.screen).__name__)
        await recompose(footer)

    monkeypatch.setattr(AppFooter, "recompose", counted)
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert app.focused is not None and app.focused.id == "sign-in"
        assert recomposed == []
        keys = [key.description for key in app.screen.query_one(AppFooter).query("FooterKey")]
        assert keys[:3] == ["Quit", "Help", "Errors"] and "Sign in" in keys


async def test_an_empty_field_still_takes_the_focus_first(make_app: Callable[..., Any]) -> None:
    app = make_app(api_key="")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert app.focused is not None and app.focused.id == "api-key"


@pytest.mark.parametrize(("size", "breakpoint"), [((100, 30), "-tall"), ((80, 20), "-short")])
async def test_the_sign_in_screen_is_styled_once_before_the_first_frame(
    make_app: Callable[..., Any],
    monkeypatch: pytest.MonkeyPatch,
    size: tuple[int, int],
    breakpoint: str,
) -> None:
    # Textual gives a screen its height class (-short / -tall, app.tcss) at
    # its first resize, and restyles every widget of it then (~10 ms); and it
    # restyles the whole screen at each resume, the first one too, which
    # comes right after the mount that styled it (~9 ms).
    restyled: list[str] = []
    update = LoginScreen.update_node_styles

    def counted(screen: LoginScreen, animate: bool = True) -> None:
        restyled.append(str(sorted(screen.classes)))
        update(screen, animate)

    monkeypatch.setattr(LoginScreen, "update_node_styles", counted)
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        assert app.screen.has_class(breakpoint)
        assert restyled == []
        # A later resume (Textual's switch back to a screen) restyles as before.
        app.screen.post_message(events.ScreenResume())
        await pilot.pause()
        assert len(restyled) == 1


async def test_the_sandbox_is_built_only_once_the_sign_in_screen_is_on_the_terminal(
    make_app: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Textual runs after-refresh callbacks while a screen is still being
    # mounted: the sandbox's build (a thread: imports, ~40 ms of the GIL
    # under load) started before the first frame and slowed it.
    from textual.app import App

    events: list[str] = []
    display = App._display

    def shown(app: App[Any], screen: Any, renderable: Any) -> None:
        display(app, screen, renderable)
        if renderable is not None and not app._batch_count:  # Textual's: else not drawn
            events.append(f"frame {type(screen).__name__}")

    monkeypatch.setattr(App, "_display", shown)
    monkeypatch.setattr(LoginScreen, "_warm_up", lambda screen: events.append("warm-up"))
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert events.count("warm-up") == 1
        assert "frame LoginScreen" in events[: events.index("warm-up")]


async def test_the_first_frame_written_has_the_key_bar(
    make_app: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    # What the first_frame benchmark times must be the whole screen: focus
    # set only once mounted drew the first frame without its keys. Painted,
    # not only in the DOM: the keys were composed after the screen's layout
    # and that frame drew the bar empty (they were there, 0 cells wide).
    from textual.app import App
    from textual.widgets._footer import FooterKey

    keys_at_first_frame: list[list[str]] = []
    display = App._display

    def shown(app: App[Any], screen: Any, renderable: Any) -> None:
        if renderable is not None and not app._batch_count and not keys_at_first_frame:
            painted = screen._compositor.visible_widgets
            keys_at_first_frame.append(
                [key.description for key in screen.query(FooterKey) if key in painted]
            )
        display(app, screen, renderable)

    monkeypatch.setattr(App, "_display", shown)
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert keys_at_first_frame and "Quit" in keys_at_first_frame[0]
        assert "Sign in" in keys_at_first_frame[0]


async def test_no_frame_is_rendered_while_the_start_up_batch_holds_it_back(
    make_app: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Textual rendered the sign-in screen whole inside its start-up batch and
    # threw the frame away (~15 ms before the first frame), then rendered it again.
    from textual._compositor import Compositor

    rendered: list[int] = []
    render_update = Compositor.render_update

    def counted(compositor: Compositor, *args: Any, **kwargs: Any) -> Any:
        rendered.append(app._batch_count)
        return render_update(compositor, *args, **kwargs)

    monkeypatch.setattr(Compositor, "render_update", counted)
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert rendered  # the screen was drawn
        assert [batch for batch in rendered if batch] == []
        keys = [key.description for key in app.screen.query("FooterKey")]
        assert "Sign in" in keys


async def test_widgets_are_not_styled_before_they_are_mounted(
    make_app: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    # An Input or a Button sets its classes as it is built, and Textual
    # restyled it there, alone, before styling it again as it mounted (seven
    # restyles before the sign-in screen's first frame, ~5 ms).
    outside: list[str] = []
    update_nodes = Stylesheet.update_nodes

    def counted(self: Stylesheet, nodes: Any, animate: bool = False) -> None:
        nodes = list(nodes)
        outside.extend(type(node).__name__ for node in nodes if node.parent is None)
        update_nodes(self, nodes, animate)

    monkeypatch.setattr(Stylesheet, "update_nodes", counted)
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert outside == []
        # Styled once mounted: the primary button's own rules apply.
        sign_in = app.screen.query_one("#sign-in")
        assert sign_in.has_class("-primary")
        assert sign_in.styles.background != app.screen.query_one("#toggle-secret").styles.background


async def test_nothing_is_logged_before_the_first_frame(
    make_app: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The log's first record loads the sanitiser its formatter uses (~4 ms):
    # "accountdesk started" is written once the sign-in screen is shown.
    from textual.app import App

    from accountdesk.core import logs

    events: list[str] = []
    display = App._display
    format_record = logs._SafeFormatter.format

    def shown(app: App[Any], screen: Any, renderable: Any) -> None:
        display(app, screen, renderable)
        if renderable is not None and not app._batch_count and "frame" not in events:
            events.append("frame")

    def formatted(formatter: logs._SafeFormatter, record: Any) -> str:
        events.append(record.getMessage().split(" (")[0])
        return format_record(formatter, record)

    monkeypatch.setattr(App, "_display", shown)
    monkeypatch.setattr(logs._SafeFormatter, "format", formatted)
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert events[:2] == ["frame", "accountdesk started"]
