"""A pack or tour that is not a regular file is named for what it is (issue 33, item 16).

``scenarios check /dev/zero`` said "is 0.0 MB; a pack is at most 16 MB"
(16 MB of zeros read first); a tour naming a folder as its pack said "no
such file".
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from accountdesk import cli
from accountdesk.core.tours.tour import TourFileError, load_tour
from accountdesk.sandbox import load_scenarios
from accountdesk.sandbox.packs.reading import PackError

NOT_REGULAR = "is not a regular file (a device, a pipe or a socket)"


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "pipe.toml"
    os.mkfifo(path)  # nobody writes to it: reading it would wait for ever
    return path


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/null"])
def test_a_device_is_not_a_pack(device: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["scenarios", "check", device]) == 2
    assert capsys.readouterr().err == f"accountdesk: {device}: {NOT_REGULAR}; a pack is a file\n"


def test_a_pipe_is_not_a_pack(fifo: Path) -> None:
    problems: list[str] = []

    def load() -> None:
        with pytest.raises(PackError) as caught:
            load_scenarios([fifo])
        problems.extend(caught.value.problems)

    # In a thread: a reader that opened the pipe would wait for ever.
    reader = threading.Thread(target=load, daemon=True)
    reader.start()
    reader.join(10)
    assert not reader.is_alive(), "the pack reader waits on a pipe nobody writes to"
    assert problems == [f"{fifo}: {NOT_REGULAR}; a pack is a file"]


def test_a_tour_naming_a_folder_or_a_device_says_so(tmp_path: Path) -> None:
    (tmp_path / "packs").mkdir()
    for named, problem in [
        ("packs", "is a folder, not a scenario pack file"),
        ("/dev/zero", f"{NOT_REGULAR}; a pack is a file"),
        ("nope.toml", "no such file"),
    ]:
        tour = tmp_path / "tour.toml"
        tour.write_text(
            f'title = "T"\nsummary = "S"\nscenarios = "{named}"\n[[steps]]\nsay = "x"\n',
            encoding="utf-8",
        )
        with pytest.raises(TourFileError) as caught:
            load_tour(tour)
        assert str(caught.value) == f"{tour}: scenarios: {named}: {problem}"
