"""Settings: precedence, profiles, the TOML writer, secrets on disk, keymap and theme."""

from __future__ import annotations

import stat
import tomllib
from pathlib import Path

import pytest
from textual.widgets import Checkbox
from tui_helpers import open_account, sign_in, toasts

from accountdesk.sandbox.scenarios import CREDENTIALS
from accountdesk.tui.config import (
    SANDBOX_API_KEY,
    SANDBOX_API_SECRET,
    ConfigError,
    dumps_toml,
    resolve_settings,
    write_config,
)


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_nothing_configured_means_the_sandbox_with_its_credentials(tmp_path: Path) -> None:
    settings = resolve_settings(config_path=tmp_path / "missing.toml", env={})
    assert settings.sandbox
    assert (settings.api_key, settings.api_secret) == (SANDBOX_API_KEY, SANDBOX_API_SECRET)
    assert settings.sources["base_url"] == "default"


def test_sandbox_constants_match_the_sandbox() -> None:
    assert (CREDENTIALS[0].api_key, CREDENTIALS[0].api_secret) == (
        SANDBOX_API_KEY,
        SANDBOX_API_SECRET,
    )
    assert CREDENTIALS[0].user_ids is None


def test_precedence_flag_then_env_then_profile_then_config(tmp_path: Path) -> None:
    path = _write(
        tmp_path / "config.toml",
        """
base_url = "https://config.example"
api_key = "config_key"
theme = "nord"

[profiles.staging]
base_url = "https://staging.example"
api_key = "staging_key"
""",
    )
    assert resolve_settings(config_path=path, env={}).base_url == "https://config.example"
    staging = resolve_settings(config_path=path, profile="staging", env={})
    assert (staging.base_url, staging.api_key) == ("https://staging.example", "staging_key")
    assert staging.sources == {"base_url": "profile", "api_key": "profile", "api_secret": "default"}
    env = {"ACCOUNTDESK_BASE_URL": "https://env.example/", "ACCOUNTDESK_PROFILE": "staging"}
    from_env = resolve_settings(config_path=path, env=env)
    assert from_env.base_url == "https://env.example"
    assert from_env.api_key == "staging_key"  # the profile chosen through the env
    flag = resolve_settings(config_path=path, base_url="https://FLAG.example", env=env)
    assert flag.base_url == "https://flag.example"
    assert flag.sources["base_url"] == "flag"
    assert flag.theme == "nord"


def test_sandbox_flag_beats_a_configured_base_url(tmp_path: Path) -> None:
    path = _write(tmp_path / "c.toml", 'base_url = "https://config.example"\napi_key = "live"\n')
    settings = resolve_settings(config_path=path, sandbox=True, env={})
    assert settings.sandbox and settings.api_key == SANDBOX_API_KEY
    assert resolve_settings(config_path=path, base_url="sandbox", env={}).sandbox


def test_env_credentials_reach_the_sandbox(tmp_path: Path) -> None:
    env = {"ACCOUNTDESK_API_KEY": "limited_key", "ACCOUNTDESK_API_SECRET": "limited_secret"}
    settings = resolve_settings(config_path=tmp_path / "none.toml", env=env)
    assert settings.sandbox and settings.api_key == "limited_key"
    assert "limited_secret" not in repr(settings)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("base_url = ", "config.toml"),
        ('profile = "nope"', "unknown profile"),
        ('base_url = "ftp://x"', "base URL"),
        ("keymap = 3", "keymap"),
    ],
)
def test_bad_config_is_a_config_error(tmp_path: Path, text: str, problem: str) -> None:
    path = _write(tmp_path / "config.toml", text)
    with pytest.raises(ConfigError, match=problem):
        resolve_settings(config_path=path, env={})


def test_toml_writer_round_trips() -> None:
    config = {
        "base_url": "https://x.example",
        "weird": 'quote " back \\ slash\nnew line \t tab \x01',
        "count": 3,
        "flag": True,
        "keymap": {"reveal_numbers": "ctrl+r", "odd key": "x"},
        "profiles": {"staging": {"api_key": "k"}, "prod": {"base_url": "https://p"}},
    }
    assert tomllib.loads(dumps_toml(config)) == config


def test_written_config_is_mode_0600(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "config.toml"
    write_config(path, {"api_key": "k", "api_secret": "s"})
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    path.chmod(0o644)
    write_config(path, {"api_key": "k"})
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


@pytest.mark.anyio
async def test_secret_is_not_written_unless_asked(make_app, app_dirs) -> None:
    config_path = app_dirs["config_path"]
    app = make_app()
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        assert app.screen.query_one("#remember-secret", Checkbox).value is False
        await sign_in(pilot)
    assert not config_path.exists()


@pytest.mark.anyio
async def test_remembered_secret_is_written_0600(make_app, app_dirs) -> None:
    config_path = app_dirs["config_path"]
    app = make_app()
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        app.screen.query_one("#remember-secret", Checkbox).value = True
        await pilot.pause()
        assert app.screen.query_one("#remember-warning").display
        await sign_in(pilot)
    assert stat.S_IMODE(config_path.stat().st_mode) == 0o600
    saved = tomllib.loads(config_path.read_text())
    assert (saved["api_key"], saved["api_secret"]) == ("sandbox_key", "sandbox_secret")


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
    from accountdesk.tui.logs import LOG_FILE_NAME

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
        assert set(app._keymap) == {"reveal_numbers", "show_jobs"}
        await sign_in(pilot)
        await open_account(pilot, "user_good")
        screen = app.screen
        await pilot.press("ctrl+r")
        assert screen.revealed is True
    # Read once the app has closed its log file.
    logged = (app_dirs["log_dir"] / LOG_FILE_NAME).read_text()
    assert "unknown binding id 'no_such_binding'" in logged
    assert "'x' on AccountScreen is bound to" in logged and "show_jobs" in logged


def test_key_problem_accepts_textual_keys_and_refuses_others() -> None:
    from accountdesk.tui.keymap import key_problem

    for good in ("ctrl+r", "j,f2", "f9", "question_mark", "?", "ctrl+shift+up", "space", "escape"):
        assert key_problem(good) is None, good
    for bad in ("crtl+r", "ctrl+", "foo", "j,,k", "F5", ""):
        assert key_problem(bad) is not None, bad
