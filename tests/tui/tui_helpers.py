"""Pilot helpers for dashboard tests: sign in, open a user's account.

Imported by ``conftest.py`` (and directly by tests: ``from tui_helpers import sign_in``).
They wait on workers and pauses, never on sleeps.
"""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path
from typing import Any

from accountdesk.tui import screenshots
from accountdesk.tui.driver import Driver

#: Both clocks (sandbox and app) are frozen at this instant in tests; the same
#: instant as ``screenshots/``, so the README's pictures match the snapshots.
FROZEN_NOW = screenshots.FROZEN_NOW


def state_dir(
    app_dirs: dict[str, Path], service: str = "sandbox", api_key: str = "sandbox_key"
) -> Path:
    """Where a test app keeps one service and key's jobs and recent lookups (made if missing)."""
    from accountdesk.core.settings.paths import state_folder_name

    folder = app_dirs["data_dir"] / "state" / state_folder_name(service, api_key)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def driver(pilot: Any) -> Driver:
    """The app's scripted steps, waiting the way Pilot waits."""
    return Driver(pilot.app, pilot.pause)


async def settle(pilot: Any) -> None:
    """Let every worker finish and every posted message be handled."""
    await driver(pilot).settle()


async def sign_in(pilot: Any, *, api_key: str | None = None, api_secret: str | None = None) -> None:
    """Sign in from the sign-in screen (pre-filled with sandbox credentials)."""
    await driver(pilot).sign_in(api_key=api_key, api_secret=api_secret)


async def open_account(pilot: Any, user_id: str) -> None:
    """From the lookup screen, look ``user_id`` up and wait for the account screen to load."""
    await driver(pilot).open_account(user_id)


def footer_composes(monkeypatch: Any) -> list[str]:
    """The screens (class names) whose footer composes its keys from now on, in order."""
    from accountdesk.tui.widgets.footer import AppFooter

    composed: list[str] = []
    real_compose = AppFooter.compose

    def counting(footer: AppFooter):  # type: ignore[no-untyped-def]
        composed.append(type(footer.screen).__name__)
        return real_compose(footer)

    monkeypatch.setattr(AppFooter, "compose", counting)
    return composed


async def start_mfa_refresh(pilot: Any) -> Any:
    """Sign in, open user_mfa, start a balance refresh: returns the MFA dialog that opens by itself."""
    from accountdesk.tui.screens.mfa import MfaDialog

    await sign_in(pilot)
    await open_account(pilot, "user_mfa")
    await pilot.press("b")
    await settle(pilot)
    dialog = pilot.app.screen
    assert isinstance(dialog, MfaDialog), f"expected the MFA dialog, got {dialog!r}"
    return dialog


async def answer_mfa(pilot: Any, text: str) -> None:
    """Type ``text`` in the open MFA dialog and press Enter."""
    from textual.widgets import Input

    pilot.app.screen.query_one(Input).value = text
    await pilot.press("enter")
    await settle(pilot)


class HandClock:
    """An app clock (``clock=`` of ``make_app``) that stays at ``FROZEN_NOW`` until moved by hand."""

    def __init__(self) -> None:
        self.now = FROZEN_NOW

    def __call__(self) -> dt.datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += dt.timedelta(seconds=seconds)


def toasts(app: Any) -> list[tuple[str, str, str]]:
    """``(title, message, severity)`` of every notification still on screen.

    A long path in a message is drawn broken at its separators (core.formatting.
    fold_paths); the message is given back whole.
    """
    return [(n.title, re.sub(r"/\n", "/", n.message), n.severity) for n in app._notifications]


def toast_titles(app: Any) -> list[str]:
    return [title for title, _message, _severity in toasts(app)]


class RecordingTransport:
    """Wraps a transport and remembers every request it was asked to send."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.requests: list[Any] = []

    async def handle_async_request(self, request: Any) -> Any:
        self.requests.append(request)
        return await self.inner.handle_async_request(request)

    async def aclose(self) -> None:
        await self.inner.aclose()

    @property
    def paths(self) -> list[str]:
        return [request.url.path for request in self.requests]


def widget_text(widget: Any, separator: str = "\n") -> str:
    """The text a widget currently renders, lines joined by ``separator``.

    Join with a space to find a phrase the widget may have wrapped.
    """
    return separator.join(line.text for line in widget.render_lines(widget.region.reset_offset))


def token_handler(inner: Any) -> Any:
    """A MockTransport handler: grants any token, else defers to ``inner(request)``."""
    import httpx

    def handler(request: Any) -> Any:
        if request.url.path == "/token":
            return httpx.Response(
                200, json={"access_token": "tok", "token_type": "Bearer", "expires_in": 3600}
            )
        return inner(request)

    return handler


def screen_text(app: Any) -> str:
    """Every row the terminal shows for the current screen (as composited), joined by newlines."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


def screen_line(app: Any, y: int) -> str:
    """The text the terminal shows on row ``y`` of the current screen (as composited)."""
    return app.screen._compositor.render_strips()[y].text


class NotASandbox:
    """What a live service's control endpoints give: no catalogue (for fake clients)."""

    async def scenarios(self) -> None:
        return None

    async def clock(self) -> Any:
        from accountdesk.client import MalformedResponseError

        # A live service's 404 page where the sandbox's clock would be.
        raise MalformedResponseError(
            404, "Not Found", problem="not JSON", method="GET", path="/_sandbox/clock"
        )


def not_a_sandbox(control_token: Any = None) -> NotASandbox:
    """``sandbox_control`` for fake clients standing in for a live service."""
    return NotASandbox()
