"""The job tracker's file: merged with other apps' changes, old records tolerated, bad ones skipped."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

from accountdesk.client import Job
from accountdesk.contract import JobKind, JobStatus
from accountdesk.core.jobs.tracker import MAX_JOBS_PER_SERVICE, JobTracker
from accountdesk.core.store import Store

NOW = dt.datetime(2026, 11, 20, 9, 30, tzinfo=dt.UTC)


def job(job_id: str, status: str = "pending", **extra: Any) -> Job:
    return Job.model_validate(
        {
            "job_id": job_id,
            "kind": "identity",
            "status": status,
            "created_at": NOW.isoformat(),
            **extra,
        }
    )


def tracker(path: Path, service: str = "sandbox") -> JobTracker:
    found = JobTracker(Store(), path, service)
    found.load()
    return found


def test_statuses_and_kinds_are_the_contracts_enums(tmp_path: Path) -> None:
    t = tracker(tmp_path / "jobs.json")
    tracked = t.track(job("job_1", "in_progress"), "user_good", NOW)
    assert tracked.status is JobStatus.IN_PROGRESS and tracked.kind is JobKind.IDENTITY
    odd = t.track(job("job_2", "queued_at_bank", kind="statements"), "user_good", NOW)
    assert odd.status == "queued_at_bank" and odd.kind == "statements"  # tolerated, shown as sent
    t.save()
    again = tracker(tmp_path / "jobs.json")
    assert again.get("user_good/job_1").status is JobStatus.IN_PROGRESS  # type: ignore[union-attr]


def test_two_trackers_keep_each_others_jobs(tmp_path: Path) -> None:
    path = tmp_path / "jobs.json"
    a, b = tracker(path), tracker(path)
    a.track(job("job_a"), "user_good", NOW)
    b.track(job("job_b"), "user_good", NOW)
    a.save()
    b.save()
    a.save()
    assert {j.job_id for j in a.jobs} == {j.job_id for j in b.jobs} == {"job_a", "job_b"}
    assert {j.job_id for j in tracker(path).jobs} == {"job_a", "job_b"}


def test_a_cleared_job_stays_cleared_for_the_other_app(tmp_path: Path) -> None:
    path = tmp_path / "jobs.json"
    a = tracker(path)
    a.track(job("job_1", "completed"), "user_good", NOW)
    a.save()
    b = tracker(path)
    a.forget(["user_good/job_1"])
    a.save()
    b.save()
    assert tracker(path).jobs == [] and b.jobs == []


def test_other_services_records_survive_verbatim(tmp_path: Path) -> None:
    path = tmp_path / "jobs.json"
    foreign = {"job_id": "x", "future_field": [1, 2]}
    path.write_text(json.dumps({"version": 1, "services": {"https://live": [foreign]}}))
    t = tracker(path)
    t.track(job("job_1"), "user_good", NOW)
    t.save()
    assert json.loads(path.read_text())["services"]["https://live"] == [foreign]


def test_a_bad_record_is_skipped_not_fatal(tmp_path: Path) -> None:
    path = tmp_path / "jobs.json"
    good = {"user_id": "u", "job_id": "j", "kind": "identity", "status": "pending",
            "created_at": NOW.isoformat()}  # fmt: skip
    path.write_text(json.dumps({"version": 1, "services": {"sandbox": [{"job_id": 3}, good]}}))
    assert [j.job_id for j in tracker(path).jobs] == ["j"]


def test_old_records_without_new_fields_load(tmp_path: Path) -> None:
    path = tmp_path / "jobs.json"
    old = {"user_id": "u", "job_id": "j", "kind": "identity", "status": "failed",
           "created_at": NOW.isoformat(), "last_error_code": "AC-108",
           "last_error_title": "job failed", "stale": True}  # fmt: skip
    path.write_text(json.dumps({"version": 1, "services": {"sandbox": [old]}}))
    [loaded] = tracker(path).jobs
    assert loaded.last_error_code == "AC-108" and loaded.is_failed


def test_invalid_utf8_jobs_file_is_set_aside_and_tracking_goes_on(tmp_path: Path) -> None:
    path = tmp_path / "jobs.json"
    path.write_bytes(b'{"version": 1, "services": {"sandbox": ["\xff"]}}')
    t = tracker(path)
    assert t.jobs == []
    assert list(tmp_path.glob("jobs.json.unreadable-*"))
    t.track(job("job_1"), "user_good", NOW)
    assert t.save()


def test_oldest_finished_jobs_are_pruned_beyond_the_cap(tmp_path: Path) -> None:
    path = tmp_path / "jobs.json"
    t = tracker(path)
    for n in range(MAX_JOBS_PER_SERVICE + 5):
        created = (NOW + dt.timedelta(seconds=n)).isoformat()
        t.track(job(f"job_{n:03d}", "completed", created_at=created), "user_good", NOW)
    t.track(job("job_live", "in_progress", created_at=NOW.isoformat()), "user_good", NOW)
    t.save()
    kept = {j.job_id for j in tracker(path).jobs}
    assert len(kept) == MAX_JOBS_PER_SERVICE and "job_live" in kept
    assert "job_000" not in kept and f"job_{MAX_JOBS_PER_SERVICE + 4:03d}" in kept
