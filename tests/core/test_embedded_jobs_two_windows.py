"""Two dashboards on the embedded sandbox, one data dir, one key: each its own sandbox.

The embedded sandbox lives in its app's process. Its jobs share one file with
every other window's (per key and service ``sandbox``), and saving adopts
the jobs another app added: right for a real service or a sandbox served
over HTTP, where both apps poll the same world, wrong for two embedded
sandboxes. The second window then polls the first one's live job against
its own sandbox, is told AC-109 and shows it as "gone (AC-109)" while the
first window still polls it (found trying the app in tmux: #16, fifth round).
Each embedded sandbox now has an id and holds a lock while it runs
(``core.sandbox_instance``): the other window's live jobs are shown, not polled.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from accountdesk.client import Job
from accountdesk.core.desk import Desk
from accountdesk.core.jobs import sandbox_instance
from accountdesk.core.jobs.sandbox_instance import SandboxLocks
from accountdesk.core.jobs.tracker import JobTracker
from accountdesk.core.settings.model import Settings
from accountdesk.core.settings.paths import AppDirs
from accountdesk.core.store import Store

NOW = dt.datetime(2026, 11, 20, 9, 30, tzinfo=dt.UTC)


def _embedded(path: Path, sandboxes: SandboxLocks) -> JobTracker:
    tracker = JobTracker(
        Store(), path, "sandbox", api_key="sandbox_key", unknown_means_gone=True,
        sandboxes=sandboxes,
    )  # fmt: skip
    tracker.load()
    return tracker


def _job(job_id: str) -> Job:
    return Job.model_validate(
        {"job_id": job_id, "kind": "balance_refresh", "status": "mfa_required",
         "created_at": NOW.isoformat()}
    )  # fmt: skip


def _window(tmp_path: Path) -> SandboxLocks:
    locks = SandboxLocks(tmp_path / "sandboxes")
    locks.start()
    return locks


def test_a_window_does_not_poll_the_live_jobs_of_another_windows_embedded_sandbox(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sandbox_instance, "ALIVE_FOR", 0.0)  # look at the lock each time
    path = tmp_path / "jobs.json"
    one, two = _window(tmp_path), _window(tmp_path)
    first, second = _embedded(path, one), _embedded(path, two)
    first.track(_job("job_first"), "user_mfa", NOW)
    first.save()
    second.track(_job("job_second"), "user_mfa", NOW)
    second.save()
    assert [job.job_id for job in second.pollable()] == ["job_second"]
    theirs = second.get("user_mfa/job_first")
    assert theirs is not None and theirs.elsewhere and not theirs.needs_mfa  # shown, not answered
    assert [job.job_id for job in second.due(NOW)] == ["job_second"]
    # The first window keeps polling its own, and leaves the second's alone.
    first.save()
    assert [job.job_id for job in first.pollable()] == ["job_first"]
    # The first window closes: its job is polled here as an earlier run's is (and found gone).
    one.stop()
    assert sorted(job.job_id for job in second.pollable()) == ["job_first", "job_second"]
    two.stop()
    assert list((tmp_path / "sandboxes").iterdir()) == []


def test_a_window_that_crashed_left_a_lock_nobody_holds(tmp_path: Path) -> None:
    path = tmp_path / "jobs.json"
    (tmp_path / "sandboxes").mkdir()
    (tmp_path / "sandboxes" / "0123456789abcdef.lock").write_text("")  # no process holds it
    record = {"user_id": "user_mfa", "job_id": "job_old", "kind": "balance_refresh",
              "status": "mfa_required", "created_at": NOW.isoformat(),
              "sandbox": "0123456789abcdef"}  # fmt: skip
    strange = {**record, "job_id": "job_strange", "sandbox": "../../x"}
    document = {"version": 1, "api_key": "sandbox_key", "services": {"sandbox": [record, strange]}}
    path.write_text(json.dumps(document))
    tracker = _embedded(path, _window(tmp_path))
    assert sorted(job.job_id for job in tracker.pollable()) == ["job_old", "job_strange"]
    assert tracker.get("user_mfa/job_strange").sandbox is None  # type: ignore[union-attr]
    assert not (tmp_path / "sandboxes" / "0123456789abcdef.lock").exists()  # tidied


@pytest.mark.anyio
async def test_the_embedded_sandbox_holds_its_lock_while_it_runs(tmp_path: Path) -> None:
    dirs = AppDirs(tmp_path / "config.toml", tmp_path / "data", tmp_path / "logs")
    desk = Desk(Settings(), dirs, sandbox_options={"bulk_transactions": 100})
    locks = desk.connection.sandbox_locks
    assert locks.current is None  # no sandbox yet
    await desk.connection.transport()
    assert locks.current is not None
    lock = tmp_path / "data" / "sandboxes" / f"{locks.current}.lock"
    assert lock.exists() and SandboxLocks(lock.parent).alive(locks.current)
    await desk.close()
    assert not lock.exists() and locks.current is None


def test_the_details_line_says_whose_job_it_is(tmp_path: Path) -> None:
    from accountdesk.core.jobs.rows import ANOTHER_WINDOW, job_details, job_note

    path = tmp_path / "jobs.json"
    one, two = _window(tmp_path), _window(tmp_path)
    first = _embedded(path, one)
    first.track(_job("job_first"), "user_mfa", NOW)
    first.save()
    second = _embedded(path, two)
    second.pollable()
    theirs = second.get("user_mfa/job_first")
    assert theirs is not None and ("", ANOTHER_WINDOW) in job_details(theirs)
    assert job_note(theirs, stale=False) == "another window's"
    ours = first.get("user_mfa/job_first")
    assert ours is not None and ("", ANOTHER_WINDOW) not in job_details(ours)
