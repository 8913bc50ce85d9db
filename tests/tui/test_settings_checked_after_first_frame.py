"""Started on the embedded sandbox, the settings are validated right after the first frame.

The command gives the desk the few values the sign-in screen draws
(``core.start_settings``, no pydantic); the app validates everything once the
screen has painted. A setting validation refuses still ends the command with
one line and exit status 2, and a sign-in pressed before the check waits for
it: nothing is sent with settings that were not validated.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.app import App

from accountdesk import cli
from accountdesk.core.desk import Desk
from accountdesk.core.settings.paths import AppDirs
from accountdesk.core.settings.start import read_start_settings
from accountdesk.tui import AccountDeskApp
from accountdesk.tui.screens.login import LoginScreen
from conftest import NoKeyring  # tests/tui on sys.path, as the other app tests import it

BAD_CLIPBOARD = "accountdesk: $ACCOUNTDESK_CLIPBOARD: clipboard: Input should be"


def _desk(app_dirs: dict[str, Path], **flags: Any) -> Desk:
    start = read_start_settings(app_dirs["config_path"], flags)
    assert start is not None  # the embedded sandbox: the quick read
    dirs = AppDirs(app_dirs["config_path"], app_dirs["data_dir"], app_dirs["log_dir"])
    return Desk(start, dirs, secret_backend=NoKeyring())  # never the machine's keyring


def test_a_setting_refused_after_the_first_frame_is_one_line_and_exit_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    import accountdesk.tui.terminal

    monkeypatch.setenv("ACCOUNTDESK_CLIPBOARD", "xclip")  # not read for the first frame
    monkeypatch.setattr(accountdesk.tui.terminal, "prepare_terminal", lambda: None)
    painted: list[str] = []

    def run_headless(app: AccountDeskApp, **_options: Any) -> None:
        painted.append("ran")
        App.run(app, headless=True, size=(100, 30))

    monkeypatch.setattr(AccountDeskApp, "run", run_headless)
    assert cli.main(["--config", str(tmp_path / "c.toml")]) == 2
    err = capsys.readouterr().err
    assert painted == ["ran"]  # the app started: the check came after its first frame
    assert err.startswith(BAD_CLIPBOARD) and err.count("\n") == 1 and "Traceback" not in err


def test_without_a_terminal_a_config_error_is_still_said_first(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setenv("ACCOUNTDESK_CLIPBOARD", "xclip")
    assert cli.main(["--config", str(tmp_path / "c.toml")]) == 2  # pytest's stdin: no terminal
    err = capsys.readouterr().err
    assert err.startswith(BAD_CLIPBOARD) and err.count("\n") == 1


@pytest.mark.anyio
@pytest.mark.parametrize("clipboard", ["xclip", "osc52"])
async def test_a_sign_in_pressed_before_the_check_waits_for_it(
    monkeypatch: pytest.MonkeyPatch, app_dirs: dict[str, Path], clipboard: str
) -> None:
    monkeypatch.setenv("ACCOUNTDESK_CLIPBOARD", clipboard)
    # The check the app makes after its first frame is held back: Enter comes first.
    monkeypatch.setattr(AccountDeskApp, "_check_settings", lambda self: None)
    desk = _desk(app_dirs)
    app = AccountDeskApp(desk, cursor_blink=False)
    async with app.run_test(size=(100, 30)) as pilot:
        assert isinstance(app.screen, LoginScreen)
        assert desk._settings is None  # drawn from the quick read
        await pilot.press("enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        if clipboard == "xclip":
            assert app.config_problem is not None
            assert app.config_problem.startswith(BAD_CLIPBOARD.removeprefix("accountdesk: "))
            assert app.return_code == 2 and not desk.signed_in
        else:
            assert app.config_problem is None and desk.signed_in
            assert desk.settings.clipboard.value == "osc52"
