"""Every shell example in the manual and the README either runs in a test or says why not.

A shell block (```bash, sh, shell, console, zsh, fish) is preceded by one marker:

    <!-- example: tested in tests/test_docs_examples.py -->   run here, each line must succeed
    <!-- example: tested by .ci/run ... -->                     each line is a line .ci/run runs
    <!-- example: illustrative: WHY -->                         not run; the reason is required

so an example nobody runs is a decision written beside it, never an accident.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import Path

import pytest

from accountdesk import cli

ROOT = Path(__file__).resolve().parents[1]
SHELLS = frozenset({"bash", "sh", "shell", "console", "zsh", "fish"})
TESTED_HERE = "tested in tests/test_docs_examples.py"
TESTED_BY_CI = "tested by .ci/run"
_MARKER = re.compile(r"^<!-- example: (.*?) -->$")
_FENCE = re.compile(r"^(`{3,}|~{3,})\s*([\w+-]*)")


@dataclass(frozen=True)
class Example:
    """One shell block: where it is, its marker (None: unmarked) and its lines."""

    where: str
    marker: str | None
    lines: tuple[str, ...]


def shell_examples(text: str, where: str) -> list[Example]:
    """The shell blocks of a Markdown text, each with the marker on the line before it."""
    found: list[Example] = []
    lines = text.splitlines()
    index = 0
    while index < len(lines):
        opening = _FENCE.match(lines[index].strip())
        if not opening:
            index += 1
            continue
        fence, language = opening.groups()
        end = index + 1
        while end < len(lines) and not lines[end].strip().startswith(fence):
            end += 1
        if language in SHELLS:
            before = next((line for line in reversed(lines[:index]) if line.strip()), "")
            marker = _MARKER.match(before.strip())
            found.append(
                Example(
                    f"{where}:{index + 1}",
                    marker[1] if marker else None,
                    tuple(lines[index + 1 : end]),
                )
            )
        index = end + 1
    return found


def marking_problems(examples: list[Example]) -> list[str]:
    """Examples with no marker, an unknown one, or 'illustrative' without a reason."""
    problems = []
    for example in examples:
        marker = example.marker
        if marker is None:
            problems.append(f"{example.where}: a shell example with no <!-- example: ... --> line")
        elif marker.startswith("illustrative"):
            if not marker.removeprefix("illustrative").strip(" :"):
                problems.append(f"{example.where}: 'illustrative' needs a reason after a colon")
        elif not marker.startswith((TESTED_HERE, TESTED_BY_CI)):
            problems.append(f"{example.where}: unknown marker {marker!r}")
    return problems


def _manual() -> list[Example]:
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    return [
        example
        for page in pages
        for example in shell_examples(page.read_text(encoding="utf-8"), str(page.relative_to(ROOT)))
    ]


def _commands(example: Example) -> list[str]:
    """The block's command lines, comments and blank lines left out."""
    return [
        line.strip() for line in example.lines if line.strip() and not line.lstrip().startswith("#")
    ]


def test_every_shell_example_is_run_or_marked_illustrative() -> None:
    examples = _manual()
    assert len(examples) > 10  # the reader found the blocks
    assert marking_problems(examples) == []


def test_an_unmarked_or_unexplained_example_is_caught() -> None:
    text = (
        "Intro.\n\n```bash\naccountdesk explain\n```\n\n"
        "<!-- example: illustrative -->\n```sh\nrm -rf x\n```\n\n"
        "<!-- example: illustrative: needs a live service -->\n```bash\naccountdesk\n```\n\n"
        "```toml\nnot = 'shell'\n```\n"
    )
    examples = shell_examples(text, "page.md")
    assert [example.where for example in examples] == ["page.md:3", "page.md:8", "page.md:13"]
    assert marking_problems(examples) == [
        "page.md:3: a shell example with no <!-- example: ... --> line",
        "page.md:8: 'illustrative' needs a reason after a colon",
    ]


def _tested_here() -> list[tuple[str, str]]:
    return [
        (example.where, line)
        for example in _manual()
        if (example.marker or "").startswith(TESTED_HERE)
        for line in _commands(example)
    ]


@pytest.mark.parametrize(("where", "line"), _tested_here())
def test_the_tested_examples_run(where: str, line: str, capsys: pytest.CaptureFixture[str]) -> None:
    words = shlex.split(line, comments=True)
    program = words[0].removeprefix(".venv/bin/")
    assert program == "accountdesk", f"{where}: only accountdesk commands run here: {line}"
    assert cli.main(words[1:]) == 0, f"{where}: {line}"
    assert capsys.readouterr().out.strip(), f"{where}: {line} printed nothing"


def test_the_examples_ci_runs_are_lines_of_ci_run() -> None:
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    runs = {line.strip() for line in script.splitlines()}
    missing = [
        f"{example.where}: {line}"
        for example in _manual()
        if (example.marker or "").startswith(TESTED_BY_CI)
        for line in _commands(example)
        if line not in runs and f"{line} -n 2" not in runs
    ]
    assert missing == []
