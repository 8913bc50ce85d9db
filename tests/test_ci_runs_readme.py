"""CI runs the README's two Quick-start lines as written: a green CI is a working first day.

The Quick start has exactly two command lines (install and launch the app;
install and run the suite). ``.ci/run`` must run each of them verbatim (the
suite's line may gain ``-n 2``), not a line of its own that installs more.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def quick_start_lines(readme: str) -> list[str]:
    """The command lines of the README's Quick start section's code blocks."""
    section = re.search(r"^## Quick start\n(.*?)(?=^## )", readme, re.S | re.M)
    assert section, "the README has no '## Quick start' section"
    blocks = re.findall(r"^```(?:bash|sh|console)?\n(.*?)^```", section[1], re.S | re.M)
    return [
        line.strip()
        for block in blocks
        for line in block.splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]


def run_lines(script: str) -> list[str]:
    """The lines of a shell script that run something (comments and blanks left out)."""
    return [
        line.strip()
        for line in script.splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]


def missing_from_ci(readme: str, script: str) -> list[str]:
    """README lines that ``.ci/run`` does not run as written."""
    lines = run_lines(script)
    missing = []
    for wanted in quick_start_lines(readme):
        runs = wanted in lines or f"{wanted} -n 2" in lines
        if not runs:
            missing.append(wanted)
    return missing


def test_the_quick_start_has_two_lines_one_launches_the_app_one_runs_the_suite() -> None:
    app, suite = quick_start_lines((ROOT / "README.md").read_text())
    assert "'.[app]'" in app and shlex.split(app)[-1].endswith("accountdesk")
    assert "'.[test]'" in suite and "pytest" in shlex.split(suite)


def test_ci_runs_the_readme_quick_start_lines_as_written() -> None:
    readme = (ROOT / "README.md").read_text()
    script = (ROOT / ".ci" / "run").read_text()
    assert missing_from_ci(readme, script) == []
    # The app's line is run in a pseudo-terminal until the sign-in screen is drawn.
    app = quick_start_lines(readme)[0]
    assert re.search(
        r"^python3 \.ci/headless\.py \"Sign in to the Account Data Service\" <<'LINE'\n"
        + re.escape(app)
        + r"\nLINE$",
        script,
        re.M,
    )


def test_a_ci_script_with_another_line_is_caught() -> None:
    readme = "## Quick start\n\n```bash\npip install '.[test]' && pytest\n```\n\n## Next\n"
    assert missing_from_ci(readme, "pip install '.[test]' && pytest -n 2\n") == []
    assert missing_from_ci(readme, "pip install '.[dev]' && pytest\n") == [
        "pip install '.[test]' && pytest"
    ]
    assert missing_from_ci(readme, "# pip install '.[test]' && pytest\n") == [
        "pip install '.[test]' && pytest"
    ]
