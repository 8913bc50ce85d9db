"""Failures the app must survive: our own bugs in workers, odd config files, an unusable data dir."""

from __future__ import annotations

import datetime as dt
import tomllib
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from textual.widgets import Checkbox, Static
from tui_helpers import not_a_sandbox, open_account, settle, sign_in, toasts, widget_text

from accountdesk.contract import FAILURE_GUIDANCE, FailureKind
from accountdesk.core.errors.log import INTERNAL_MESSAGE
from accountdesk.tui.screens.account import AccountScreen
from accountdesk.tui.screens.lookup import LookupScreen

pytestmark = pytest.mark.anyio


class CrashingClient:
    """Signs in, then fails on reads with an exception no code expects."""

    def __init__(self, secret: str) -> None:
        self.secret = secret

    async def sign_in(self) -> None:
        pass

    sandbox_control = staticmethod(not_a_sandbox)

    async def aclose(self) -> None:
        pass

    async def get_account(self, user_id: str) -> Any:
        raise RuntimeError(f"unexpected bug while reading {user_id}")


async def test_an_unexpected_worker_error_is_one_toast_a_logged_traceback_and_no_spinner(
    make_app, app_dirs
) -> None:
    secret = "s3cret-value-typed-at-sign-in"
    app = make_app(client_factory=lambda *a, **k: CrashingClient(secret), api_secret=secret)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await sign_in(pilot)
        await open_account(pilot, "user_good")
        screen = app.screen
        assert isinstance(screen, AccountScreen)
        panel = widget_text(screen.query_one("#account-fields", Static), " ")
        assert "Loading" not in panel and "details are in the log" in panel
        assert toasts(app) == [
            (
                "Internal error",
                f"{INTERNAL_MESSAGE}\nNext: {FAILURE_GUIDANCE[FailureKind.INTERNAL].next_step}",
                "error",
            )
        ]
        assert app.desk.error_log.records[-1].kind == "RuntimeError"
    log = (app_dirs["log_dir"] / "accountdesk.log").read_text()
    assert "Traceback" in log and "unexpected bug while reading user_good" in log
    assert secret not in log


DATED_CONFIG = """\
# kept comment
since = 2025-01-06T09:00:00Z

[[bookmarks]]
user = "user_good"
"""


async def test_remember_and_theme_with_a_dated_config_with_tables(make_app, app_dirs) -> None:
    path: Path = app_dirs["config_path"]
    path.parent.mkdir(parents=True)
    path.write_text(DATED_CONFIG)
    app = make_app()
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        app.screen.query_one("#remember-secret", Checkbox).value = True
        await sign_in(pilot)
        assert isinstance(app.screen, LookupScreen)
        app.theme = "dracula"
        await pilot.pause()
    text = path.read_text()
    data = tomllib.loads(text)
    assert "# kept comment" in text
    assert data["since"] == dt.datetime(2025, 1, 6, 9, 0, tzinfo=dt.UTC)
    assert data["bookmarks"] == [{"user": "user_good"}]
    assert data["api_key"] == "sandbox_key" and data["theme"] == "dracula"


async def test_an_unusable_data_dir_does_not_stop_a_lookup(make_app, app_dirs) -> None:
    data_dir: Path = app_dirs["data_dir"]
    data_dir.parent.mkdir(parents=True, exist_ok=True)
    data_dir.write_text("a file where the data folder should be")
    app = make_app()
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await sign_in(pilot)
        await open_account(pilot, "user_good")
        assert isinstance(app.screen, AccountScreen)
        await settle(pilot)
        assert "Northwind" in widget_text(app.screen.query_one("#account-fields", Static), " ")
        problems = [message for title, message, _s in toasts(app) if title == "File problem"]
        assert problems and all(str(data_dir) in message for message in problems)


async def test_a_poll_failing_as_the_app_closes_is_logged_not_a_crash(make_app) -> None:
    # Textual's shutdown closes the screens before the app's unmount signs the
    # desk out: a poll failing in between (seen at the end of a 30-minute
    # soak) reached the app's handlers with no screen on the stack, and
    # ScreenStackError ended the app with a traceback.
    from accountdesk.client import TransportError
    from accountdesk.tui.messages import ErrorRecorded, MfaNeeded

    app = make_app()
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await sign_in(pilot)
    assert not app.screen_stack
    failure = TransportError(
        "connect", "Connection refused", method="GET", path="/jobs/user_good/job_1"
    )
    record = app.desk.record_error(failure)
    app.on_error_recorded(ErrorRecorded(record))
    assert app.desk.error_log.records[-1] == record  # kept for the log, not drawn
    tracked = SimpleNamespace(key="user_good/job_1", user_id="user_good", mfa_offered=False)
    app.on_mfa_needed(MfaNeeded(tracked))  # type: ignore[arg-type]
    assert tracked.mfa_offered is False  # nothing to draw it on: offered next time
