"""``accountdesk completion SHELL``: scripts generated from the parser, that complete in a real bash."""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from accountdesk import cli
from accountdesk.cli.completion import SHELLS, completion_script
from accountdesk.cli.parser import build_parser


def _commands_and_flags(parser: argparse.ArgumentParser) -> tuple[set[str], set[str]]:
    commands: set[str] = set()
    flags: set[str] = set()
    for action in parser._actions:
        if action.help == argparse.SUPPRESS:
            continue  # hidden: for the app's own use (web mode's locked sessions)
        flags.update(option for option in action.option_strings if option.startswith("--"))
        if isinstance(action, argparse._SubParsersAction):
            for name, child in action.choices.items():
                commands.add(name)
                more_commands, more_flags = _commands_and_flags(child)
                commands |= more_commands
                flags |= more_flags
    return commands, flags


@pytest.mark.parametrize("shell", SHELLS)
def test_the_script_names_every_command_and_flag_of_the_parser(
    shell: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["completion", shell]) == 0
    script = capsys.readouterr().out
    commands, flags = _commands_and_flags(build_parser(every=True))
    assert {"sandbox", "explain", "completion", "check"} <= commands
    assert [name for name in sorted(commands) if name not in script] == []
    # fish spells a flag without its dashes (`-l base-url`).
    assert [flag for flag in sorted(flags) if flag.removeprefix("--") not in script] == []
    # A hidden flag is not offered: web mode's sessions pass it, not a person.
    assert "present-locked" not in script


def _bash_complete(script: Path, words: list[str], tmp_path: Path) -> list[str]:
    """What bash offers after ``words`` (the last one being typed), with the script loaded."""
    line = " ".join(words)
    program = f"""
source {script}
COMP_WORDS=({line})
COMP_CWORD={len(words) - 1}
COMP_LINE="{line}"
COMP_POINT=${{#COMP_LINE}}
_shtab_accountdesk
printf '%s\\n' "${{COMPREPLY[@]}}"
"""
    done = subprocess.run(
        ["bash", "--norc", "--noprofile", "-c", program],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=20,
    )
    assert done.returncode == 0, done.stderr
    return [word.strip() for word in done.stdout.splitlines() if word.strip()]


@pytest.mark.skipif(shutil.which("bash") is None, reason="no bash on this machine")
def test_bash_completes_commands_flags_choices_and_files(tmp_path: Path) -> None:
    script = tmp_path / "accountdesk.bash"
    script.write_text(completion_script(build_parser(every=True), "bash"), encoding="utf-8")
    (tmp_path / "room.toml").write_text("", encoding="utf-8")
    assert _bash_complete(script, ["accountdesk", "sa"], tmp_path) == ["sandbox"]
    assert "--tenants" in _bash_complete(script, ["accountdesk", "sandbox", "--te"], tmp_path)
    assert _bash_complete(script, ["accountdesk", "completion", "f"], tmp_path) == ["fish"]
    assert _bash_complete(script, ["accountdesk", "--log-level", "de"], tmp_path) == ["debug"]
    # A pack is a file: its name completes.
    assert _bash_complete(script, ["accountdesk", "sandbox", "--scenarios", "ro"], tmp_path) == [
        "room.toml"
    ]


@pytest.mark.skipif(shutil.which("bash") is None, reason="no bash on this machine")
def test_bash_completes_the_codes_explain_knows_and_the_tours_demo_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = tmp_path / "accountdesk.bash"
    script.write_text(completion_script(build_parser(every=True), "bash"), encoding="utf-8")
    assert _bash_complete(script, ["accountdesk", "explain", "AC-10"], tmp_path) == [
        f"AC-10{digit}" for digit in range(10)
    ]
    assert _bash_complete(script, ["accountdesk", "explain", "still"], tmp_path) == [
        "still-running"
    ]
    assert _bash_complete(script, ["accountdesk", "demo", "lo"], tmp_path) == ["lockout"]
    # The command itself still takes a code as people type it (not only the listed ones).
    assert cli.main(["explain", "ac108"]) == 0
    assert "AC-108" in capsys.readouterr().out


def test_an_unknown_shell_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        cli.main(["completion", "tcsh"])
    assert exit_.value.code == 2
    assert "invalid choice: 'tcsh'" in capsys.readouterr().err


def test_without_shtab_one_line_names_the_extra(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The client-only install has no shtab (it comes with accountdesk[app]).
    monkeypatch.setitem(sys.modules, "shtab", None)
    assert cli.main(["completion", "bash"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (
        "accountdesk: completion needs shtab, which the dashboard's extra installs; "
        "pip install 'accountdesk[app]'\n"
    )
