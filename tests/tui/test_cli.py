"""The ``accountdesk`` command: arguments, the sandbox subcommand, config errors."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from accountdesk import cli


def test_defaults_parse() -> None:
    args = cli.build_parser().parse_args([])
    assert (args.base_url, args.profile, args.config, args.log_level, args.command) == (
        None,
        None,
        None,
        "info",
        None,
    )


def test_sandbox_subcommand_serves_on_host_and_port(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[str, int]] = []
    import accountdesk.sandbox

    monkeypatch.setattr(accountdesk.sandbox, "serve", lambda host, port: calls.append((host, port)))
    assert cli.main(["sandbox", "--host", "127.0.0.1", "--port", "9999"]) == 0
    assert calls == [("127.0.0.1", 9999)]


def test_dashboard_gets_resolved_settings(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    seen: dict[str, object] = {}

    class FakeApp:
        return_code = 0

        def __init__(self, *, settings, log_level):
            seen["settings"] = settings
            seen["log_level"] = log_level

        def run(self) -> None:
            seen["ran"] = True

    import accountdesk.tui.app

    monkeypatch.setattr(accountdesk.tui.app, "AccountDeskApp", FakeApp)
    monkeypatch.setenv("ACCOUNTDESK_BASE_URL", "https://env.example")
    code = cli.main(
        [
            "--config",
            str(tmp_path / "c.toml"),
            "--base-url",
            "https://flag.example",
            "--log-level",
            "debug",
        ]
    )
    assert code == 0 and seen["ran"]
    settings = seen["settings"]
    assert settings.base_url == "https://flag.example"
    assert seen["log_level"] == "debug"


def test_bad_config_exits_2_with_a_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "c.toml"
    config.write_text('profile = "ghost"\n')
    assert cli.main(["--config", str(config)]) == 2
    assert "unknown profile 'ghost'" in capsys.readouterr().err


def test_python_dash_m_accountdesk_help() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "accountdesk", "--help"], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0
    for option in ("--base-url", "--profile", "--config", "--log-level", "sandbox", "screenshots"):
        assert option in result.stdout


def test_screenshot_writer_makes_an_svg_per_screen(tmp_path: Path) -> None:
    from accountdesk.tui.screenshots import SCREENS, write_screenshots

    assert {
        "login",
        "lookup",
        "account",
        "identity",
        "jobs",
        "mfa",
        "transactions",
        "error_log",
        "help",
    } <= set(SCREENS)
    [path] = write_screenshots(tmp_path, ["account"])
    svg = path.read_text()
    assert path.name == "account.svg" and svg.startswith("<svg")
    assert "Northwind" in svg and "SANDBOX" in svg


def test_help_keeps_paths_whole_and_explains_the_screenshot_folder(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from accountdesk.cli import build_parser
    from accountdesk.tui.config import default_config_path, default_log_dir

    monkeypatch.setenv("COLUMNS", "60")
    with pytest.raises(SystemExit):
        build_parser().parse_args(["--help"])
    text = capsys.readouterr().out
    assert str(default_config_path()) in text
    assert str(default_log_dir() / "accountdesk.log") in text
    with pytest.raises(SystemExit):
        build_parser().parse_args(["screenshots", "--help"])
    text = capsys.readouterr().out
    assert "folder to write the SVG files into" in text
