"""Tour files: the shipped ones are valid, and a bad one is one line naming file, step and field."""

from __future__ import annotations

from pathlib import Path

import pytest

from accountdesk.core.tours.tour import (
    Action,
    TourFileError,
    load_tour,
    parse_tour,
    shipped_tour,
    shipped_tours,
)

HEAD = 'title = "My tour"\nsummary = "What it shows."\n'


def _error(text: str) -> str:
    with pytest.raises(TourFileError) as raised:
        parse_tour(text, tour_id="mine", source="mine.toml")
    message = str(raised.value)
    assert "\n" not in message
    return message


def test_shipped_tours_load_in_picker_order() -> None:
    tours = shipped_tours()
    assert [tour.order for tour in tours] == sorted(tour.order for tour in tours)
    assert len({tour.id for tour in tours}) == len(tours)
    assert shipped_tour("mfa").title.startswith("MFA")
    with pytest.raises(KeyError, match="the tours are: sign-in"):
        shipped_tour("nosuch")


def test_a_file_of_ones_own(tmp_path: Path) -> None:
    path = tmp_path / "Escalation drill.toml"
    path.write_text(
        HEAD
        + '[[steps]]\ndo = "sign_in"\nsay = "In."\n'
        + '[[steps]]\ndo = "look_up"\nuser = "user_manual"\nsay = "Refused."\nexpect = "AC-105"\n'
        + '[[steps]]\ndo = "advance_clock"\nseconds = 90\nsay = "Later."\nexplain = ["AC-108"]\n'
    )
    tour = load_tour(path)
    assert tour.id == "escalation-drill"
    assert [step.do for step in tour.steps] == [
        Action.SIGN_IN,
        Action.LOOK_UP,
        Action.ADVANCE_CLOCK,
    ]
    assert tour.steps[1].codes == ("AC-105",) and tour.steps[2].codes == ("AC-108",)
    assert tour.steps[2].seconds == 90


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("title = ", "mine.toml: not valid TOML: "),
        ('summary = "s"\n[[steps]]\nsay = "x"\n', "mine.toml: title: required"),
        (HEAD + 'colour = 1\n[[steps]]\nsay = "x"\n', "mine.toml: colour: not a field of a tour"),
        (HEAD, "mine.toml: steps: required"),
        (HEAD + "steps = []\n", "mine.toml: steps: a tour has at least one step"),
        (HEAD + "steps = [1]\n", "mine.toml: step 1: must be a table"),
        (HEAD + '[[steps]]\ndo = "sign_in"\n', "mine.toml: step 1: say: required"),
        (
            HEAD + '[[steps]]\nsay = "x"\nwait = 3\n',
            "mine.toml: step 1: wait: not a field of a step",
        ),
        (
            HEAD + '[[steps]]\nsay = "x"\n[[steps]]\ndo = "jump"\nsay = "y"\n',
            "mine.toml: step 2: do: 'jump' is not an action; the actions: say, sign_in,",
        ),
        (
            HEAD + '[[steps]]\nsay = "x"\n[[steps]]\nsay = "x"\n[[steps]]\n'
            'do = "advance_clock"\nsay = "y"\n',
            "mine.toml: step 3: seconds: advance_clock needs seconds",
        ),
        (
            HEAD + '[[steps]]\nsay = "x"\nuser = "user_good"\n',
            "mine.toml: step 1: user: say takes no user",
        ),
        (
            HEAD + '[[steps]]\ndo = "advance_clock"\nseconds = 31622401\nsay = "x"\n',
            "mine.toml: step 1: seconds: a clock step is more than 0 seconds and at most 366 days",
        ),
        (
            HEAD + '[[steps]]\ndo = "advance_clock"\nseconds = 0\nsay = "x"\n',
            "mine.toml: step 1: seconds: a clock step is more than 0 seconds",
        ),
        (
            HEAD + '[[steps]]\nsay = "x"\nexpect = "AC-999"\n',
            "mine.toml: step 1: expect: AC-999 is not a code of the error catalogue",
        ),
        (
            HEAD + '[[steps]]\nsay = "x"\nexplain = ["AC-204"]\n',
            "mine.toml: step 1: explain: AC-204 is not a code of the error catalogue",
        ),
        (
            HEAD + '[[steps]]\ndo = "look_up"\nuser = "../x"\nsay = "x"\n',
            "mine.toml: step 1: user: '/' is not allowed",
        ),
        (
            HEAD + '[[steps]]\ndo = "answer_mfa"\nsay = "x"\n',
            "mine.toml: step 1: answer: answer_mfa needs answer",
        ),
        (
            HEAD + '[[steps]]\nsay = "x"\nexpect = "AC-101"\nexplain = ["AC-101"]\n',
            "mine.toml: step 1: explain: AC-101 is already the expected code",
        ),
        (
            HEAD + '[[steps]]\nsay = "Red \\u001b[31malert"\n',
            "mine.toml: step 1: say: control characters are not allowed",
        ),
        (
            'title = "Mine\\u202e"\nsummary = "s"\n[[steps]]\nsay = "x"\n',
            "mine.toml: title: control characters are not allowed",
        ),
        (
            HEAD + f'[[steps]]\nsay = "{"x" * 400}"\n',
            "mine.toml: step 1: say: a caption is at most 320 characters; this one has 400",
        ),
    ],
    ids=lambda value: value[:40] if isinstance(value, str) else None,
)
def test_a_bad_tour_is_one_line_naming_step_and_field(text: str, expected: str) -> None:
    assert _error(text).startswith(expected)


def test_unreadable_files(tmp_path: Path) -> None:
    missing = tmp_path / "none.toml"
    with pytest.raises(TourFileError, match=r"none\.toml: cannot read: No such file"):
        load_tour(missing)
    binary = tmp_path / "binary.toml"
    binary.write_bytes(b'title = "\xff"\n')
    with pytest.raises(TourFileError, match=r"binary\.toml: not UTF-8 text"):
        load_tour(binary)


def test_no_caption_promises_what_a_demo_does_not_do() -> None:
    """A demo keeps nothing (a scratch folder, removed at exit): no caption may say it keeps."""
    keeping = ("kept across runs", "across runs", "next time", "next run", "remembered")
    for tour in shipped_tours():
        for number, step in enumerate(tour.steps, 1):
            text = step.say.casefold()
            for claim in keeping:
                if claim in text:
                    assert "outside a demo" in text, (tour.id, number, step.say)


def test_a_step_can_point_at_a_user_to_bring_into_view() -> None:
    tour = parse_tour(
        HEAD + '[[steps]]\ndo = "sign_in"\nsay = "In."\npoint_at = "user_bulk"\n',
        tour_id="mine",
        source="mine.toml",
    )
    assert tour.steps[0].point_at == "user_bulk"
    bad = HEAD + '[[steps]]\ndo = "sign_in"\nsay = "In."\npoint_at = "../x"\n'
    assert _error(bad).startswith("mine.toml: step 1: point_at: ")
    # The bulk tour's first step points at user_bulk, the last of the scenario list.
    assert shipped_tour("bulk").steps[0].point_at == "user_bulk"
