"""Recording with jobs leaves no job nobody sees.

The contract has no call that ends a job (no cancel; only the customer's MFA
answer moves one on), so what recording starts and leaves unfinished is said
by ``accountdesk record`` and tracked on the dashboard's jobs screen.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Static
from tui_helpers import open_account, settle, sign_in, widget_text

from accountdesk import cli
from accountdesk.contract import JobKind
from accountdesk.sandbox import create_app
from accountdesk.tui.screens.record_case import RecordCaseDialog
from loopback_server import serve_app


@pytest.fixture
def home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    monkeypatch.setenv("HOME", str(tmp_path))
    return tmp_path


@pytest.mark.loopback
def test_record_with_jobs_says_which_jobs_it_left_waiting_and_what_they_hold(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ACCOUNTDESK_API_KEY", "sandbox_key")
    monkeypatch.setenv("ACCOUNTDESK_API_SECRET", "sandbox_secret")
    with serve_app(create_app()) as url:
        argv = ["--config", str(tmp_path / "c.toml"), "--base-url", url, "record"]
        assert cli.main([*argv, "user_mfa", "-o", str(tmp_path / "mfa.toml"), "--with-jobs"]) == 0
        said = capsys.readouterr().out
        # A user whose jobs are refused leaves nothing to say.
        down = ["user_fi_down", "-o", str(tmp_path / "down.toml"), "--with-jobs"]
        assert cli.main([*argv, *down]) == 0
        assert "Left waiting" not in capsys.readouterr().out
    # The embedded sandbox ends with the command, and its jobs with it.
    embedded = ["--config", str(tmp_path / "c.toml"), "record", "user_mfa", "--with-jobs"]
    assert cli.main([*embedded, "-o", str(tmp_path / "embedded.toml")]) == 0
    assert "Left waiting" not in capsys.readouterr().out
    left = said[said.index("Left waiting") :].splitlines()
    assert left[0] == (
        "Left waiting (no call of the service ends a job: it ends by itself, by the customer's "
        "MFA answer, or when its MFA session expires):"
    )
    assert [line.split(" job ")[0].strip() for line in left[1:]] == [
        "balance_refresh", "identity", "transactions",
    ]  # fmt: skip
    assert "waits for MFA until " in left[2] and left[2].endswith(
        "UTC; until then the user's next identity job is refused (AC-112)"
    )


@pytest.mark.anyio
async def test_the_dashboard_tracks_the_jobs_a_recording_left_on_the_jobs_screen(
    make_app, home
) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await sign_in(pilot)
        await open_account(pilot, "user_mfa")
        await pilot.press("s")
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, RecordCaseDialog)
        explained = widget_text(dialog.query_one("#record-jobs-note", Static))
        assert "waits for the customer's answer" in explained and "jobs screen" in explained
        await pilot.press("enter")
        await settle(pilot)
        result = widget_text(dialog.query_one("#record-result"))
        assert (
            "Tracked on the jobs screen (m answers MFA there): balance_refresh, identity, "
            "transactions wait for MFA until 09:35:00 UTC; the user's next identity or "
            "transactions job is refused (AC-112) until they end."
        ) in " ".join(result.split())
        tracked = {job.kind: job for job in app.desk.tracker.jobs if job.user_id == "user_mfa"}
        assert set(tracked) == set(JobKind) and all(job.needs_mfa for job in tracked.values())
