"""The wheel carries what an installed app needs: styles, py.typed, the script.

Builds the real wheel (hatchling, as ``pip install .`` does), installs it into a
scratch folder and asks the installed copy where its stylesheets are.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    command = [
        sys.executable,
        "-m",
        "pip",
        "wheel",
        "--no-deps",
        "--quiet",
        "-w",
        str(out),
        str(ROOT),
    ]
    if importlib.util.find_spec("hatchling") is not None:
        command.insert(4, "--no-build-isolation")  # offline-friendly when the backend is at hand
    subprocess.run(command, check=True, timeout=300)
    (built,) = out.glob("accountdesk-*.whl")
    return built


def test_wheel_holds_every_stylesheet_and_py_typed(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    sheets = sorted(path.name for path in (ROOT / "styles").glob("*.tcss"))
    assert sheets, "the styles/ folder has no stylesheet"
    for sheet in sheets:
        assert f"accountdesk/styles/{sheet}" in names
    assert "accountdesk/py.typed" in names
    entry_points = next(name for name in names if name.endswith("entry_points.txt"))
    assert (
        "accountdesk = accountdesk.cli:main" in zipfile.ZipFile(wheel).read(entry_points).decode()
    )


def test_installed_wheel_finds_its_styles(wheel: Path, tmp_path: Path) -> None:
    target = tmp_path / "site"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--no-deps",
            "--quiet",
            "--target",
            str(target),
            str(wheel),
        ],
        check=True,
        timeout=300,
    )
    probe = "from accountdesk.tui.resources import styles_dir; print(styles_dir())"
    env = {**os.environ, "PYTHONPATH": str(target)}
    found = subprocess.run(
        [sys.executable, "-c", probe],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert Path(found) == target / "accountdesk" / "styles"
    assert {p.name for p in Path(found).glob("*.tcss")} == {
        p.name for p in (ROOT / "styles").glob("*.tcss")
    }
