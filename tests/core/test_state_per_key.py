"""State per service AND API key: two keys on one data folder see nothing of each other.

Over the tenants sandbox (each trainee_<name> key a world of its own), as a
training PC or a shared jump host has it: one machine account, one data
folder, several people. Jobs, recent lookups and cached transactions are
each key's own; a job of another key is never polled with this key's token.
Files of an earlier version (one list per service) keep working: their jobs
are shown apart until the first key whose poll of one succeeds takes it;
their recent lookups go to the first key that signs in.
"""

from __future__ import annotations

import datetime as dt
import json
import os
from pathlib import Path
from typing import Any

import httpx
import pytest
from pydantic import SecretStr

from accountdesk.contract import JobStatus
from accountdesk.core.desk import Desk
from accountdesk.core.settings.model import Settings
from accountdesk.core.settings.paths import AppDirs
from accountdesk.sandbox import FrozenClock, create_app
from transaction_bodies import read_whole

pytestmark = pytest.mark.anyio
START = dt.datetime(2026, 11, 20, 9, 30, tzinfo=dt.UTC)
URL = "http://127.0.0.1:8765"
SECRET = SecretStr("sandbox_secret")


class Recording(httpx.AsyncBaseTransport):
    """The room's transport, noting each job poll (path) a desk sends."""

    def __init__(self, app: Any) -> None:
        self.inner = httpx.ASGITransport(app)
        self.job_polls: list[str] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if "/job/" in request.url.path:
            self.job_polls.append(request.url.path)
        return await self.inner.handle_async_request(request)


@pytest.fixture
def room() -> Any:
    # Jobs take an hour: alice's stays open (waiting for MFA) all test long.
    return create_app(clock=FrozenClock(START), tenants=True, ids=1, job_seconds=3600)


@pytest.fixture
def dirs(tmp_path: Path) -> AppDirs:
    return AppDirs(tmp_path / "config.toml", tmp_path / "data", tmp_path / "logs")


def desk_on(room: Any, dirs: AppDirs, base_url: str | None = URL) -> tuple[Desk, Recording]:
    transport = Recording(room)
    desk = Desk(Settings(base_url=base_url), dirs, transport=transport, clock=lambda: START)
    return desk, transport


async def poll_everything(desk: Desk) -> None:
    desk.poller.poll_now(force=True)
    await desk.scheduler.wait()  # type: ignore[attr-defined]


async def test_two_keys_one_data_folder_nothing_seen_across_nothing_lost(
    room: Any, dirs: AppDirs
) -> None:
    alice, alice_wire = desk_on(room, dirs)
    await alice.sign_in("trainee_alice", SECRET)
    mfa_job = await alice.client.refresh_balance("user_mfa")
    alice.track_job(mfa_job, "user_mfa")
    alice.recents.add("user_mfa")
    await read_whole(alice, "user_good")

    # Bob signs in on the same machine account while alice is still signed in.
    bob, bob_wire = desk_on(room, dirs)
    await bob.sign_in("trainee_bob", SECRET)
    assert bob.tracker.jobs == []
    assert bob.recents.user_ids == []
    assert bob.cached_transactions("user_good") is None
    await poll_everything(bob)
    assert bob_wire.job_polls == []  # alice's job never went out with bob's token
    identity = await bob.client.start_identity("user_good")
    bob.track_job(identity, "user_good")
    bob.recents.add("user_good")
    await poll_everything(bob)
    await poll_everything(alice)

    # Nothing of bob's reached alice, and hers is intact: still waiting for her answer.
    [hers] = alice.tracker.jobs
    assert hers.job_id == mfa_job.job_id and hers.status is JobStatus.MFA_REQUIRED
    assert not hers.gone
    assert all(identity.job_id not in path for path in alice_wire.job_polls)
    await alice.close()
    await bob.close()

    # Next run, each key again: each sees exactly its own.
    for key, user_id, job_id in (
        ("trainee_alice", "user_mfa", mfa_job.job_id),
        ("trainee_bob", "user_good", identity.job_id),
    ):
        desk, wire = desk_on(room, dirs)
        await desk.sign_in(key, SECRET)
        await poll_everything(desk)
        [job] = desk.tracker.jobs
        assert (job.user_id, job.job_id, job.gone) == (user_id, job_id, False)
        assert desk.recents.user_ids == [user_id]
        assert {path.rsplit("/", 1)[1] for path in wire.job_polls} == {job_id}
        await desk.close()


