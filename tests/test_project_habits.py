"""The habits of a project others carry on: a licence, a changelog kept, commit hooks that are CI's."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_licence_is_the_one_the_package_declares() -> None:
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["license"]["text"]
    assert declared == "MIT"
    assert (ROOT / "LICENSE").read_text().startswith("MIT License\n")


def test_the_changelog_keeps_a_changelog_with_an_unreleased_section() -> None:
    text = (ROOT / "CHANGELOG.md").read_text()
    assert "https://keepachangelog.com/en/1.1.0/" in text
    sections = re.findall(r"^## \[([^\]]+)\]", text, flags=re.MULTILINE)
    assert sections and sections[0] == "Unreleased"
    kinds = set(re.findall(r"^### (\w+)$", text, flags=re.MULTILINE))
    assert kinds <= {"Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"}, kinds


def test_each_commit_hook_runs_a_check_ci_runs() -> None:
    # The hooks are local (the installed versions): each entry is a command .ci/run runs.
    config = (ROOT / ".pre-commit-config.yaml").read_text()
    ci = (ROOT / ".ci" / "run").read_text()
    entries = re.findall(r"^\s+entry: (.+)$", config, flags=re.MULTILINE)
    assert len(entries) == 4
    for entry in entries:
        command = entry.replace(" --force-exclude", "")
        assert f".venv-checks/bin/{command}" in ci, command
