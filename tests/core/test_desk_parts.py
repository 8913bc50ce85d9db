"""The desk builds its parts on first use: nothing of them before the first frame.

A desk is built before the sign-in screen paints; its tracker, poller, error
log, secret keeper and recents (and their modules) are not needed until
sign-in or a first error, so each is built when first asked for, once.
"""

from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path

import pytest

from accountdesk.core.desk import Desk
from accountdesk.core.settings.paths import AppDirs
from accountdesk.core.settings.start import read_start_settings

FROZEN = dt.datetime(2026, 1, 2, 3, 4, 5, tzinfo=dt.UTC)


class _Backend:
    """A keyring that is not the machine's."""

    name = "test"

    def get_password(self, service: str, username: str) -> str | None:
        return None


@pytest.fixture
def desk(tmp_path: Path) -> Desk:
    dirs = AppDirs(tmp_path / "config.toml", tmp_path / "data", tmp_path / "log")
    start = read_start_settings(dirs.config_path, {})
    assert start is not None  # the embedded sandbox: the quick read
    return Desk(start, dirs, clock=lambda: FROZEN, secret_backend=_Backend())


def test_a_new_desk_has_built_none_of_its_parts(desk: Desk) -> None:
    parts = ("_tracker", "_poller", "_recents", "_error_log", "_secrets")
    assert {name: getattr(desk, name) for name in parts} == dict.fromkeys(parts)


def test_each_part_is_built_once_when_first_asked_for(desk: Desk) -> None:
    log = desk.error_log
    assert len(log) == 0 and desk.error_log is log
    keeper = desk.secrets
    assert desk.secrets is keeper and keeper.name == "test"
    poller = desk.poller
    assert poller.tracker is desk.tracker and desk.poller is poller
    assert desk.unfinished_jobs() == 0 and desk.finished_job_keys() == []


def test_building_a_desk_imports_none_of_the_parts_modules(tmp_path: Path) -> None:
    import subprocess

    code = (
        "import json, sys\n"
        "from pathlib import Path\n"
        "from accountdesk.core.desk import Desk\n"
        "from accountdesk.core.settings.paths import AppDirs\n"
        "from accountdesk.core.settings.start import read_start_settings\n"
        f"d = Path({str(tmp_path)!r})\n"
        "dirs = AppDirs(d / 'config.toml', d / 'data', d / 'log')\n"
        "Desk(read_start_settings(dirs.config_path, {}), dirs)\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('accountdesk'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    parts = (
        "errors.log",
        "jobs.tracker",
        "jobs.poller",
        "notices",
        "settings.secrets",
        "recents",
        "jobs.tracked_job",
    )
    loaded = set(out.stdout.split('"'))
    assert [part for part in parts if f"accountdesk.core.{part}" in loaded] == []
    assert "accountdesk.contract" not in loaded
