"""A crash never shows the API secret: not in the few lines the terminal shows, not in the log.

The app runs for real in a child process (headless), signs in with a known
secret and ticks "Remember"; then something unexpected raises, once in a
message handler (Textual prints its crash report, locals included, and
exits) and once in the sign-in worker (the app's own failure path logs the
traceback). Before, Textual's report (every local's value) showed the secret 7
times; now the app writes the traceback to the log and says a few lines.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

SECRET = "s3cr3t-K9zq-unique-5512"

CHILD = textwrap.dedent(
    """
    import sys
    from pathlib import Path

    import httpx

    from accountdesk.core.desk import Desk
    from accountdesk.core.settings.paths import AppDirs
    from accountdesk.core.settings.model import load_settings
    from accountdesk.tui.app import AccountDeskApp
    from accountdesk.tui.driver import Driver

    where, folder = sys.argv[1], Path(sys.argv[2])

    def service(request):
        if request.url.path == "/token":
            return httpx.Response(200, json={"access_token": "tok-abcdefgh12345678",
                                             "token_type": "Bearer", "expires_in": 3600})
        return httpx.Response(404, json={"error": {"code": "AC-904", "message": "No such"}})

    if where == "handler":
        def boom(self, api_key, api_secret, **options):
            raise RuntimeError("unexpected failure while remembering")
        Desk.remember_credentials = boom
    else:
        from accountdesk.client import AccountDataClient
        async def boom_sign_in(self):
            raise RuntimeError("unexpected failure while signing in")
        AccountDataClient.sign_in = boom_sign_in

    dirs = AppDirs(folder / "config.toml", folder / "data", folder / "logs")
    settings = load_settings(dirs.config_path)
    desk = Desk(settings, dirs, transport=httpx.MockTransport(service))

    async def drive():
        import asyncio

        app.screen.query_one("#remember-secret").value = True
        await Driver(app).sign_in(api_key="live_key")
        for _ in range(500):  # until the failure has gone the app's one path
            if len(desk.error_log):
                break
            await asyncio.sleep(0.01)
        app.exit()

    app = AccountDeskApp(desk, cursor_blink=False, on_first_frame=lambda: app.call_later(drive))
    app.run(headless=True, size=(100, 30))
    """
)


@pytest.mark.slow
@pytest.mark.parametrize("where", ["handler", "worker"])
def test_the_secret_is_in_no_crash_report_and_no_log(tmp_path: Path, where: str) -> None:
    env = {
        **os.environ,
        "ACCOUNTDESK_BASE_URL": "https://api.bank.example",
        "ACCOUNTDESK_API_KEY": "live_key",
        "ACCOUNTDESK_API_SECRET": SECRET,
    }
    done = subprocess.run(
        [sys.executable, "-c", CHILD, where, str(tmp_path)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    report = done.stdout + done.stderr
    log = (tmp_path / "logs" / "accountdesk.log").read_text()
    if where == "handler":  # the app stops: a few lines on the terminal, the traceback in the log
        assert "accountdesk stopped on an unexpected error (RuntimeError)" in report
        assert str(tmp_path / "logs" / "accountdesk.log") in report
        assert "Traceback" not in report and "remembering" not in report
        assert len(report.strip().splitlines()) <= 6
        assert "Traceback" in log and "unexpected failure while remembering" in log
    else:
        assert "Traceback" in log and "unexpected failure while signing in" in log
    assert SECRET not in report
    assert SECRET not in log
    for part in (SECRET[:12], SECRET[-12:]):  # nor a piece of it, cut by a narrow column
        assert part not in report and part not in log
