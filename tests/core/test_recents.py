"""Recent lookups: most recent first, per service, bounded, and merged with another app's."""

from __future__ import annotations

import json
from pathlib import Path

from accountdesk.core.recents import MAX_RECENT, RecentLookups
from accountdesk.core.store import Store


def recents(path: Path, service: str = "sandbox") -> RecentLookups:
    return RecentLookups(Store(), path, service)


def test_most_recent_first_without_duplicates_and_bounded(tmp_path: Path) -> None:
    r = recents(tmp_path / "recent.json")
    for n in range(MAX_RECENT + 3):
        r.add(f"user_{n}")
    r.add("user_5")
    assert r.user_ids[0] == "user_5" and len(r.user_ids) == MAX_RECENT
    assert len(set(r.user_ids)) == MAX_RECENT
    assert recents(tmp_path / "recent.json").user_ids == r.user_ids


def test_lists_are_per_service(tmp_path: Path) -> None:
    path = tmp_path / "recent.json"
    recents(path).add("user_good")
    recents(path, "https://live.example").add("u_1")
    assert recents(path).user_ids == ["user_good"]
    assert recents(path, "https://live.example").user_ids == ["u_1"]


def test_two_apps_keep_each_others_lookups(tmp_path: Path) -> None:
    path = tmp_path / "recent.json"
    a, b = recents(path), recents(path)
    a.add("user_a")
    b.add("user_b")
    assert set(b.user_ids) == {"user_a", "user_b"}


def test_the_old_single_list_format_is_the_sandboxs(tmp_path: Path) -> None:
    path = tmp_path / "recent.json"
    path.write_text(json.dumps(["user_good", 3, "user_mfa"]))
    assert recents(path).user_ids == ["user_good", "user_mfa"]


def test_forget_and_an_unwritable_dir_still_work_in_memory(tmp_path: Path) -> None:
    blocker = tmp_path / "data"
    blocker.write_text("not a folder")
    problems: list[object] = []
    r = RecentLookups(Store(on_problem=problems.append), blocker / "recent.json", "sandbox")
    r.add("user_good")
    r.add("user_mfa")
    r.forget("user_good")
    assert r.user_ids == ["user_mfa"] and problems
