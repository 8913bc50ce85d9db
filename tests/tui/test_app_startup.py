"""Start-up: the login screen paints before anything slow (no sandbox, no Starlette, no NumPy).

How long that takes is the ``first_frame`` benchmark's (``python -m benchmarks``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
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
        "heavy": sorted(m for m in ("numpy", "msgspec", "keyring", "httpx") if m in sys.modules),
        "sandbox_modules": sorted(m for m in sys.modules if m.startswith("accountdesk.sandbox")),
        "screen": type(self.app.screen).__name__,
    }), flush=True)
    self.app.exit()

LoginScreen._warm_up = first_frame
from accountdesk.core.desk import Desk
from accountdesk.core.settings.paths import AppDirs
from accountdesk.core.settings.model import load_settings
folder = Path(tempfile.mkdtemp())
dirs = AppDirs(folder / "config.toml", folder / "data", folder / "logs")
app = AccountDeskApp(Desk(load_settings(dirs.config_path), dirs))
app.run(headless=True, size=(100, 30))
"""


def child_report(code: str, env: dict[str, str] | None = None) -> dict[str, object]:
    """Run ``code`` in a fresh interpreter; the JSON object it printed."""
    completed = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        check=True,
    )
    line = next(line for line in completed.stdout.splitlines() if line.startswith("{"))
    return json.loads(line)  # type: ignore[no-any-return]


@pytest.mark.slow
def test_login_paints_without_sandbox_or_fastapi(tmp_path: Path) -> None:
    env = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path)}
    report = child_report(_CHILD, env)
    assert report["screen"] == "LoginScreen"
    assert report["fastapi"] is False
    assert report["sandbox_modules"] == []
    # What only the transactions table (NumPy, msgspec), "Remember" (keyring)
    # and the first request (httpx) need.
    assert report["heavy"] == []


# Signs in on the embedded sandbox and opens an account; reports what is
# imported before and (a little) after the account screen has painted.
_SIGNED_IN_CHILD = r"""
import asyncio, json, sys, tempfile
from pathlib import Path
from accountdesk.core.desk import Desk
from accountdesk.core.settings.paths import AppDirs
from accountdesk.core.settings.model import load_settings
from accountdesk.tui.app import AccountDeskApp
from accountdesk.tui.driver import Driver

SCREEN = "accountdesk.tui.screens.transactions"

async def main():
    folder = Path(tempfile.mkdtemp())
    dirs = AppDirs(folder / "config.toml", folder / "data", folder / "logs")
    app = AccountDeskApp(Desk(load_settings(dirs.config_path), dirs))
    async with app.run_test(size=(100, 30)) as pilot:
        driver = Driver(app, pilot.pause)
        before = SCREEN in sys.modules or "numpy" in sys.modules
        await driver.sign_in()
        for _ in range(200):
            if SCREEN in sys.modules and "numpy" in sys.modules:
                break
            await pilot.pause(0.05)
        print(json.dumps({"before": before, "after": SCREEN in sys.modules and "numpy" in sys.modules}))

asyncio.run(main())
"""


@pytest.mark.slow
def test_the_transactions_screen_is_loaded_once_signed_in(tmp_path: Path) -> None:
    # Not before the first frame (above), not on the first "x" (~110 ms of
    # imports, NumPy among them): in the background once the lookup screen
    # shows, before any account is opened (from the account screen a person
    # quick on "x" found the import still under way).
    env = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path)}
    assert child_report(_SIGNED_IN_CHILD, env) == {"before": False, "after": True}


# The command as a person runs it, up to ``App.run``: settings read and
# checked, the desk and the app built. What is imported then is what the
# first frame waits for; ``App.run`` itself is replaced by the report.
_COMMAND_CHILD = r"""
import json, sys
import textual.app
import accountdesk.tui.terminal as terminal
from accountdesk.cli import main

# The client's package is lazy and its log filter (redaction) is loaded with
# the log; the client proper is not.
# Nor the desk's parts built on first use (jobs, poller, error log, secrets,
# recents), the contract's tables, or the crash report (issue 16, third round).
NOT_YET = ("pydantic", "pydantic_core", "pydantic_settings", "httpx", "accountdesk.client.client", "accountdesk.sandbox",
           "starlette", "numpy", "msgspec", "keyring", "tomlkit",
           "accountdesk.contract", "accountdesk.core.errors.log", "accountdesk.core.jobs.tracker", "accountdesk.core.jobs.poller",
           "accountdesk.core.notices", "accountdesk.core.settings.secrets", "accountdesk.core.recents",
           "accountdesk.core.crash", "accountdesk.core.formatting",
           "accountdesk.tui.screens.confirm",  # no screen but the sign-in one
           "textual.widgets._data_table",  # no table on it either (3-4 ms)
           "accountdesk.core.presenting",  # the presenter: on first use
           "tomllib",  # no config file here: nothing to parse
           # Without arguments, no subcommand's parser; the state folders'
           # hash on first use (issue 16, fifth round; the store's JSON too,
           # which this child imports itself to report).
           "accountdesk.cli.demo", "accountdesk.cli.scenarios", "accountdesk.cli.record",
           "accountdesk.cli.completion", "accountdesk.cli.sandbox", "hashlib",
           "accountdesk.client._redact",  # the log's redaction: at its first record
           "accountdesk.tui.commands")  # the palette's, when it opens

def report(self, *args, **kwargs):
    print(json.dumps({"app": type(self).__name__,
                      "imported": [m for m in NOT_YET if m in sys.modules]}), flush=True)

textual.app.App.run = report
terminal.prepare_terminal = lambda: None  # no terminal here; the refusal has its own tests
sys.exit(main([]))
"""


def test_the_command_builds_the_app_without_what_sign_in_needs_later(tmp_path: Path) -> None:
    # Settings are checked before the app starts (a config error is one line
    # and exit 2), but without pydantic-settings (~95 ms before the first
    # frame); the client, httpx and the sandbox load when they are used.
    env = {key: value for key, value in os.environ.items() if not key.startswith("ACCOUNTDESK_")}
    env.update(XDG_CONFIG_HOME=str(tmp_path), XDG_DATA_HOME=str(tmp_path))
    env["XDG_STATE_HOME"] = str(tmp_path)
    report = child_report(_COMMAND_CHILD, env)
    assert report == {"app": "AccountDeskApp", "imported": []}
