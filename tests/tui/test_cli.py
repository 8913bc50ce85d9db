"""The ``accountdesk`` command: arguments, the sandbox subcommand, config errors."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from accountdesk import cli
from accountdesk.cli.parser import build_parser


def test_defaults_parse() -> None:
    args = build_parser().parse_args([])
    assert (args.base_url, args.profile, args.config, args.log_level, args.command) == (
        None,
        None,
        None,
        "info",
        None,
    )


def test_only_the_chosen_commands_flags_are_built(monkeypatch: pytest.MonkeyPatch) -> None:
    # The dashboard reads the top-level flags only: the commands' parsers
    # (and their modules) cost ~10 ms of its first frame. A command's flags
    # are built when it is the one chosen.
    import accountdesk.cli.dashboard
    from accountdesk.cli import demo, explain

    built: list[str] = []
    dashboard: list[Any] = []
    monkeypatch.setattr(demo, "add_parser", lambda commands, help: built.append("demo"))
    monkeypatch.setattr(
        explain,
        "add_parser",
        lambda commands, help: built.append("explain") or commands.add_parser("explain"),
    )
    monkeypatch.setattr(explain, "run", lambda args, start_up: 0)
    monkeypatch.setattr(
        accountdesk.cli.dashboard, "run", lambda args, start_up: dashboard.append(args) or 0
    )
    assert cli.main([]) == 0
    assert built == []
    # The same values as the whole command line's.
    assert vars(dashboard[0]) == vars(build_parser(every=True).parse_args([]))
    built.clear()
    assert cli.main(["--log-level", "debug"]) == 0
    assert built == [] and dashboard[1].log_level == "debug"
    assert cli.main(["explain"]) == 0
    assert built == ["explain"]


def test_sandbox_subcommand_serves_on_host_and_port(monkeypatch: pytest.MonkeyPatch) -> None:
    import accountdesk.sandbox

    built: list[tuple[str, dict[str, object]]] = []
    served: list[tuple[str, int, dict[str, object]]] = []
    real_served_app = accountdesk.sandbox.served_app

    def served_app(host: str, **options: Any) -> Any:
        built.append((host, options))
        return real_served_app(host, **options)

    monkeypatch.setattr(accountdesk.sandbox, "served_app", served_app)
    monkeypatch.setattr(
        accountdesk.sandbox,
        "serve",
        lambda host, port, **options: served.append((host, port, options)),
    )
    assert cli.main(["sandbox", "--host", "127.0.0.1", "--port", "9999"]) == 0
    assert built == [
        ("127.0.0.1", {"control_token": None, "tenants": False, "max_tenants": 100,
                       "bulk_transactions": 100_000})
    ]  # fmt: skip
    [(host, port, options)] = served
    assert (host, port, options["control_token"]) == ("127.0.0.1", 9999, None)
    assert options["app"] is not None  # the app built (and checked) before listening
    built.clear()
    assert (
        cli.main(["sandbox", "--port", "9998", "--tenants", "--bulk-transactions", "1000000"]) == 0
    )
    assert built[0][1]["tenants"] is True and built[0][1]["bulk_transactions"] == 1_000_000


def test_the_sandbox_bounds_slow_and_many_clients(monkeypatch: pytest.MonkeyPatch) -> None:
    import accountdesk.sandbox

    served: list[dict[str, object]] = []
    monkeypatch.setattr(
        accountdesk.sandbox, "serve", lambda host, port, **options: served.append(options)
    )
    assert cli.main(["sandbox", "--port", "9999"]) == 0
    assert (served[0]["request_timeout"], served[0]["max_connections"]) == (10.0, None)
    flags = ["--request-timeout", "2.5", "--max-connections", "40"]
    assert cli.main(["sandbox", "--port", "9999", *flags]) == 0
    assert (served[1]["request_timeout"], served[1]["max_connections"]) == (2.5, 40)


@pytest.mark.parametrize(
    "flags",
    [["--request-timeout", "0"], ["--request-timeout", "nan"], ["--max-connections", "0"]],
)
def test_a_bad_sandbox_bound_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], flags: list[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        cli.main(["sandbox", "--port", "9999", *flags])
    assert exited.value.code == 2
    assert f"accountdesk: argument {flags[0]}:" in capsys.readouterr().err


def test_a_busy_port_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert cli.main(["sandbox", "--port", str(port)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"accountdesk: sandbox on 127.0.0.1:{port}: ") and err.count("\n") == 1


def test_openapi_is_printed_for_postman_or_posting(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    assert cli.main(["sandbox", "--openapi"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["openapi"].startswith("3.1") and "/accounts/{user_id}" in document["paths"]


def test_dashboard_gets_resolved_settings(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    seen: dict[str, object] = {}

    class FakeApp:
        return_code = 0
        config_problem = None  # the settings passed their check (cli prints it otherwise)

        def __init__(self, desk, *, log_level, on_first_frame):
            seen["settings"] = desk.settings
            seen["log_level"] = log_level

        def run(self) -> None:
            seen["ran"] = True

    import accountdesk.tui.app
    import accountdesk.tui.terminal

    monkeypatch.setattr(accountdesk.tui.app, "AccountDeskApp", FakeApp)
    # pytest's stdin is no terminal: this fake app needs none.
    monkeypatch.setattr(accountdesk.tui.terminal, "terminal_problem", lambda *_: None)
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


@pytest.mark.parametrize(
    ("base_url", "warned"),
    [
        ("http://api.bank.example", True),
        ("http://127.0.0.1.nip.io:8765", True),
        ("https://api.bank.example", False),
        ("http://127.0.0.1:8765", False),
        (None, False),
    ],
)
def test_plain_http_to_another_host_is_one_warning_line(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    base_url: str | None,
    warned: bool,
) -> None:
    class FakeApp:
        return_code = 0
        config_problem = None  # the settings passed their check (cli prints it otherwise)

        def __init__(self, desk: Any, **options: Any) -> None:
            pass

        def run(self) -> None:
            pass

    import accountdesk.tui.app
    import accountdesk.tui.terminal

    monkeypatch.setattr(accountdesk.tui.app, "AccountDeskApp", FakeApp)
    # The suite runs without a terminal; the app itself is faked here.
    monkeypatch.setattr(accountdesk.tui.terminal, "prepare_terminal", lambda: None)
    monkeypatch.delenv("ACCOUNTDESK_BASE_URL", raising=False)
    flags = ["--base-url", base_url] if base_url else []
    assert cli.main(["--config", str(tmp_path / "c.toml"), *flags]) == 0
    err = capsys.readouterr().err
    if warned:
        assert err.startswith("accountdesk: warning: ") and err.count("\n") == 1
        assert "not encrypted" in err
    else:
        assert err == ""


def test_bad_config_exits_2_with_a_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "c.toml"
    config.write_text('profile = "ghost"\n')
    assert cli.main(["--config", str(config)]) == 2
    assert "unknown profile 'ghost'" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (b'api_key = "\xff"', "is not UTF-8 text"),
        (b"[profiles]\nstaging = 3\n", "profiles.staging: must be a table"),
        (b"base_url = [", "is not valid TOML"),
    ],
)
def test_each_unusable_config_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes, problem: str
) -> None:
    config = tmp_path / "c.toml"
    config.write_bytes(content)
    assert cli.main(["--config", str(config)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"accountdesk: {config}: ") and problem in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_a_config_that_is_a_folder_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["--config", str(tmp_path)]) == 2
    assert capsys.readouterr().err == f"accountdesk: {tmp_path}: is a folder, not a config file\n"


@pytest.mark.parametrize("port", ["99999", "0", "http", "-1"])
def test_a_bad_sandbox_port_is_a_clear_error(capsys: pytest.CaptureFixture[str], port: str) -> None:
    with pytest.raises(SystemExit) as exited:
        cli.main(["sandbox", "--port", port])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert "accountdesk: argument --port:" in err and "Traceback" not in err


@pytest.mark.parametrize(
    ("flags", "problem"),
    [
        (["--control-token", "short"], "a control token has at least 16 characters"),
        (["--tenants", "--max-tenants", "20000"], "max_tenants must be from 1 to 10000"),
        (["--bulk-transactions", "20000000"], "bulk_transactions must be from 1 to 10,000,000"),
    ],
)
def test_a_sandbox_option_out_of_bounds_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], flags: list[str], problem: str
) -> None:
    # Checked before anything listens: the port is never bound.
    assert cli.main(["sandbox", "--port", "1", *flags]) == 2
    assert capsys.readouterr().err == f"accountdesk: sandbox: {problem}\n"


def test_version_has_one_source(capsys: pytest.CaptureFixture[str]) -> None:
    from importlib.metadata import version

    import accountdesk

    with pytest.raises(SystemExit):
        cli.main(["--version"])
    assert capsys.readouterr().out.strip() == f"accountdesk {accountdesk.__version__}"
    assert version("accountdesk") == accountdesk.__version__


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
    # The README and the manual show screenshots/: drawn again, the same picture.
    committed = Path(__file__).resolve().parents[2] / "screenshots" / "account.svg"
    assert svg == committed.read_text(), (
        "screenshots/ is stale: run accountdesk screenshots screenshots/"
    )


def test_help_keeps_paths_whole_and_explains_the_screenshot_folder(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from accountdesk.core.settings.paths import default_config_path, default_log_dir

    monkeypatch.setenv("COLUMNS", "60")
    with pytest.raises(SystemExit):
        build_parser().parse_args(["--help"])
    text = capsys.readouterr().out
    assert str(default_config_path()) in text
    assert str(default_log_dir() / "accountdesk.log") in text
    with pytest.raises(SystemExit):
        build_parser("screenshots").parse_args(["screenshots", "--help"])
    text = capsys.readouterr().out
    assert "folder to write the SVG files into" in text


def test_help_lists_every_environment_variable_the_app_reads_and_the_manual_names(
    capsys: pytest.CaptureFixture[str],
) -> None:
    import re
    from pathlib import Path

    from accountdesk.core.settings.model import environment_variables
    from accountdesk.core.settings.paths import DATA_DIR_VARIABLE

    with pytest.raises(SystemExit):
        cli.main(["--help"])
    shown = capsys.readouterr().out
    generated = [name for name, _ in environment_variables()] + [DATA_DIR_VARIABLE]
    assert [name for name in generated if name not in shown] == []
    root = Path(__file__).resolve().parents[2]
    manual = "".join(
        page.read_text() for page in [root / "README.md", *(root / "docs").rglob("*.md")]
    )
    named = set(re.findall(r"\bACCOUNTDESK_[A-Z_]+[A-Z]\b", manual))
    assert named and sorted(name for name in named if name not in shown) == []


@pytest.mark.parametrize(
    ("variable", "value", "field", "expected"),
    [
        ("ACCOUNTDESK_BASE_URL", "https://env.example", "base_url", "https://env.example"),
        ("ACCOUNTDESK_API_KEY", "env_key", "api_key", "env_key"),
        ("ACCOUNTDESK_PROFILE", "p", "profile", "p"),
        ("ACCOUNTDESK_THEME", "nord", "theme", "nord"),
        ("ACCOUNTDESK_MAX_RESPONSE_MB", "8", "max_response_mb", 8),
        ("ACCOUNTDESK_CLIPBOARD", "file", "clipboard", "file"),
    ],
)
def test_each_listed_variable_sets_its_setting(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Any,
    variable: str,
    value: str,
    field: str,
    expected: Any,
) -> None:
    from accountdesk.core.settings.model import environment_variables, load_settings

    assert variable in dict(environment_variables())
    monkeypatch.setenv(variable, value)
    config = tmp_path / "c.toml"
    if field == "profile":
        config.write_text("[profiles.p]\n")
    assert getattr(load_settings(config), field) == expected


def test_the_dashboard_takes_a_control_token(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    seen: dict[str, object] = {}

    class FakeApp:
        return_code = 0
        config_problem = None  # the settings passed their check (cli prints it otherwise)

        def __init__(self, desk, *, log_level, on_first_frame):
            seen["settings"] = desk.settings

        def run(self) -> None:
            pass

    import accountdesk.tui.app
    import accountdesk.tui.terminal

    monkeypatch.setattr(accountdesk.tui.app, "AccountDeskApp", FakeApp)
    # pytest's stdin is no terminal: this fake app needs none.
    monkeypatch.setattr(accountdesk.tui.terminal, "terminal_problem", lambda *_: None)
    token = "trainer-control-token-0123456789"
    argv = ["--config", str(tmp_path / "c.toml"), "--base-url", "http://trainer.example:8765"]
    assert cli.main([*argv, "--control-token", token]) == 0
    settings = seen["settings"]
    assert settings.sandbox_control_token.get_secret_value() == token
    help_text = build_parser().format_help()
    assert "--control-token" in help_text and "ACCOUNTDESK_SANDBOX_CONTROL_TOKEN" in help_text


def test_the_sandbox_command_on_the_client_alone_says_what_to_install(tmp_path: Path) -> None:
    # `pip install accountdesk` is the client: httpx and pydantic, no sandbox
    # extra. The served sandbox's packages are hidden from a real process.
    import subprocess
    import sys

    from hidden_packages import environment_without

    hidden = {
        "starlette",
        "uvicorn",
        "h11",
        "textual",
        "platformdirs",
        "pydantic_settings",
        "tomlkit",
    }
    env = environment_without(hidden, tmp_path / "hide")
    done = subprocess.run(
        [sys.executable, "-m", "accountdesk", "sandbox", "--port", "1"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert done.stderr.startswith("accountdesk: this needs") and "pip install" in done.stderr
