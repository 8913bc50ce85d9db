"""The command palette: recent users and tracked jobs as commands, no duplicates,
sign-out from every screen."""

from __future__ import annotations

from typing import Any

import pytest
from tui_helpers import open_account, settle, sign_in

from accountdesk.tui.commands import DeskCommands, desk_commands
from accountdesk.tui.screens.account import AccountScreen
from accountdesk.tui.screens.login import LoginScreen
from accountdesk.tui.screens.mfa import MfaDialog

pytestmark = pytest.mark.anyio


def titles(app: Any) -> list[str]:
    return [command.title for command in desk_commands(app)]


async def test_recent_users_jobs_and_sign_out_are_commands(make_app) -> None:
    app = make_app(poll_interval=3600)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        assert titles(app) == []  # nothing of a session before sign-in
        await sign_in(pilot)
        await open_account(pilot, "user_good")
        await pilot.press("escape")
        await open_account(pilot, "user_mfa")
        await pilot.press("b")  # waits for MFA: the dialog opens; not now
        await settle(pilot)
        await pilot.press("escape")
        await settle(pilot)
        found = titles(app)
        assert "Open user_mfa" in found and "Open user_good" in found
        assert "Job job_0001 · user_mfa · answer MFA" in found
        assert "Sign out" in found
        job = next(c for c in desk_commands(app) if c.title.startswith("Job job_0001"))
        job.run()
        await settle(pilot)
        assert isinstance(app.screen, MfaDialog)
        await pilot.press("escape")
        await settle(pilot)
        next(c for c in desk_commands(app) if c.title == "Open user_good").run()
        await settle(pilot)
        assert isinstance(app.screen, AccountScreen) and app.screen.user_id == "user_good"
        next(c for c in desk_commands(app) if c.title == "Sign out").run()
        await settle(pilot)
        await pilot.press("y")  # the MFA job is unfinished: asked first
        await settle(pilot)
        assert isinstance(app.screen, LoginScreen)


async def test_no_palette_entry_appears_twice(make_app) -> None:
    app = make_app(poll_interval=3600)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await sign_in(pilot)
        await open_account(pilot, "user_good")
        system = [command.title.casefold() for command in app.get_system_commands(app.screen)]
        ours = [title.casefold() for title in titles(app)]
        every = system + ours
        assert len(every) == len(set(every)), sorted(t for t in every if every.count(t) > 1)


def test_the_provider_is_registered() -> None:
    # As a callable (Textual calls it when the palette opens): the module is
    # not imported before the first frame.
    from accountdesk.tui.app import AccountDeskApp

    providers = [p if isinstance(p, type) else p() for p in AccountDeskApp.COMMANDS]
    assert DeskCommands in providers