async def test_cached_transactions_are_the_keys_own(room: Any, dirs: AppDirs) -> None:
    desk, _ = desk_on(room, dirs)
    await desk.sign_in("trainee_alice", SECRET)
    first = await read_whole(desk, "user_good")
    assert desk.cached_transactions("user_good") is first
    await desk.sign_in("trainee_bob", SECRET)  # another key, no sign-out between
    assert desk.cached_transactions("user_good") is None
    assert await read_whole(desk, "user_good") is not first
    await desk.close()


def earlier_version_files(dirs: AppDirs, service: str, jobs: list[dict[str, Any]]) -> None:
    """What an earlier accountdesk left: one jobs list and one lookup list per service."""
    dirs.data_dir.mkdir(parents=True, exist_ok=True)
    document = {"version": 1, "services": {service: jobs, "https://other.example": [OTHER]}}
    (dirs.data_dir / "jobs.json").write_text(json.dumps(document))
    recent = {service: ["user_mfa", "user_good"], "https://other.example": ["u_9"]}
    (dirs.data_dir / "recent.json").write_text(json.dumps(recent))


OTHER = {
    "user_id": "u_9",
    "job_id": "job_other",
    "kind": "identity",
    "status": "running",
    "created_at": START.isoformat(),
}


def record(job_id: str, user_id: str, status: str, **extra: Any) -> dict[str, Any]:
    return {
        "user_id": user_id,
        "job_id": job_id,
        "kind": "balance_refresh",
        "status": status,
        "created_at": START.isoformat(),
        "tracked_at": START.isoformat(),
        **extra,
    }


def legacy_jobs(dirs: AppDirs, service: str) -> list[str]:
    document = json.loads((dirs.data_dir / "jobs.json").read_text())
    return [job["job_id"] for job in document["services"].get(service, [])]


async def test_an_earlier_versions_jobs_go_to_the_key_that_can_poll_them(
    room: Any, dirs: AppDirs
) -> None:
    # Alice's job, started with an earlier version (one list for the service);
    # the earlier version's poll with bob's token had already marked it gone.
    maker, _ = desk_on(room, dirs)
    await maker.sign_in("trainee_alice", SECRET)
    job = await maker.client.refresh_balance("user_mfa")
    await maker.close()
    earlier_version_files(
        dirs,
        URL,
        [record(job.job_id, "user_mfa", "mfa_required", gone=True, last_error_code="AC-109")],
    )

    bob, bob_wire = desk_on(room, dirs)
    await bob.sign_in("trainee_bob", SECRET)
    # Shown apart, never offered for MFA to bob, and not his to lose.
    [shown] = bob.tracker.jobs
    assert shown.legacy and not shown.needs_mfa
    await poll_everything(bob)
    await poll_everything(bob)
    assert len(bob_wire.job_polls) == 1  # one try per key and session: not bob's
    [still] = bob.tracker.jobs
    assert still.legacy and still.job_id == job.job_id
    assert bob.tracker.pollable() == [] and bob.unfinished_jobs() == 0
    assert legacy_jobs(dirs, URL) == [job.job_id]
    # The lookups went to the first key that signed in: bob.
    assert bob.recents.user_ids == ["user_mfa", "user_good"]
    await bob.close()

    alice, _ = desk_on(room, dirs)
    await alice.sign_in("trainee_alice", SECRET)
    assert alice.recents.user_ids == []  # given to bob, once
    await poll_everything(alice)
    [claimed] = alice.tracker.jobs
    assert claimed.job_id == job.job_id and not claimed.legacy
    assert claimed.status is JobStatus.MFA_REQUIRED and not claimed.gone and claimed.needs_mfa
    await alice.close()  # saves (a running app saves at its next tick)
    assert legacy_jobs(dirs, URL) == []  # moved, not copied

    again, _ = desk_on(room, dirs)
    await again.sign_in("trainee_bob", SECRET)
    assert again.tracker.jobs == []
    await again.close()
    # Another service's entries were never touched.
    document = json.loads((dirs.data_dir / "jobs.json").read_text())
    assert document["services"]["https://other.example"] == [OTHER]
    recent = json.loads((dirs.data_dir / "recent.json").read_text())
    assert recent == {"https://other.example": ["u_9"]}


async def test_an_earlier_embedded_runs_jobs_are_gone_for_every_key(
    room: Any, dirs: AppDirs
) -> None:
    """The embedded sandbox is new each run: no key can ever poll a job of an earlier run."""
    earlier_version_files(dirs, "sandbox", [record("job_9999", "user_good", "pending")])
    desk, _ = desk_on(room, dirs, base_url=None)
    await desk.sign_in("trainee_carol", SECRET)
    await poll_everything(desk)
    [job] = desk.tracker.jobs
    assert job.gone and not job.legacy and job.last_error_code == "AC-109"
    assert desk.clear_finished_jobs() == 1
    assert legacy_jobs(dirs, "sandbox") == []
    await desk.close()


