"""The command line prints a pack's, a tour's or the service's text only through the one sanitiser.

``accountdesk scenarios check`` is what the manual tells a trainer to run on
a pack received from elsewhere: nothing in that pack (a key, a text, its
file name) may drive the terminal, nor anything printed by ``sandbox
--scenarios``, ``record``, ``demo`` or ``explain`` (issue 33, item 1).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from accountdesk import cli
from accountdesk.contract.sanitise import has_unsafe_characters

#: A screen wipe, a clipboard write (OSC 52), a link (OSC 8), a bidi override.
HOSTILE = "\x1b[2J\x1b]52;c;aGk=\x07\x1b]8;;https:e.example\x07x\x1b]8;;\x07\u202e"


def _inert(text: str) -> None:
    for line in text.splitlines():
        assert not has_unsafe_characters(line), repr(line)


def _file(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def test_scenarios_check_of_a_hostile_pack_is_refused_and_printed_inert(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    value = json.dumps(HOSTILE)  # TOML's escapes are JSON's
    pack = _file(
        tmp_path,
        "pack.toml",
        f"title = {value}\n{value} = 1\n[[users]]\nid = 'case_1'\nsummary = {value}\n"
        f"[users.account]\ninstitution_name = {value}\n[users.mfa]\nanswer = '1'\n"
        f"question = {value}\n",
    )
    assert cli.main(["scenarios", "check", str(pack)]) == 2
    printed = capsys.readouterr()
    assert printed.out == ""
    _inert(printed.err)
    lines = printed.err.splitlines()
    assert all(line.startswith(f"accountdesk: {pack}: ") for line in lines)
    assert len(lines) == 5 and sum("control characters are not allowed" in x for x in lines) == 4
    # The unknown key is named as it is, made visible.
    assert any("␛[2J␛]52;c;aGk=␇" in line and "unknown key" in line for line in lines)


def test_scenarios_check_prints_a_hostile_file_name_inert(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pack = _file(tmp_path, f"{HOSTILE}.toml", "title = 'Mine'\n[[users]]\nid = 'case_1'\n")
    assert cli.main(["scenarios", "check", str(pack)]) == 0
    out = capsys.readouterr().out
    _inert(out)
    assert "␛[2J␛]52;c;aGk=␇" in out and '.toml "Mine": 1 user' in out
    assert out.rstrip().endswith("OK: 1 pack, 1 user")


def test_the_sandbox_banner_names_a_hostile_pack_inert(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import accountdesk.sandbox

    monkeypatch.setattr(accountdesk.sandbox, "serve", lambda *a, **k: None)
    pack = _file(tmp_path, f"{HOSTILE}.toml", "[[users]]\nid = 'mine'\n")
    assert cli.main(["sandbox", "--scenarios", str(pack)]) == 0
    out = capsys.readouterr().out
    _inert(out)
    assert out.startswith("scenario pack ") and out.rstrip().endswith("‹U+202E›.toml: mine")


def test_record_prints_a_hostile_file_name_inert(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / f"{HOSTILE}.toml"
    base = ["--config", str(tmp_path / "c.toml"), "record", "user_fi_paused", "-o", str(out)]
    assert cli.main(base) == 0
    printed = capsys.readouterr().out
    _inert(printed)
    assert printed.startswith("Recorded user_fi_paused as case_1 (redacted) into ")
    assert cli.main(base) == 2  # it exists now: said in one line, inert too
    err = capsys.readouterr().err
    _inert(err)
    assert err.count("\n") == 1 and "exists: --append adds the user to it" in err


def test_demo_prints_a_hostile_tour_file_name_and_its_packs_problems_inert(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = ["--config", str(tmp_path / "c.toml"), "demo", "--file"]
    assert cli.main([*config, str(tmp_path / f"{HOSTILE}.toml")]) == 2
    err = capsys.readouterr().err
    _inert(err)
    assert err.count("\n") == 1 and "‹U+202E›.toml" in err
    _file(tmp_path, "pack.toml", f"[[users]]\nid = 'mine'\nsummary = {json.dumps(HOSTILE)}\n")
    tour = _file(
        tmp_path,
        "tour.toml",
        'title = "T"\nsummary = "S"\nscenarios = "pack.toml"\n[[steps]]\nsay = "x"\n',
    )
    assert cli.main([*config, str(tour)]) == 2
    err = capsys.readouterr().err
    _inert(err)
    assert err.count("\n") == 1 and "summary: control characters are not allowed" in err


def test_explain_echoes_a_hostile_code_inert(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["explain", HOSTILE]) == 2
    printed: Any = capsys.readouterr()
    _inert(printed.err)
    assert printed.err.count("\n") == 1 and "is not a code accountdesk knows" in printed.err
