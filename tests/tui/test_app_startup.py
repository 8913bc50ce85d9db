"""Start-up: the login screen paints before anything slow (no sandbox, no FastAPI, no network).

Run this file directly to print the time to first frame::

    python tests/tui/test_app_startup.py
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

# Runs in a fresh interpreter: when the login screen has painted (its first
# after-refresh callback, which would start the sandbox warm-up) it reports
# what is imported and exits before the warm-up can run.
_CHILD = r"""
import json, sys, tempfile, time
from pathlib import Path
started = time.perf_counter()
from accountdesk.tui.app import AccountDeskApp
from accountdesk.tui.screens.login import LoginScreen

def first_frame(self):
    print(json.dumps({
        "seconds_in_python": time.perf_counter() - started,
        "fastapi": "starlette" in sys.modules,
        "sandbox_modules": sorted(m for m in sys.modules if m.startswith("accountdesk.sandbox")),
        "screen": type(self.app.screen).__name__,
    }), flush=True)
    self.app.exit()

LoginScreen._warm_up = first_frame
from accountdesk.core.desk import Desk
from accountdesk.core.paths import AppDirs
from accountdesk.core.settings import load_settings
folder = Path(tempfile.mkdtemp())
dirs = AppDirs(folder / "config.toml", folder / "data", folder / "logs")
app = AccountDeskApp(Desk(load_settings(dirs.config_path), dirs))
app.run(headless=True, size=(100, 30))
"""


def measure_first_frame(env: dict[str, str] | None = None) -> dict[str, object]:
    """Start the app in a subprocess; the seconds from spawn to the login screen's first frame."""
    spawn = time.perf_counter()
    completed = subprocess.run(
        [sys.executable, "-c", _CHILD],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
        check=True,
    )
    elapsed = time.perf_counter() - spawn
    line = next(line for line in completed.stdout.splitlines() if line.startswith("{"))
    report = json.loads(line)
    report["seconds_from_spawn"] = round(elapsed, 3)
    return report


@pytest.mark.slow
def test_login_paints_without_sandbox_or_fastapi(tmp_path: Path) -> None:
    env = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path)}
    report = measure_first_frame(env)
    assert report["screen"] == "LoginScreen"
    assert report["fastapi"] is False
    assert report["sandbox_modules"] == []
    # Generous bound for a loaded CI machine; typical is well under a second.
    assert report["seconds_from_spawn"] < 10


if __name__ == "__main__":
    runs = [measure_first_frame() for _ in range(5)]
    print(json.dumps(runs[-1], indent=2))
    spawn_times = sorted(run["seconds_from_spawn"] for run in runs)
    print(
        f"time to first frame over 5 runs: median {spawn_times[2]:.3f} s, best {spawn_times[0]:.3f} s"
    )
