"""JobTracker: what is kept across runs, and how a bad file is survived."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

from accountdesk.client import Job, exponential_backoff
from accountdesk.core.formatting import describe_age
from accountdesk.core.jobs.poller import BACKOFF_BASE, BACKOFF_CAP
from accountdesk.core.jobs.rows import JobRow, job_note, only_ages_moved
from accountdesk.core.jobs.tracker import JobTracker as _Tracker
from accountdesk.core.store import Store


def JobTracker(path: Path, service: str) -> _Tracker:
    return _Tracker(Store(), path, service)


def backoff_delay(failures: int) -> float:
    return exponential_backoff(failures, base=BACKOFF_BASE, cap=BACKOFF_CAP)


NOW = dt.datetime(2026, 11, 20, 9, 30, tzinfo=dt.UTC)


def make_job(job_id: str = "job_1", status: str = "pending", **extra: object) -> Job:
    return Job.model_validate(
        {"job_id": job_id, "kind": "balance_refresh", "status": status,
         "created_at": NOW.isoformat(), **extra}
    )  # fmt: skip


def test_jobs_survive_a_new_tracker_per_service(tmp_path: Path) -> None:
    path = tmp_path / "jobs.json"
    tracker = JobTracker(path, "sandbox")
    tracked = tracker.track(make_job(), "user_good", NOW)
    tracker.record_failure(tracked, "AC-104", "AC-104", "Cannot reach the bank", NOW, 1.0)
    tracker.save()
    other = JobTracker(path, "https://bank.example")
    other.load()
    other.track(make_job("job_9"), "user_x", NOW)
    other.save()

    again = JobTracker(path, "sandbox")
    again.load()
    [job] = again.jobs
    assert (job.user_id, job.job_id, job.kind, job.status) == (
        "user_good",
        "job_1",
        "balance_refresh",
        "pending",
    )
    # The error is kept; staleness is the running poller's to say, not the file's.
    assert job.last_error_code == "AC-104" and job.last_error_message == "Cannot reach the bank"
    assert not job.failing and job.created_at == NOW
    # The other service's jobs were kept through the sandbox tracker's save.
    assert [j.job_id for j in JobTracker(path, "https://bank.example").jobs] == []
    reloaded_other = JobTracker(path, "https://bank.example")
    reloaded_other.load()
    assert [j.job_id for j in reloaded_other.jobs] == ["job_9"]


def test_file_holds_no_secret_and_is_replaced_atomically(tmp_path: Path) -> None:
    path = tmp_path / "jobs.json"
    tracker = JobTracker(path, "sandbox")
    challenge = {"question": "Code?", "expires_at": NOW.isoformat(), "attempts_remaining": 3}
    tracker.track(make_job(status="mfa_required", mfa=challenge), "user_mfa", NOW)
    tracker.save()
    text = path.read_text()
    assert "Code?" not in text and "question" not in text
    assert sorted(json.loads(text)["services"]["sandbox"][0]) == sorted(
        ["user_id", "job_id", "kind", "status", "created_at", "tracked_at", "last_poll_at",
         "last_error_code", "last_error_message", "blocked_until", "gone", "given_up",
         "clock_offset"]
    )  # fmt: skip
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "jobs.json",
        "jobs.json.lock",
    ]  # no temp file


def test_corrupt_file_is_set_aside_and_tracker_starts_empty(tmp_path: Path) -> None:
    path = tmp_path / "jobs.json"
    path.write_text("{not json")
    tracker = JobTracker(path, "sandbox")
    tracker.load()
    assert len(tracker) == 0
    [aside] = tmp_path.glob("jobs.json.unreadable-*")
    assert aside.read_text() == "{not json"
    tracker.track(make_job(), "user_good", NOW)
    tracker.save()
    assert json.loads(path.read_text())["services"]["sandbox"][0]["job_id"] == "job_1"


def test_bad_records_are_skipped_good_ones_kept(tmp_path: Path) -> None:
    path = tmp_path / "jobs.json"
    good = {"user_id": "u", "job_id": "j", "kind": "identity", "status": "completed",
            "created_at": NOW.isoformat()}  # fmt: skip
    path.write_text(json.dumps({"version": 1, "services": {"sandbox": [
        good, {"user_id": 3}, {"user_id": "u", "job_id": "k", "created_at": "yesterday"}, "x"]}}))  # fmt: skip
    tracker = JobTracker(path, "sandbox")
    tracker.load()
    assert [job.job_id for job in tracker.jobs] == ["j"]
    assert not list(tmp_path.glob("jobs.json.unreadable-*"))


def test_wrong_shape_document_is_set_aside(tmp_path: Path) -> None:
    path = tmp_path / "jobs.json"
    path.write_text("[1, 2]")
    tracker = JobTracker(path, "sandbox")
    tracker.load()
    assert len(tracker) == 0 and list(tmp_path.glob("jobs.json.unreadable-*"))


def test_backoff_doubles_to_a_cap_and_due_respects_it(tmp_path: Path) -> None:
    assert [backoff_delay(n) for n in range(8)] == [0, 1, 2, 4, 8, 16, 30, 30]
    tracker = JobTracker(tmp_path / "jobs.json", "sandbox")
    tracked = tracker.track(make_job(), "user_good", NOW)
    assert tracker.due(NOW) == [tracked]
    assert (
        tracker.record_failure(tracked, "TransportError", None, "Cannot connect", NOW, 1.0) is True
    )
    assert (
        tracker.record_failure(tracked, "TransportError", None, "Cannot connect", NOW, 2.0) is False
    )
    assert tracker.due(NOW + dt.timedelta(seconds=1.9)) == []
    assert tracker.due(NOW + dt.timedelta(seconds=2)) == [tracked]
    tracker.record_poll(tracked, make_job(status="in_progress"), NOW)
    assert not tracked.failing and tracked.failures == 0 and tracker.due(NOW) == [tracked]


def test_terminal_and_gone_jobs_are_not_due(tmp_path: Path) -> None:
    tracker = JobTracker(tmp_path / "jobs.json", "sandbox")
    done = tracker.track(make_job("a", status="completed"), "u", NOW)
    gone = tracker.track(make_job("b"), "u", NOW)
    tracker.mark_gone(gone, "AC-109", "Job b not found", NOW)
    live = tracker.track(make_job("c"), "u", NOW)
    assert tracker.due(NOW) == [live]
    assert job_note(done, stale=False) == "" and job_note(gone, stale=False) == "gone (AC-109)"


def test_describe_age() -> None:
    assert describe_age(None, NOW) == "—"
    assert describe_age(NOW - dt.timedelta(seconds=5), NOW) == "5s"
    assert describe_age(NOW - dt.timedelta(seconds=245), NOW) == "4m 05s"
    assert describe_age(NOW - dt.timedelta(hours=3, minutes=2), NOW) == "3h 02m"
    assert describe_age(NOW - dt.timedelta(days=2), NOW) == "2d"


def test_only_ages_moved_tells_a_clock_change_from_one_a_person_must_see() -> None:
    row = JobRow(
        "k", ("u", "balance_refresh", "pending", "5s", "3s ago", ""), "pending", False, False
    )
    older = JobRow(
        "k", ("u", "balance_refresh", "pending", "6s", "4s ago", ""), "pending", False, False
    )
    stale = JobRow("k", (*row.cells[:5], "stale"), "pending", True, False)
    moved = JobRow(
        "k", ("u", "balance_refresh", "in_progress", *row.cells[3:]), "in_progress", False, False
    )
    assert only_ages_moved(row, older)
    assert not only_ages_moved(row, stale) and not only_ages_moved(row, moved)


def test_naive_times_in_the_file_are_read_as_utc(tmp_path: Path) -> None:
    path = tmp_path / "jobs.json"
    record = {"user_id": "u", "job_id": "j", "kind": "identity", "status": "pending",
              "created_at": "2026-11-20T09:29:00", "last_poll_at": "2026-11-20T09:29:30"}  # fmt: skip
    path.write_text(json.dumps({"version": 1, "services": {"sandbox": [record]}}))
    tracker = JobTracker(path, "sandbox")
    tracker.load()
    [job] = tracker.jobs
    assert describe_age(job.created_at, NOW) == "1m 00s"
    assert describe_age(job.last_poll_at, NOW) == "30s"


def test_age_counts_from_when_this_app_started_tracking(tmp_path: Path) -> None:
    # The service's clock is an hour ahead: its created_at is in our future.
    path = tmp_path / "jobs.json"
    tracker = JobTracker(path, "sandbox")
    ahead = make_job()
    ahead = ahead.model_copy(update={"created_at": NOW + dt.timedelta(hours=1)})
    tracked = tracker.track(ahead, "u", NOW)
    assert tracked.created_at == NOW + dt.timedelta(hours=1)  # kept for display and order
    assert tracked.tracked_at == NOW
    assert describe_age(tracked.age_from, NOW + dt.timedelta(seconds=12)) == "12s"
    tracker.track(ahead, "u", NOW + dt.timedelta(seconds=30))  # seen again: still the first time
    assert tracked.tracked_at == NOW
    tracker.save()
    reloaded = JobTracker(path, "sandbox")
    reloaded.load()
    [job] = reloaded.jobs
    assert (
        job.tracked_at == NOW
        and describe_age(job.age_from, NOW + dt.timedelta(minutes=2)) == "2m 00s"
    )


def test_records_without_tracked_at_age_from_created_at(tmp_path: Path) -> None:
    path = tmp_path / "jobs.json"
    record = {"user_id": "u", "job_id": "j", "kind": "identity", "status": "pending",
              "created_at": "2026-11-20T09:29:00+00:00"}  # fmt: skip
    path.write_text(json.dumps({"version": 1, "services": {"sandbox": [record]}}))
    tracker = JobTracker(path, "sandbox")
    tracker.load()
    [job] = tracker.jobs
    assert job.tracked_at is None and describe_age(job.age_from, NOW) == "1m 00s"


def test_two_apps_on_one_data_dir_keep_each_others_jobs(tmp_path: Path) -> None:
    path = tmp_path / "jobs.json"
    first, second = JobTracker(path, "sandbox"), JobTracker(path, "sandbox")
    first.load()
    second.load()  # both started before either saved
    first.track(make_job("job_a"), "user_good", NOW)
    first.save()
    second.track(make_job("job_b"), "user_mfa", NOW)
    second.save()

    assert {job.job_id for job in second.jobs} == {"job_a", "job_b"}
    reloaded = JobTracker(path, "sandbox")
    reloaded.load()
    assert {job.job_id for job in reloaded.jobs} == {"job_a", "job_b"}


def test_ages_are_read_at_one_moment_that_a_moved_sandbox_clock_moves() -> None:
    from accountdesk.core.jobs.rows import AgesMoment

    moment = AgesMoment()
    assert moment.at is None and moment.clock_moved(dt.timedelta(0))  # no step yet
    moment.step(NOW, dt.timedelta(0))
    assert moment.at == NOW
    # A re-read of the sandbox's clock: its offset differs by the latency alone.
    assert not moment.clock_moved(dt.timedelta(milliseconds=3))
    assert moment.clock_moved(dt.timedelta(minutes=5))  # +5 min on the sandbox panel


def test_a_job_row_says_kind_and_status_in_the_persons_words(tmp_path: Path) -> None:
    from accountdesk.core.jobs.rows import job_row, matches

    tracker = JobTracker(tmp_path / "jobs.json", "sandbox")
    refresh = tracker.track(make_job(status="in_progress"), "user_good", NOW)
    waiting = tracker.track(
        make_job("job_2", status="mfa_required", kind="transactions"), "user_good", NOW
    )
    unknown = tracker.track(make_job("job_3", kind="credit_check"), "user_good", NOW)

    assert job_row(refresh, NOW, stale=False).cells[1:3] == ("balance refresh", "in progress")
    assert job_row(waiting, NOW, stale=False).cells[1:3] == ("transactions", "mfa required")
    assert job_row(unknown, NOW, stale=False).cells[1] == "credit check"  # a kind we do not know
    # The colour still follows the wire's status, and both spellings filter.
    assert job_row(refresh, NOW, stale=False).status == "in_progress"
    for query in ("balance refresh", "balance_refresh", "in progress", "BALANCE in_progress"):
        assert matches(refresh, query), query
    assert matches(waiting, "mfa required") and not matches(waiting, "balance refresh")
