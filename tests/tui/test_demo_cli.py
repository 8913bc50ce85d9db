"""``accountdesk demo``: the tours it starts, on what, and one line and exit 2 for every mistake."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from accountdesk import cli
from accountdesk.core.tours.demo import StoppedClock
from accountdesk.core.tours.tour import Tour, shipped_tours


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """What ``accountdesk demo`` would run, instead of running it."""
    seen: dict[str, Any] = {}

    class FakeApp:
        return_code = 0

        def __init__(self, desk, *, log_level, on_first_frame, tour):
            seen.update(desk=desk, tour=tour, data_dir=desk.dirs.data_dir)
            seen["data_dir_existed"] = desk.dirs.data_dir.is_dir()

        def run(self) -> None:
            seen["ran"] = True

    import accountdesk.tui.app
    import accountdesk.tui.terminal

    monkeypatch.setattr(accountdesk.tui.app, "AccountDeskApp", FakeApp)
    # pytest's stdin is no terminal: this fake app needs none.
    monkeypatch.setattr(accountdesk.tui.terminal, "terminal_problem", lambda *_: None)
    return seen


def test_demo_offers_every_shipped_tour_on_a_fresh_embedded_sandbox(
    started: dict[str, Any], tmp_path: Path
) -> None:
    config = tmp_path / "config.toml"
    # A config for a live service: the demo still runs on the sandbox, with its key.
    config.write_text('base_url = "https://api.bank.example"\napi_key = "live_key"\n')
    assert cli.main(["--config", str(config), "demo"]) == 0
    desk = started["desk"]
    assert started["ran"] and desk.embedded and desk.settings.api_key == "sandbox_key"
    assert [tour.id for tour in started["tour"]] == [tour.id for tour in shipped_tours()]
    # Its files lived in a scratch folder, gone after the run.
    assert started["data_dir_existed"] and not started["data_dir"].exists()
    assert isinstance(desk.clock, StoppedClock)  # the app clock follows the sandbox's


def test_demo_tour_starts_that_tour(started: dict[str, Any], tmp_path: Path) -> None:
    assert cli.main(["--config", str(tmp_path / "c.toml"), "demo", "lockout"]) == 0
    assert isinstance(started["tour"], Tour) and started["tour"].id == "lockout"


def test_demo_file_starts_ones_own_tour(started: dict[str, Any], tmp_path: Path) -> None:
    mine = tmp_path / "drill.toml"
    mine.write_text('title = "Drill"\nsummary = "s"\n[[steps]]\ndo = "sign_in"\nsay = "In."\n')
    assert cli.main(["--config", str(tmp_path / "c.toml"), "demo", "--file", str(mine)]) == 0
    assert started["tour"].id == "drill" and started["tour"].title == "Drill"


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["demo", "nosuch"], "accountdesk: demo: no tour 'nosuch'; the tours are: sign-in, "),
        (["demo", "mfa", "--file", "x.toml"], "accountdesk: demo: give a tour's id or --file"),
        (["--base-url", "https://api.bank.example", "demo"], "accountdesk: demo: tours run on"),
    ],
)
def test_demo_mistakes_are_one_line_and_exit_2(
    started: dict[str, Any], capsys: pytest.CaptureFixture[str], argv: list[str], expected: str
) -> None:
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith(expected) and err.count("\n") == 1
    assert "ran" not in started


def test_a_bad_tour_file_names_file_step_and_field(
    started: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(
        'title = "Bad"\nsummary = "s"\n'
        '[[steps]]\ndo = "sign_in"\nsay = "In."\n'
        '[[steps]]\ndo = "look_up"\nuser = "user_good"\nsay = "Open."\n'
        '[[steps]]\ndo = "advance_clock"\nsay = "Later."\n'
    )
    assert cli.main(["demo", "--file", str(bad)]) == 2
    assert capsys.readouterr().err == (
        f"accountdesk: {bad}: step 3: seconds: advance_clock needs seconds\n"
    )
    assert "ran" not in started


def test_the_real_command_prints_no_traceback(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('title = "Bad"\nsummary = "s"\n[[steps]]\ndo = "fly"\nsay = "x"\n')
    done = subprocess.run(
        [sys.executable, "-m", "accountdesk", "demo", "--file", str(bad)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr.startswith(f"accountdesk: {bad}: step 1: do: 'fly' is not an action")
    assert "Traceback" not in done.stderr


def test_demo_list_prints_the_tours_for_a_lesson_plan(
    started: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["demo", "--list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    tours = shipped_tours()
    assert lines[0].split() == ["id", "steps", "title"]
    assert [line.split()[0] for line in lines[1:]] == [tour.id for tour in tours]
    for line, tour in zip(lines[1:], tours, strict=True):
        assert line.split()[1] == str(len(tour.steps)) and line.endswith(tour.title)
    assert all(len(line) <= 80 for line in lines)
    assert "ran" not in started  # nothing started, no sandbox


def test_demo_list_json_has_every_step(
    started: dict[str, Any], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    import json

    assert cli.main(["demo", "--list", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    tours = shipped_tours()
    assert [entry["id"] for entry in listed] == [tour.id for tour in tours]
    mfa = next(entry for entry in listed if entry["id"] == "mfa")
    tour = next(tour for tour in tours if tour.id == "mfa")
    assert mfa["title"] == tour.title and mfa["summary"] == tour.summary
    assert [step["do"] for step in mfa["steps"]] == [str(step.do) for step in tour.steps]
    assert mfa["steps"][0]["say"] == tour.steps[0].say
    assert {"expect", "look"} <= set(mfa["steps"][0])
    # Secrets typed by a step (a wrong one, on purpose) are not printed.
    sign_in = next(entry for entry in listed if entry["id"] == "sign-in")
    assert all("secret" not in step for step in sign_in["steps"])
    # One's own file lists too.
    mine = tmp_path / "drill.toml"
    mine.write_text('title = "Drill"\nsummary = "s"\n[[steps]]\ndo = "sign_in"\nsay = "In."\n')
    assert cli.main(["demo", "--list", "--file", str(mine)]) == 0
    assert capsys.readouterr().out.splitlines()[1].split() == ["drill", "1", "Drill"]
    assert cli.main(["demo", "--json"]) == 2  # --json goes with --list
    assert "--list" in capsys.readouterr().err
