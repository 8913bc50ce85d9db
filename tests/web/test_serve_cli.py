"""``accountdesk serve`` on the command line: flags, refusals, a busy port; one line and exit 2."""

from __future__ import annotations

import socket
import sys
from pathlib import Path

import pytest

import accountdesk.web
from accountdesk import cli
from accountdesk.cli.parser import build_parser
from accountdesk.web.options import ServeOptions


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[ServeOptions]:
    """What ``serve`` would have served (nothing is bound or run)."""
    for name in ("BASE_URL", "API_KEY", "API_SECRET", "PROFILE"):
        monkeypatch.delenv(f"ACCOUNTDESK_{name}", raising=False)
    calls: list[ServeOptions] = []

    class Listener:
        def getsockname(self) -> tuple[str, int]:
            return ("127.0.0.1", 8000)

    monkeypatch.setattr(accountdesk.web, "bind", lambda host, port: Listener())
    monkeypatch.setattr(
        accountdesk.web, "run", lambda options, listener, on_ready: calls.append(options)
    )
    return calls


def _config(tmp_path: Path, text: str = "") -> str:
    path = tmp_path / "config.toml"
    path.write_text(text)
    return str(path)


def test_serve_defaults_to_loopback_port_8000_and_the_sandbox(
    served: list[ServeOptions], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Neither the environment nor the config file may put a demo page on a live service.
    monkeypatch.setenv("ACCOUNTDESK_BASE_URL", "https://env.example")
    config = _config(tmp_path, 'base_url = "https://file.example"\n')
    assert cli.main(["--config", config, "serve"]) == 0
    [options] = served
    assert (options.host, options.port, options.base_url) == ("127.0.0.1", 8000, None)
    assert "--sandbox" in options.session_argv()


@pytest.mark.parametrize("before", [True, False])
def test_the_dashboard_flags_reach_each_session(
    served: list[ServeOptions], tmp_path: Path, before: bool
) -> None:
    config = _config(tmp_path, '[profiles.demo]\ntheme = "nord"\n')
    flags = ["--base-url", "HTTPS://API.Bank.example/", "--profile", "demo", "--config", config]
    argv = [*flags, "serve", "--port", "8123"] if before else ["serve", "--port", "8123", *flags]
    assert cli.main(argv) == 0
    [options] = served
    assert options.port == 8123 and options.base_url == "https://api.bank.example"
    session = options.session_argv()
    assert session[:3] == [sys.executable, "-m", "accountdesk"]
    assert session[session.index("--base-url") + 1] == "https://api.bank.example"
    assert session[session.index("--profile") + 1] == "demo"
    assert session[session.index("--config") + 1] == config


@pytest.mark.parametrize("present", [True, False])
def test_serve_present_makes_every_session_present_and_locked(
    served: list[ServeOptions], present: bool
) -> None:
    # The page cannot turn it off: each session is started locked, not merely on.
    assert cli.main(["serve", *(["--present"] if present else [])]) == 0
    [options] = served
    session = options.session_argv()
    args = build_parser().parse_args(session[3:])
    assert (bool(args.present), args.present_locked) == (present, present)


def test_sandbox_flag_wins_over_a_base_url(served: list[ServeOptions], tmp_path: Path) -> None:
    argv = ["--sandbox", "--base-url", "https://api.bank.example", "--config", _config(tmp_path)]
    assert cli.main([*argv, "serve"]) == 0
    assert served[0].base_url is None


def test_another_host_on_the_sandbox_warns_and_serves(
    served: list[ServeOptions], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["--config", _config(tmp_path), "serve", "--host", "0.0.0.0"]) == 0
    err = capsys.readouterr().err
    assert "accountdesk: serve: warning: 0.0.0.0 port 8000 is reachable from other machines" in err
    assert served and served[0].host == "0.0.0.0"


def test_a_live_service_on_another_host_is_refused(
    served: list[ServeOptions], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["--config", _config(tmp_path), "serve", "--host", "0.0.0.0"]
    assert cli.main([*argv, "--base-url", "https://api.bank.example"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("accountdesk: serve: refusing to serve the live service")
    assert err.count("\n") == 1 and not served
    assert cli.main([*argv, "--base-url", "https://api.bank.example", "--allow-remote-live"]) == 0
    assert "act on real accounts" in capsys.readouterr().err and len(served) == 1


def test_remote_live_over_plain_http_is_refused(
    served: list[ServeOptions], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Anyone reaching the page would sign in, and the secret would cross the network in clear.
    argv = ["--config", _config(tmp_path), "serve", "--host", "0.0.0.0", "--allow-remote-live"]
    assert cli.main([*argv, "--base-url", "http://api.bank.example"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("accountdesk: serve: refusing") and err.count("\n") == 1
    assert "not encrypted" in err and not served


def test_plain_http_to_another_host_on_loopback_serves_with_a_warning(
    served: list[ServeOptions], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["--config", _config(tmp_path), "serve", "--base-url", "http://api.bank.example"]
    assert cli.main(argv) == 0
    err = capsys.readouterr().err
    assert "accountdesk: serve: warning: " in err and "not encrypted" in err
    assert len(served) == 1


def test_the_address_printed_holds_a_new_token_each_run(
    served: list[ServeOptions],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("ACCOUNTDESK_SERVE_TOKEN", raising=False)
    config = _config(tmp_path)
    assert cli.main(["--config", config, "serve"]) == 0
    assert cli.main(["--config", config, "serve"]) == 0
    first, second = (options.token for options in served)
    assert first and second and first != second and len(first) >= 40


def test_a_token_is_taken_from_the_flag_or_the_environment(
    served: list[ServeOptions], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = _config(tmp_path)
    monkeypatch.setenv("ACCOUNTDESK_SERVE_TOKEN", "from-the-environment-0123")
    assert cli.main(["--config", config, "serve"]) == 0
    assert cli.main(["--config", config, "serve", "--token", "from-the-flag-0123456"]) == 0
    assert [options.token for options in served] == [
        "from-the-environment-0123",
        "from-the-flag-0123456",
    ]


@pytest.mark.parametrize(
    ("flag", "variable"),
    [("short", None), ("has space in it 0123", None), (None, "tök-0123456789abcdef")],
)
def test_an_unusable_token_is_one_line_and_exit_2(
    served: list[ServeOptions],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    flag: str | None,
    variable: str | None,
) -> None:
    if variable is None:
        monkeypatch.delenv("ACCOUNTDESK_SERVE_TOKEN", raising=False)
    else:
        monkeypatch.setenv("ACCOUNTDESK_SERVE_TOKEN", variable)
    argv = ["--config", _config(tmp_path), "serve", *(["--token", flag] if flag else [])]
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    where = "--token" if flag else "ACCOUNTDESK_SERVE_TOKEN"
    assert err.startswith(f"accountdesk: serve: {where}: a token is 16 to 256 of ")
    assert err.count("\n") == 1 and not served
    assert (flag or variable or "") not in err  # a secret is not repeated


@pytest.mark.parametrize("port", ["99999", "0", "http"])
def test_a_bad_port_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str], port: str) -> None:
    with pytest.raises(SystemExit) as exited:
        cli.main(["serve", "--port", port])
    assert exited.value.code == 2
    assert "accountdesk: argument --port:" in capsys.readouterr().err


def test_a_bad_base_url_or_config_is_one_line_and_exit_2(
    served: list[ServeOptions], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = _config(tmp_path)
    assert cli.main(["--config", config, "serve", "--base-url", "ftp://x.example"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("accountdesk: --base-url: ") and err.count("\n") == 1
    broken = _config(tmp_path, "base_url = [")
    assert cli.main(["--config", broken, "serve"]) == 2
    err = capsys.readouterr().err
    assert "is not valid TOML" in err and err.count("\n") == 1 and not served


@pytest.mark.loopback
def test_a_busy_port_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code = cli.main(["--config", _config(tmp_path), "serve", "--port", str(port)])
    assert code == 2
    err = capsys.readouterr().err
    assert err.startswith(f"accountdesk: serve on 127.0.0.1:{port}: ") and err.count("\n") == 1
    assert "Traceback" not in err


def test_without_textual_serve_the_extra_is_named(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "accountdesk.web", None)
    assert cli.main(["serve"]) == 2
    assert "pip install 'accountdesk[serve]'" in capsys.readouterr().err


def test_serve_help_names_the_risk(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        build_parser("serve").parse_args(["serve", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for words in (
        "--host",
        "--port",
        "--token",
        "ACCOUNTDESK_SERVE_TOKEN",
        "--allow-remote-live",
        "--base-url",
        "its own dashboard",
    ):
        assert words in text
