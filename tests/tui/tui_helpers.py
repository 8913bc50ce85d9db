"""Pilot helpers for dashboard tests: sign in, open a user's account.

Imported by ``conftest.py`` (and directly by tests: ``from tui_helpers import sign_in``).
They wait on workers and pauses, never on sleeps.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

#: Both clocks (sandbox and app) are frozen at this instant in tests.
FROZEN_NOW = datetime(2026, 11, 20, 9, 30, tzinfo=UTC)


async def settle(pilot: Any) -> None:
    """Let every worker finish and every posted message be handled."""
    for _ in range(3):
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()


async def sign_in(
    pilot: Any, *, api_key: str | None = None, api_secret: str | None = None
) -> None:
    """Sign in from the login screen (fields pre-filled with sandbox credentials).

    Pass ``api_key``/``api_secret`` to type other credentials first.
    """
    from textual.widgets import Input

    screen = pilot.app.screen
    if api_key is not None:
        screen.query_one("#api-key", Input).value = api_key
    if api_secret is not None:
        screen.query_one("#api-secret", Input).value = api_secret
    await pilot.pause()
    await pilot.app.screen.run_action("sign_in")
    await settle(pilot)


async def open_account(pilot: Any, user_id: str) -> None:
    """From the lookup screen, look ``user_id`` up and wait for the account screen to load."""
    from textual.widgets import Input

    pilot.app.screen.query_one("#user-id", Input).value = user_id
    await pilot.pause()
    await pilot.app.screen.run_action("lookup")
    await settle(pilot)