async def test_clearing_finished_jobs_takes_finished_ones_of_an_earlier_version(
    room: Any, dirs: AppDirs
) -> None:
    earlier_version_files(
        dirs,
        URL,
        [
            record("job_done", "user_good", "completed"),
            record("job_live", "user_good", "running"),
        ],
    )
    desk, _ = desk_on(room, dirs)
    await desk.sign_in("trainee_dan", SECRET)
    await poll_everything(desk)  # neither is dan's
    assert desk.clear_finished_jobs() == 1  # the finished one; the running one may be someone's
    assert legacy_jobs(dirs, URL) == ["job_live"]
    assert [job.job_id for job in desk.tracker.jobs] == ["job_live"]
    await desk.close()


@pytest.mark.parametrize(
    "api_key",
    ["../x", "..", ".", "a/b", "a\\b", "/etc/passwd", "x" * 4000, "ключ", "con", "a\x00b", " "],
)
def test_a_key_never_leaves_the_data_folder(tmp_path: Path, api_key: str) -> None:
    dirs = AppDirs(tmp_path / "config.toml", tmp_path / "data", tmp_path / "logs")
    folder = dirs.state_dir("https://api.bank.example", api_key)
    assert folder.parent == dirs.data_dir / "state"
    name = folder.name
    assert name not in {".", ".."} and "/" not in name and "\\" not in name and "\x00" not in name
    assert len(name) <= 100 and not name.startswith(".")
    assert all(char.isascii() and (char.isalnum() or char in "_.-") for char in name)
    folder.mkdir(parents=True)  # a name the file system takes as it is
    assert os.path.realpath(folder).startswith(os.path.realpath(dirs.data_dir / "state"))


def test_each_service_and_key_has_a_folder_of_its_own(tmp_path: Path) -> None:
    dirs = AppDirs(tmp_path / "config.toml", tmp_path / "data", tmp_path / "logs")
    pairs = [
        ("sandbox", "sandbox_key"),
        ("sandbox", "limited_key"),
        (URL, "sandbox_key"),
        (URL, "trainee_alice"),
        (URL, "Trainee_Alice"),  # differs in case only: apart on macOS too
        (URL, "trainee/alice"),
        (URL, "trainee_alice "),
        ("https://api.bank.example", "trainee_alice"),
    ]
    folders = [dirs.state_dir(service, key) for service, key in pairs]
    assert len({folder.name.casefold() for folder in folders}) == len(pairs)
    assert dirs.state_dir(URL, "trainee_alice") == folders[3]  # stable
    # Readable for a person looking at the folder: the key's name is in it.
    assert "trainee_alice" in folders[3].name


async def test_a_key_with_odd_characters_keeps_its_files_in_the_data_folder(
    dirs: AppDirs,
) -> None:
    def service(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/token":
            return httpx.Response(
                200, json={"access_token": "t", "token_type": "Bearer", "expires_in": 60}
            )
        if request.url.path.endswith("/refresh"):
            return httpx.Response(
                202,
                json={"job_id": "job_1", "user_id": "u_1", "kind": "balance_refresh",
                      "status": "pending", "created_at": START.isoformat()},
            )  # fmt: skip
        return httpx.Response(404, json={"error": {"code": "AC-904", "message": "nf"}})

    settings = Settings(base_url="https://api.bank.example")
    desk = Desk(settings, dirs, transport=httpx.MockTransport(service), clock=lambda: START)
    await desk.sign_in("../../x", SecretStr("secret-value-1"))
    desk.track_job(await desk.client.refresh_balance("u_1"), "u_1")
    desk.recents.add("u_1")
    await desk.close()
    written = [path for path in dirs.data_dir.parent.rglob("*") if path.is_file()]
    assert written and all(path.is_relative_to(dirs.data_dir / "state") for path in written)
    assert not (dirs.data_dir.parent / "x").exists()


def test_a_job_of_an_earlier_version_says_so_on_its_row() -> None:
    from accountdesk.core.jobs.rows import job_details, job_note
    from accountdesk.core.jobs.tracker import TrackedJob

    job = TrackedJob.from_record(record("job_7", "user_good", "in_progress"))
    job.legacy = True
    assert job_note(job, stale=False) == "earlier version: not this key's yet"
    assert ("", EARLIER_VERSION_DETAIL) in job_details(job)
    job.legacy = False
    assert job_note(job, stale=False) == ""


EARLIER_VERSION_DETAIL = (
    "kept by an earlier version for this service: it becomes the job of the first key "
    "whose poll of it succeeds"
)
