"""Settings in the app: secrets on disk only when asked, keymap and theme from the file.

Loading and writing the file are tested in ``tests/core/test_settings.py``.
"""

from __future__ import annotations

import stat
import tomllib
from pathlib import Path

import pytest
from textual.widgets import Checkbox
from tui_helpers import open_account, settle, sign_in, toasts


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.anyio
async def test_secret_is_not_written_unless_asked(make_app, app_dirs) -> None:
    config_path = app_dirs["config_path"]
    app = make_app()
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        assert app.screen.query_one("#remember-secret", Checkbox).value is False
        await sign_in(pilot)
    assert not config_path.exists()


@pytest.mark.anyio
async def test_remember_puts_the_secret_in_the_keyring_not_the_file(make_app, app_dirs) -> None:
    from conftest import MemoryKeyring

    keyring = MemoryKeyring()
    config_path = app_dirs["config_path"]
    app = make_app(secret_backend=keyring)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        app.screen.query_one("#remember-secret", Checkbox).value = True
        await pilot.pause()
        assert not app.screen.query_one("#secret-in-file").display  # a keyring exists
        await sign_in(pilot)
        remembered = [m for t, m, _s in toasts(app) if t == "Credentials remembered"]
        assert remembered and "system keyring (memory keyring)" in remembered[0]
    assert keyring.passwords == {("accountdesk", "sandbox|sandbox_key"): "sandbox_secret"}
    text = config_path.read_text()
    assert "sandbox_secret" not in text and tomllib.loads(text)["api_key"] == "sandbox_key"


@pytest.mark.anyio
async def test_without_a_keyring_the_secret_goes_to_the_file_only_when_asked(
    make_app, app_dirs
) -> None:
    config_path = app_dirs["config_path"]
    app = make_app()
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        app.screen.query_one("#remember-secret", Checkbox).value = True
        await pilot.pause()
        in_file = app.screen.query_one("#secret-in-file", Checkbox)
        assert in_file.display and in_file.value is False
        in_file.value = True
        await pilot.pause()
        assert "plain text" in str(app.screen.query_one("#remember-warning").render())
        await sign_in(pilot)
        remembered = [m for t, m, _s in toasts(app) if t == "Credentials remembered"]
        assert "secret in the same file (0600)" in remembered[0]
    assert stat.S_IMODE(config_path.stat().st_mode) == 0o600
    saved = tomllib.loads(config_path.read_text())
    assert (saved["api_key"], saved["api_secret"]) == ("sandbox_key", "sandbox_secret")


@pytest.mark.anyio
async def test_a_remembered_secret_is_filled_in_from_the_keyring(make_app, app_dirs) -> None:
    from textual.widgets import Input

    from conftest import MemoryKeyring

    keyring = MemoryKeyring()
    keyring.set_password("accountdesk", "https://api.bank.example|live_key", "from-keyring")
    app = make_app(
        sandbox=False,
        base_url="https://api.bank.example",
        api_key="live_key",
        secret_backend=keyring,
    )
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await settle(pilot)
        assert app.screen.query_one("#api-secret", Input).value == "from-keyring"
        assert "keyring" in str(app.screen.query_one("#login-status").render())


@pytest.mark.anyio
async def test_keymap_and_theme_come_from_the_config(make_app, app_dirs) -> None:
    _write(
        app_dirs["config_path"],
        'theme = "nord"\n[keymap]\nreveal_numbers = "ctrl+r"\nshow_error_log = "f9"\n',
    )
    app = make_app()
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        assert app.theme == "nord"
        await sign_in(pilot)
        await open_account(pilot, "user_good")
        screen = app.screen
        await pilot.press("r")
        assert screen.revealed is False  # r no longer reveals
        await pilot.press("ctrl+r")
        assert screen.revealed is True
        await pilot.press("f9")
        await pilot.pause()
        assert type(app.screen).__name__ == "ErrorLogScreen"


@pytest.mark.anyio
async def test_a_theme_picked_in_the_app_is_kept_for_the_next_run(make_app, app_dirs) -> None:
    _write(app_dirs["config_path"], 'api_key = "sandbox_key"\n')
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        app.theme = "dracula"
        await pilot.pause()
    text = app_dirs["config_path"].read_text(encoding="utf-8")
    assert 'theme = "dracula"' in text and 'api_key = "sandbox_key"' in text
    assert "api_secret" not in text

    again = make_app()
    async with again.run_test(size=(100, 30)):
        assert again.theme == "dracula"


@pytest.mark.anyio
async def test_keymap_problems_are_one_warning_and_ignored(make_app, app_dirs) -> None:
    _write(
        app_dirs["config_path"],
        "[keymap]\n"
        'reveal_numbers = "ctrl+r"\n'  # fine
        'no_such_binding = "f7"\n'  # unknown id
        'reload = "crtl+l"\n'  # a key that does not parse
        'refresh_balance = "[b]"\n'  # markup-looking, must not be parsed as markup
        'show_jobs = "x"\n',  # x already views transactions on the account screen
    )
    app = make_app()
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await pilot.pause()
        warnings = [t for t in toasts(app) if t[0] == "Keymap in the config file"]
        assert len(warnings) == 1
        message = warnings[0][1]
        assert "no_such_binding" in message and "crtl" in message and "[b]" in message
        assert "reveal_numbers" not in message
        assert set(app._keymap) == {"reveal_numbers", "show_jobs"}  # what Textual was given
        await sign_in(pilot)
        await open_account(pilot, "user_good")
        screen = app.screen
        await pilot.press("ctrl+r")
        assert screen.revealed is True
    # Read once the app has closed its log file.
    logged = (app_dirs["log_dir"] / "accountdesk.log").read_text()
    assert "unknown binding id 'no_such_binding'" in logged
    assert "'x' on AccountScreen is bound to" in logged and "show_jobs" in logged


def test_key_problem_accepts_textual_keys_and_refuses_others() -> None:
    from accountdesk.tui.keymap import key_problem

    for good in ("ctrl+r", "j,f2", "f9", "question_mark", "?", "ctrl+shift+up", "space", "escape"):
        assert key_problem(good) is None, good
    for bad in ("crtl+r", "ctrl+", "foo", "j,,k", "F5", ""):
        assert key_problem(bad) is not None, bad
