"""The wheel carries what an installed app needs: styles, py.typed, the script.

Builds the real wheel (hatchling, as ``pip install .`` does), installs it into a
scratch folder and asks the installed copy where its stylesheets are.
"""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from hidden_packages import environment_without

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    # The backend comes with the test extra: no isolated build environment is
    # fetched, so the test installs nothing by itself.
    command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
               "--quiet", "-w", str(out), str(ROOT)]  # fmt: skip
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


def test_the_wheel_carries_the_shipped_tours(wheel: Path, tmp_path: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    tours = sorted(path.name for path in (ROOT / "src" / "accountdesk" / "tours").glob("*.toml"))
    assert tours, "no shipped tour"
    assert {f"accountdesk/tours/{name}" for name in tours} <= names
    # The shipped default pack (the nine users) and the example pack a tour serves.
    packs = sorted(
        path.name for path in (ROOT / "src" / "accountdesk" / "scenarios").glob("*.toml")
    )
    assert "default.toml" in packs
    assert {f"accountdesk/scenarios/{name}" for name in packs} <= names
    target = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "--quiet", "--target", str(target),
         str(wheel)],
        check=True,
        timeout=300,
    )  # fmt: skip
    probe = (
        "import accountdesk; from accountdesk.core.tours.tour import shipped_tours; "
        "from accountdesk.sandbox import SCENARIO_USERS; "
        "print(accountdesk.__file__, len(shipped_tours()), len(SCENARIO_USERS))"
    )
    found = subprocess.run(
        [sys.executable, "-c", probe],
        env={**os.environ, "PYTHONPATH": str(target)},
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert Path(found[0]).is_relative_to(target) and found[1] == str(len(tours))
    assert found[2] == "8"


def _metadata(wheel: Path) -> str:
    archive = zipfile.ZipFile(wheel)
    name = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
    return archive.read(name).decode()


def test_a_plain_install_gives_the_client_only(wheel: Path) -> None:
    requires = [line for line in _metadata(wheel).splitlines() if line.startswith("Requires-Dist:")]
    plain = sorted(line.split(":", 1)[1].split(">")[0].split("=")[0].strip()
                   for line in requires if "extra ==" not in line)  # fmt: skip
    assert plain == ["httpx", "msgspec", "pydantic", "sniffio"]
    app = " ".join(
        line for line in requires if "extra == 'app'" in line or 'extra == "app"' in line
    )
    assert "textual==" in app  # pinned: the snapshots are drawn by this exact version


def test_the_version_has_one_source(wheel: Path) -> None:
    import accountdesk

    version = next(
        line.split(":", 1)[1].strip()
        for line in _metadata(wheel).splitlines()
        if line.startswith("Version:")
    )
    assert version == accountdesk.__version__


def test_the_command_without_the_apps_packages_says_what_to_install(
    wheel: Path, tmp_path: Path
) -> None:
    # The client alone: httpx and pydantic are importable, Textual is hidden.
    env = environment_without({"textual", "platformdirs", "pydantic_settings"}, tmp_path / "hide")
    done = subprocess.run(
        [sys.executable, "-m", "accountdesk"], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    assert "pip install 'accountdesk[app]'" in done.stderr and "Traceback" not in done.stderr
