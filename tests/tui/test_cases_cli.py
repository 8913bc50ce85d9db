"""``accountdesk scenarios``, ``accountdesk record`` and ``--scenarios``: what they do, one line per mistake."""

from __future__ import annotations

import json
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from accountdesk import cli
from accountdesk.core.tours.tour import TourFileError, load_tour
from accountdesk.sandbox import load_scenarios
from accountdesk.sandbox.packs.reading import shipped_pack_path

EXAMPLE = shipped_pack_path("fi-paused-mfa-locks.toml")


def _pack(tmp_path: Path, text: str, name: str = "pack.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_scenarios_check_says_what_each_user_does(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["scenarios", "check", str(EXAMPLE)]) == 0
    out = capsys.readouterr().out
    assert f'{EXAMPLE} "FI paused, MFA locks": 1 user' in out
    assert "answers get_balance: 400 AC-106" in out
    assert "MFA on every job (answer 246810, 2 attempts); session the sandbox's, block 600 s" in out
    assert out.rstrip().endswith("OK: 1 pack, 1 user")
    assert cli.main(["scenarios", "check"]) == 0  # without a file: the shipped packs
    out = capsys.readouterr().out
    assert 'the shipped default pack "accountdesk\'s scenario users": 8 users' in out
    assert "user_fi_down: every /accounts/user_fi_down... endpoint: 400 AC-104" in out


def test_scenarios_check_of_a_bad_pack_is_one_line_a_problem_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = _pack(tmp_path, '[[users]]\nid = "x"\nsumary = 1\n[users.balance]\navailable = 5\n')
    assert cli.main(["scenarios", "check", str(bad)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err == [
        f"accountdesk: {bad}: line 3: users[1] (x).sumary: unknown key; did you mean 'summary'?",
        (
            f"accountdesk: {bad}: line 5: users[1] (x).balance.available: expected text in quotes, "
            "got an integer"
        ),
    ]


def test_scenarios_schema_is_the_models_json_schema(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["scenarios", "schema"]) == 0
    schema = json.loads(capsys.readouterr().out)
    assert schema["$schema"].endswith("2020-12/schema") and "users" in schema["properties"]
    assert cli.main(["scenarios"]) == 2


def test_the_sandbox_serves_packs_and_refuses_bad_ones(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import accountdesk.sandbox

    served: list[Any] = []
    monkeypatch.setattr(accountdesk.sandbox, "serve", lambda *a, **k: served.append(k["app"]))
    own = _pack(tmp_path, '[[users]]\nid = "mine"\n')
    assert cli.main(["sandbox", "--scenarios", str(own), "--scenarios", str(EXAMPLE)]) == 0
    users = served[-1].state.engine.scenarios
    assert list(users)[-2:] == ["mine", "paused_and_locked"] and "user_good" in users
    assert capsys.readouterr().out.splitlines() == [  # the trainer sees what is served
        f"scenario pack {own}: mine",
        f"scenario pack {EXAMPLE}: paused_and_locked",
    ]
    assert cli.main(["sandbox", "--scenarios-only", "--scenarios", str(own)]) == 0
    assert list(served[-1].state.engine.scenarios) == ["mine"]
    twice = _pack(tmp_path, '[[users]]\nid = "mine"\n', "twice.toml")
    assert cli.main(["sandbox", "--scenarios", str(own), "--scenarios", str(twice)]) == 2
    err = capsys.readouterr().err
    assert err == (
        f"accountdesk: {twice}: users[1] (mine): the user id is defined twice: here and in {own}\n"
    )
    assert cli.main(["sandbox", "--scenarios-only"]) == 2
    assert "--scenarios-only needs --scenarios FILE" in capsys.readouterr().err
    assert len(served) == 2


def test_the_app_takes_packs_for_its_embedded_sandbox_only(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    seen: dict[str, Any] = {}

    class FakeApp:
        return_code = 0
        config_problem = None  # the settings passed their check (cli prints it otherwise)

        def __init__(self, desk, *, log_level, on_first_frame):
            seen["options"] = desk.connection.sandbox_options

        def run(self) -> None:
            pass

    import accountdesk.tui.app
    import accountdesk.tui.terminal

    monkeypatch.setattr(accountdesk.tui.app, "AccountDeskApp", FakeApp)
    monkeypatch.setattr(accountdesk.tui.terminal, "terminal_problem", lambda *_: None)
    config = str(tmp_path / "c.toml")
    assert cli.main(["--config", config, "--scenarios", str(EXAMPLE)]) == 0
    assert "paused_and_locked" in seen["options"]["scenarios"].users
    live = [
        "--config",
        config,
        "--base-url",
        "https://api.bank.example",
        "--scenarios",
        str(EXAMPLE),
    ]
    assert cli.main(live) == 2
    assert capsys.readouterr().err == (
        "accountdesk: --scenarios: scenario packs are for the embedded sandbox, not a live service\n"
    )
    assert cli.main(["--config", config, "--scenarios", str(EXAMPLE), "demo"]) == 2
    assert "demo: takes no --scenarios (a tour names its own packs)" in capsys.readouterr().err
    # Only demo runs tours: explain is told so plainly.
    assert cli.main(["--scenarios", str(EXAMPLE), "explain", "AC-108"]) == 2
    assert capsys.readouterr().err.endswith("explain: takes no --scenarios\n")


def test_record_from_the_embedded_sandbox_appends_and_refuses_to_overwrite(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "cases.toml"
    base = ["--config", str(tmp_path / "c.toml"), "record"]
    assert cli.main([*base, "user_fi_paused", "-o", str(out)]) == 0
    printed = capsys.readouterr().out
    assert printed.startswith(f"Recorded user_fi_paused as case_1 (redacted) into {out}\n")
    assert "  get_balance         400 AC-106 For security purposes" in printed
    assert printed.rstrip().endswith(f"Serve it: accountdesk sandbox --scenarios {out}")
    assert stat.S_IMODE(out.stat().st_mode) == 0o600
    assert cli.main([*base, "user_manual", "-o", str(out)]) == 2
    assert "exists: --append adds the user to it, --force replaces it" in capsys.readouterr().err
    assert cli.main([*base, "user_manual", "-o", str(out), "--append"]) == 0
    assert list(load_scenarios([out], shipped_users=False).users) == ["case_1", "case_2"]
    assert cli.main([*base, "user_good", "-o", str(out), "--append", "--as", "case_1"]) == 1
    assert "the pack already has a user case_1" in capsys.readouterr().err
    assert cli.main([*base, "user_good", "-o", str(out), "--force", "--no-redact"]) == 0
    assert "(user_good replaces the shipped user)" in capsys.readouterr().out
    assert list(load_scenarios([out], shipped_users=False).users) == ["user_good"]


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["user_x", "-o", "{tmp}"], "is a folder; -o names the pack file to write"),
        (["user_x", "-o", "{tmp}/a.toml", "--as", "../x"], "--as '../x': '/' is not allowed"),
        (["a@b", "-o", "{tmp}/a.toml", "--no-redact"], "'a@b' cannot be a sandbox user id"),
        (["user_nobody", "-o", "{tmp}/a.toml"], "AC-102: the service does not know this user"),
        (["user_x", "-o", "{tmp}/a.toml", "--job-wait", "-1"], "--job-wait is 0 to 600 seconds"),
    ],
)
def test_record_mistakes_are_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], expected: str
) -> None:
    argv = [part.replace("{tmp}", str(tmp_path)) for part in argv]
    assert cli.main(["--config", str(tmp_path / "c.toml"), "record", *argv]) in (1, 2)
    err = capsys.readouterr().err
    assert expected in err and err.count("\n") == 1 and err.startswith("accountdesk: record: ")
    assert not (tmp_path / "a.toml").exists()


def test_record_prints_no_traceback_when_the_service_is_not_there(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "accountdesk", "--config", str(tmp_path / "c.toml"),
         "--base-url", "http://127.0.0.1:9", "record", "u", "-o", str(tmp_path / "a.toml"),
         "--api-key", "k"],
        capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL,
        env={**__import__("os").environ, "ACCOUNTDESK_API_SECRET": "s"},
    )  # fmt: skip
    assert result.returncode == 1, result.stderr
    assert result.stderr.startswith("accountdesk: record: sign-in refused: Cannot connect")
    assert "Traceback" not in result.stderr and result.stderr.count("\n") == 1


