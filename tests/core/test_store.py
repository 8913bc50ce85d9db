"""The store: atomic, locked, owner-only writes; unreadable files set aside, never lost."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

import pytest

from accountdesk.core.store import CorruptFile, Store, StoreProblem


def _doc(data: Any) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise CorruptFile("not an object")
    return data


def _empty() -> dict[str, Any]:
    return {}


@pytest.fixture
def problems() -> list[StoreProblem]:
    return []


@pytest.fixture
def store(problems: list[StoreProblem]) -> Store:
    return Store(on_problem=problems.append)


def test_missing_file_reads_as_default_without_a_problem(
    store: Store, problems, tmp_path: Path
) -> None:
    assert store.read_json(tmp_path / "none.json", _doc, _empty) == {}
    assert problems == []


def test_written_files_are_owner_only_and_whole(store: Store, tmp_path: Path) -> None:
    path = tmp_path / "deep" / "file.json"
    assert store.write_json(path, {"a": 1})
    assert json.loads(path.read_text()) == {"a": 1}
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    # No temporary file is left beside it.
    assert [p.name for p in path.parent.iterdir()] == ["file.json"]


@pytest.mark.parametrize(
    "content",
    [b"\xff\xfe not utf-8", b"{not json", b"[1, 2, 3]"],
    ids=["not-utf8", "not-json", "wrong-shape"],
)
def test_undecodable_file_is_set_aside_with_a_timestamp_not_overwritten(
    store: Store, problems, tmp_path: Path, content: bytes
) -> None:
    path = tmp_path / "jobs.json"
    path.write_bytes(content)
    assert store.read_json(path, _doc, _empty) == {}
    assert not path.exists()
    (aside,) = tmp_path.glob("jobs.json.unreadable-*")
    assert aside.read_bytes() == content  # the user's bytes, kept
    (problem,) = problems
    assert problem.set_aside == aside
    assert "moved to" in problem.sentence


def test_two_set_asides_in_one_second_keep_both_files(store: Store, tmp_path: Path) -> None:
    path = tmp_path / "recent.json"
    for content in (b"{one", b"{two"):
        path.write_bytes(content)
        store.read_json(path, _doc, _empty)
    assert sorted(p.read_bytes() for p in tmp_path.glob("recent.json.unreadable-*")) == [
        b"{one",
        b"{two",
    ]


def test_a_folder_where_the_file_should_be_is_reported_and_left_alone(
    store: Store, problems, tmp_path: Path
) -> None:
    path = tmp_path / "jobs.json"
    path.mkdir()
    assert store.read_json(path, _doc, _empty) == {}
    assert path.is_dir()
    assert "folder" in problems[0].sentence


def test_an_unusable_data_dir_is_a_problem_not_a_crash(
    store: Store, problems, tmp_path: Path
) -> None:
    blocker = tmp_path / "data"
    blocker.write_text("a file where the data dir should be")
    assert store.write_json(blocker / "recent.json", {}) is False
    assert store.update_json(blocker / "recent.json", lambda d: d, _doc, _empty) is None
    assert len(problems) == 2
    assert all(p.action == "save" for p in problems)


def test_update_sees_what_another_writer_wrote(store: Store, tmp_path: Path) -> None:
    path = tmp_path / "doc.json"
    store.write_json(path, {"theirs": 1})
    result = store.update_json(path, lambda d: {**d, "ours": 2}, _doc, _empty)
    assert result == {"theirs": 1, "ours": 2}
    assert json.loads(path.read_text()) == {"theirs": 1, "ours": 2}


def test_update_text_refusal_leaves_the_file_byte_for_byte(
    store: Store, problems, tmp_path: Path
) -> None:
    path = tmp_path / "config.toml"
    path.write_bytes(b"# mine\nkey = [\n")

    def refuse(text: str | None) -> str:
        raise ValueError("it is not valid TOML; nothing was changed")

    assert store.update_text(path, refuse) is False
    assert path.read_bytes() == b"# mine\nkey = [\n"
    assert "nothing was changed" in problems[0].sentence


def test_a_held_lock_times_out_with_a_sentence(tmp_path: Path, problems) -> None:
    path = tmp_path / "doc.json"
    holder = Store(lock_timeout=0.05)
    waiter = Store(on_problem=problems.append, lock_timeout=0.05)
    with holder.locked(path):
        assert waiter.update_json(path, lambda d: d, _doc, _empty) is None
    assert "held its lock" in problems[0].reason


def test_write_failure_removes_the_temporary_file(store: Store, tmp_path: Path) -> None:
    def explode(stream: Any) -> None:
        stream.write("half")
        raise OSError(28, "No space left on device")

    path = tmp_path / "export.csv"
    assert store.write_stream(path, explode) is None
    assert list(tmp_path.iterdir()) == []


def test_unreadable_by_permission_is_reported_not_set_aside(
    store: Store, problems, tmp_path: Path
) -> None:
    if os.geteuid() == 0:
        pytest.skip("root reads any file")
    path = tmp_path / "jobs.json"
    path.write_text("{}")
    path.chmod(0)
    assert store.read_json(path, _doc, _empty) == {}
    assert path.exists()
    assert problems[0].set_aside is None
