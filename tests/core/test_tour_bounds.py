"""A tour file is bounded before it is read, and its limits are said in a person's words.

A 20 MB tour was read whole (77 MB, 1.5 s) before "summary: String should
have at most 240 characters" (issue 33, item 12); a folder given as the tour
file said "cannot read: Is a directory" and a device was read for ever.
"""

from __future__ import annotations

import os
import threading
import tracemalloc
from pathlib import Path

import pytest

from accountdesk.core.tours.files import MAX_TOUR_BYTES
from accountdesk.core.tours.tour import TourFileError, load_tour, parse_tour

HEAD = 'title = "My tour"\nsummary = "What it shows."\n'
STEP = '[[steps]]\nsay = "x"\n'
PACKS_21 = ", ".join(['"p.toml"'] * 21)
NOT_REGULAR = "is not a regular file (a device, a pipe or a socket); a tour is a file"


def _error(text: str) -> str:
    with pytest.raises(TourFileError) as raised:
        parse_tour(text, tour_id="mine", source="mine.toml")
    return str(raised.value)


def test_a_tour_over_the_bound_is_refused_by_its_size_before_it_is_read(tmp_path: Path) -> None:
    huge = tmp_path / "huge.toml"
    with huge.open("w", encoding="utf-8") as out:
        out.write(HEAD + STEP)
        line = "# " + "x" * 1021 + "\n"
        for _ in range(20 * 1024):  # 20 MB of comments
            out.write(line)
    tracemalloc.start()
    try:
        with pytest.raises(TourFileError) as raised:
            load_tour(huge)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert str(raised.value) == f"{huge}: is 20.0 MB; a tour is at most 256 KB"
    assert peak < MAX_TOUR_BYTES * 4  # not read: 20 MB would be over 20 MB


def test_a_tour_at_the_bound_is_read(tmp_path: Path) -> None:
    path = tmp_path / "full.toml"
    text = HEAD + STEP
    path.write_text(text + "#" * (MAX_TOUR_BYTES - len(text) - 1) + "\n", encoding="utf-8")
    assert path.stat().st_size == MAX_TOUR_BYTES
    assert load_tour(path).title == "My tour"


def test_a_folder_a_device_and_a_pipe_are_not_tours(tmp_path: Path) -> None:
    with pytest.raises(TourFileError) as raised:
        load_tour(tmp_path)
    assert str(raised.value) == f"{tmp_path}: is a folder, not a tour file"
    with pytest.raises(TourFileError) as raised:
        load_tour(Path("/dev/zero"))
    assert str(raised.value) == f"/dev/zero: {NOT_REGULAR}"
    pipe = tmp_path / "pipe.toml"
    os.mkfifo(pipe)
    said: list[str] = []

    def load() -> None:
        with pytest.raises(TourFileError) as raised:
            load_tour(pipe)
        said.append(str(raised.value))

    reader = threading.Thread(target=load, daemon=True)  # a pipe read would wait for ever
    reader.start()
    reader.join(10)
    assert not reader.is_alive() and said == [f"{pipe}: {NOT_REGULAR}"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (HEAD + STEP * 61, "mine.toml: steps: a tour has at most 60 steps; this one has 61"),
        (
            f'title = "{"T" * 61}"\nsummary = "s"\n' + STEP,
            "mine.toml: title: a title is at most 60 characters; this one has 61",
        ),
        (
            f'title = "T"\nsummary = "{"s" * 250}"\n' + STEP,
            "mine.toml: summary: a summary is at most 240 characters; this one has 250",
        ),
        (
            'title = ""\nsummary = "s"\n' + STEP,
            "mine.toml: title: a title cannot be empty",
        ),
        (
            HEAD + f'[[steps]]\nsay = "{"x" * 400}"\n',
            "mine.toml: step 1: say: a caption is at most 320 characters; this one has 400",
        ),
        (
            HEAD + '[[steps]]\nsay = ""\n',
            "mine.toml: step 1: say: a caption cannot be empty",
        ),
        (
            HEAD + f'[[steps]]\nsay = "x"\nlook = "{"l" * 81}"\n',
            "mine.toml: step 1: look: at most 80 characters; this one has 81",
        ),
        (
            HEAD + f'[[steps]]\ndo = "answer_mfa"\nsay = "x"\nanswer = "{"1" * 129}"\n',
            "mine.toml: step 1: answer: an answer is at most 128 characters; this one has 129",
        ),
        (
            HEAD + f"scenarios = [{PACKS_21}]\n" + STEP,
            "mine.toml: scenarios: a tour names at most 20 packs; this one names 21",
        ),
    ],
    ids=lambda value: value[:40] if isinstance(value, str) else None,
)
def test_limits_are_said_in_a_persons_words(text: str, expected: str) -> None:
    assert _error(text) == expected