# -- tours with packs ----------------------------------------------------------------------


def test_a_tour_names_its_packs_relative_to_itself(tmp_path: Path) -> None:
    (tmp_path / "packs").mkdir()
    pack = _pack(tmp_path / "packs", '[[users]]\nid = "mine"\n', "mine.toml")
    tour = _pack(
        tmp_path,
        'title = "T"\nsummary = "S"\nscenarios = ["packs/mine.toml"]\n'
        '[[steps]]\ndo = "look_up"\nuser = "mine"\nsay = "Mine."\n',
        "tour.toml",
    )
    assert load_tour(tour).scenario_files == (pack,)
    missing = _pack(tmp_path, 'title = "T"\nsummary = "S"\nscenarios = "nope.toml"\n'
                    '[[steps]]\nsay = "x"\n', "missing.toml")  # fmt: skip
    with pytest.raises(TourFileError, match=r"missing.toml: scenarios: nope.toml: no such file"):
        load_tour(missing)


def test_demo_checks_a_tours_packs_first(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _pack(tmp_path, '[[credentials]]\napi_key = "sandbox_key"\napi_secret = "s"\n', "clash.toml")
    tour = _pack(
        tmp_path,
        'title = "T"\nsummary = "S"\nscenarios = "clash.toml"\n[[steps]]\nsay = "x"\n',
        "tour.toml",
    )
    assert cli.main(["--config", str(tmp_path / "c.toml"), "demo", "--file", str(tour)]) == 2
    assert capsys.readouterr().err == (
        f"accountdesk: tour tour: scenarios: {tmp_path / 'clash.toml'}: credentials[1]: "
        "API key sandbox_key is defined twice: here and in the shipped default pack\n"
    )
