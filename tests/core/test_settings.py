"""Settings: precedence, profiles, validation, and the config file written back with tomlkit."""

from __future__ import annotations

import datetime as dt
import stat
import tomllib
from pathlib import Path

import pytest

from accountdesk.core.settings.file import remember_credentials, remember_theme
from accountdesk.core.settings.model import (
    SANDBOX_API_KEY,
    SANDBOX_API_SECRET,
    ConfigError,
    load_settings,
)
from accountdesk.core.store import Store, StoreProblem
from accountdesk.sandbox.scenarios import CREDENTIALS


@pytest.fixture(autouse=True)
def _no_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("BASE_URL", "API_KEY", "API_SECRET", "PROFILE", "PRESENT"):
        monkeypatch.delenv(f"ACCOUNTDESK_{name}", raising=False)


def _write(path: Path, text: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, str):
        text = text.encode()
    path.write_bytes(text)
    return path


def test_nothing_configured_means_the_sandbox_with_its_credentials(tmp_path: Path) -> None:
    settings = load_settings(tmp_path / "missing.toml")
    assert settings.sandbox and settings.service_key == "sandbox"
    assert settings.api_key == SANDBOX_API_KEY
    assert settings.api_secret.get_secret_value() == SANDBOX_API_SECRET


def test_sandbox_constants_match_the_sandbox() -> None:
    assert (CREDENTIALS[0].api_key, CREDENTIALS[0].api_secret) == (
        SANDBOX_API_KEY,
        SANDBOX_API_SECRET,
    )
    assert CREDENTIALS[0].user_ids is None


def test_precedence_flag_then_env_then_profile_then_config(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _write(
        tmp_path / "config.toml",
        'base_url = "https://config.example"\napi_key = "config_key"\ntheme = "nord"\n\n'
        '[profiles.staging]\nbase_url = "https://staging.example"\napi_key = "staging_key"\n',
    )
    assert load_settings(path).base_url == "https://config.example"
    staging = load_settings(path, flags={"profile": "staging"})
    assert (staging.base_url, staging.api_key, staging.profile) == (
        "https://staging.example",
        "staging_key",
        "staging",
    )
    monkeypatch.setenv("ACCOUNTDESK_BASE_URL", "https://env.example/")
    monkeypatch.setenv("ACCOUNTDESK_PROFILE", "staging")
    from_env = load_settings(path)
    assert from_env.base_url == "https://env.example"
    assert from_env.api_key == "staging_key"  # the profile chosen through the env
    flag = load_settings(path, flags={"base_url": "https://FLAG.example"})
    assert flag.base_url == "https://flag.example"
    assert flag.theme == "nord"


def test_sandbox_flag_beats_a_configured_base_url_and_its_key(tmp_path: Path) -> None:
    path = _write(tmp_path / "c.toml", 'base_url = "https://config.example"\napi_key = "live"\n')
    settings = load_settings(path, flags={"base_url": "sandbox"})
    assert settings.sandbox and settings.api_key == SANDBOX_API_KEY


def test_env_credentials_reach_the_sandbox_and_stay_out_of_reprs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ACCOUNTDESK_API_KEY", "limited_key")
    monkeypatch.setenv("ACCOUNTDESK_API_SECRET", "limited_secret")
    settings = load_settings(tmp_path / "none.toml")
    assert settings.sandbox and settings.api_key == "limited_key"
    assert "limited_secret" not in repr(settings) and "limited_secret" not in str(settings)


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        ("base_url = ", "is not valid TOML"),
        ('profile = "nope"', "unknown profile 'nope'"),
        ('base_url = "ftp://x"', "base_url"),
        ("keymap = 3", "keymap: must be a table"),
        ("profiles = 3", "profiles: must be a table"),
        ('profile = "s"\n[profiles]\ns = "not a table"', r"\[profiles.s\] must be a table"),
        ('[profiles]\ns = "not a table"', "profiles.s: must be a table"),
        (b'api_key = "\xff"', "is not UTF-8"),
        ("max_response_mb = 0", "max_response_mb"),
    ],
)
def test_a_bad_config_is_one_sentence_naming_the_file(
    tmp_path: Path, content: str | bytes, problem: str
) -> None:
    path = _write(tmp_path / "config.toml", content)
    with pytest.raises(ConfigError, match=problem) as caught:
        load_settings(path)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        ('profile = "s"\n[profiles.s]\nbase_url = 5', r": profiles\.s\.base_url: "),
        (
            'base_url = "https://ok.example"\n[profiles.s]\nmax_response_mb = 0',
            r": profiles\.s\.max_response_mb: ",
        ),
    ],
)
def test_a_bad_value_of_the_chosen_profile_names_its_table(
    tmp_path: Path, content: str, problem: str
) -> None:
    # The profile's values are merged over the file's top level before they are
    # validated; the message must still point at the line to fix, in its table.
    path = _write(tmp_path / "config.toml", content)
    with pytest.raises(ConfigError, match=problem):
        load_settings(path, flags={"profile": "s"})


def test_unknown_keys_are_ignored_and_listed(tmp_path: Path) -> None:
    path = _write(
        tmp_path / "config.toml", 'colour = "red"\n[profiles.s]\nshade = 1\n[[bookmarks]]\nx = 1\n'
    )
    settings = load_settings(path)
    assert settings.ignored_keys == ("colour", "bookmarks", "profiles.s.shade")


def test_a_config_that_is_a_folder_is_a_config_error(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.mkdir()
    with pytest.raises(ConfigError, match="is a folder"):
        load_settings(path)


def test_a_bad_env_value_names_the_variable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ACCOUNTDESK_BASE_URL", "https://user:pw@host.example")
    with pytest.raises(ConfigError, match=r"\$ACCOUNTDESK_BASE_URL"):
        load_settings(tmp_path / "none.toml")


def test_the_environment_reads_any_case_and_tables_as_json(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # As pydantic-settings read it before the sources were merged here (issue
    # 16): names in any case, a table as JSON adding to the file's. A table
    # that is not JSON was its SettingsError, a traceback; now one line.
    config = _write(tmp_path / "config.toml", 'theme = "nord"\n[keymap]\nhelp = "f9"\n')
    monkeypatch.setenv("accountdesk_theme", "dracula")
    monkeypatch.setenv("ACCOUNTDESK_KEYMAP", '{"show_jobs": "f6"}')
    settings = load_settings(config, flags={"theme": None})
    assert (settings.theme, settings.keymap) == ("dracula", {"help": "f9", "show_jobs": "f6"})
    assert load_settings(config, flags={"theme": "monokai"}).theme == "monokai"
    monkeypatch.setenv("ACCOUNTDESK_KEYMAP", "show_jobs=f6")
    with pytest.raises(ConfigError, match=r"^\$ACCOUNTDESK_KEYMAP: keymap: must be a table$"):
        load_settings(config)


# -- writing back -------------------------------------------------------------------

RICH_CONFIG = """\
# My accountdesk settings: keep this comment.
api_key = "old"   # the staging key
theme = "nord"
since = 2025-01-06T09:00:00Z   # a date, which the old writer could not handle

[[bookmarks]]
user = "user_good"

[[bookmarks]]
user = "user_mfa"

[profiles.staging]
# staging comment
api_key = "staging_key"
"""


@pytest.fixture
def problems() -> list[StoreProblem]:
    return []


@pytest.fixture
def store(problems: list[StoreProblem]) -> Store:
    return Store(on_problem=problems.append)


def test_remember_keeps_comments_dates_and_arrays_of_tables(tmp_path: Path, store: Store) -> None:
    path = _write(tmp_path / "config.toml", RICH_CONFIG)
    assert remember_credentials(store, path, api_key="new", base_url=None, profile=None)
    assert remember_theme(store, path, "dracula")
    text = path.read_text()
    assert "# My accountdesk settings: keep this comment." in text
    assert "# the staging key" in text and "# staging comment" in text
    data = tomllib.loads(text)
    assert data["api_key"] == "new" and data["theme"] == "dracula"
    assert data["since"] == dt.datetime(2025, 1, 6, 9, 0, tzinfo=dt.UTC)
    assert [b["user"] for b in data["bookmarks"]] == ["user_good", "user_mfa"]
    assert data["profiles"]["staging"]["api_key"] == "staging_key"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_remember_into_the_active_profile(tmp_path: Path, store: Store) -> None:
    path = _write(tmp_path / "config.toml", RICH_CONFIG)
    remember_credentials(
        store, path, api_key="k2", base_url="https://s.example", profile="staging", api_secret="s2"
    )
    data = tomllib.loads(path.read_text())
    assert data["profiles"]["staging"] == {
        "api_key": "k2",
        "api_secret": "s2",
        "base_url": "https://s.example",
    }
    assert data["api_key"] == "old"


def test_a_secret_left_in_the_file_is_removed_when_not_remembered(
    tmp_path: Path, store: Store
) -> None:
    path = _write(tmp_path / "config.toml", 'api_key = "k"\napi_secret = "old secret"\n')
    remember_credentials(store, path, api_key="k", base_url=None, profile=None)
    assert "old secret" not in path.read_text()


def test_an_invalid_config_is_never_rewritten(tmp_path: Path, store: Store, problems) -> None:
    original = b'api_key = "k"\nbroken = [\n'
    path = _write(tmp_path / "config.toml", original)
    assert remember_theme(store, path, "dracula") is False
    assert path.read_bytes() == original
    assert "not valid TOML" in problems[0].sentence


def test_remember_creates_a_missing_file_0600(tmp_path: Path, store: Store) -> None:
    path = tmp_path / "new" / "config.toml"
    assert remember_theme(store, path, "nord")
    assert tomllib.loads(path.read_text()) == {"theme": "nord"}
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_the_control_token_from_a_flag_the_environment_or_a_profile(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = _write(
        tmp_path / "c.toml",
        'profile = "room"\n[profiles.room]\nbase_url = "http://trainer:8765"\n'
        'sandbox_control_token = "from-the-profile-0123456789"\n',
    )
    settings = load_settings(config)
    assert settings.sandbox_control_token is not None
    assert settings.sandbox_control_token.get_secret_value() == "from-the-profile-0123456789"
    assert settings.ignored_keys == ()  # a key profiles know, not one this version ignores
    assert "from-the-profile" not in repr(settings)
    monkeypatch.setenv("ACCOUNTDESK_SANDBOX_CONTROL_TOKEN", "from-the-environment-0123")
    from_env = load_settings(config).sandbox_control_token
    assert from_env is not None and from_env.get_secret_value() == "from-the-environment-0123"
    flagged = load_settings(config, flags={"sandbox_control_token": "from-the-flag-0123456789"})
    assert flagged.sandbox_control_token is not None
    assert flagged.sandbox_control_token.get_secret_value() == "from-the-flag-0123456789"


def test_settings_checked_after_the_first_frame_are_the_file_it_drew(tmp_path: Path) -> None:
    # The first frame drew the embedded sandbox from this file; a file changed
    # before the check (another terminal saving it) must not turn the same
    # session into a live one behind a SANDBOX badge.
    from accountdesk.core.settings.start import read_start_settings

    path = _write(tmp_path / "config.toml", 'theme = "textual-light"\n')
    start = read_start_settings(path, {})
    assert start is not None and start.theme == "textual-light"
    _write(path, 'base_url = "https://live.example"\ntheme = "nord"\n')
    settings = start.validate()
    assert settings.sandbox and settings.theme == "textual-light"


@pytest.mark.parametrize(
    ("file", "env", "flag", "present"),
    [
        ("", None, None, False),
        ("", None, True, True),
        ("", "1", None, True),
        ("", "yes", None, True),
        ("", "0", True, True),  # a flag wins
        ('profile = "demo"\n[profiles.demo]\npresent = true\n', None, None, True),
        ("present = true\n", "false", None, False),  # the environment over the file
    ],
)
def test_presenting_from_a_flag_the_environment_a_profile_or_the_file(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    file: str,
    env: str | None,
    flag: bool | None,
    present: bool,
) -> None:
    from accountdesk.core.settings.start import read_start_settings

    config = _write(tmp_path / "c.toml", file)
    if env is not None:
        monkeypatch.setenv("ACCOUNTDESK_PRESENT", env)
    assert load_settings(config, flags={"present": flag}).present is present
    # The first frame (drawn before the settings are checked) presents the same.
    start = read_start_settings(config, {"present": flag} if flag is not None else {})
    assert start is not None and start.present is present
