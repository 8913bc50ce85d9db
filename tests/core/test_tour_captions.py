"""What a caption says, and whether a step went as its script expects (no screen)."""

from __future__ import annotations

import datetime as dt
from types import SimpleNamespace

import pytest

from accountdesk.contract import ERRORS
from accountdesk.core.tours import captions as tour_captions
from accountdesk.core.tours.captions import (
    ServiceAnswer,
    StepOutcome,
    StepState,
    caption_for,
    code_texts,
    judge_step,
)
from accountdesk.core.tours.tour import parse_tour

TOUR = parse_tour(
    'title = "Refusals"\nsummary = "s"\n'
    '[[steps]]\ndo = "look_up"\nuser = "user_manual"\nsay = "Open it."\nexpect = "AC-105"\n'
    'look = "the Balance panel"\n'
    '[[steps]]\ndo = "advance_clock"\nseconds = 300\nsay = "Later."\nexplain = ["AC-110"]\n'
    '[[steps]]\nsay = "Done."\n',
    tour_id="refusals",
    source="refusals.toml",
)
NOW = dt.datetime(2026, 11, 20, 9, 35, tzinfo=dt.UTC)


def _answer(code: str | None) -> ServiceAnswer:
    return ServiceAnswer(code, f"{code} · 400" if code else "Cannot connect", "text")


def test_code_texts_come_from_the_catalogue() -> None:
    texts = code_texts("AC-102", user_id="user_nobody")
    spec = ERRORS["AC-102"]
    assert texts.message == spec.message_for(user_id="user_nobody")
    assert (texts.status, texts.meaning, texts.next_step) == (
        spec.status,
        spec.meaning,
        spec.next_step,
    )
    assert texts.meaning and texts.next_step  # the catalogue has guidance for every code


def test_a_row_without_guidance_falls_back_to_the_condition(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    spec = SimpleNamespace(
        status=405,
        condition="The client took too long to answer MFA.",
        meaning="",
        next_step="",
        message_for=lambda **_: "Your MFA session has expired.",
    )
    monkeypatch.setattr(tour_captions, "ERRORS", {"AC-110": spec})
    texts = code_texts("AC-110")
    assert (texts.meaning, texts.next_step) == (spec.condition, None)


@pytest.mark.parametrize(
    ("index", "answers", "state", "problem"),
    [
        (0, ["AC-105"], StepState.DONE, None),
        (0, ["AC-105", "AC-105"], StepState.DONE, None),
        (0, [], StepState.FAILED, "Expected AC-105, but the service did not answer it"),
        (0, ["AC-105", "AC-104"], StepState.FAILED, "Unexpected answer: AC-104 · 400: text"),
        (0, [None], StepState.FAILED, "Unexpected answer: Cannot connect: text"),
        (1, [], StepState.DONE, None),
        (1, ["AC-110"], StepState.DONE, None),  # explained codes may come
        (2, ["AC-112"], StepState.FAILED, "Unexpected answer: AC-112 · 400"),
    ],
)
def test_judging_a_step(
    index: int, answers: list[str | None], state: StepState, problem: str | None
) -> None:
    outcome = judge_step(TOUR.steps[index], [_answer(code) for code in answers])
    assert outcome.state is state
    if problem is None:
        assert outcome.problem is None
    else:
        assert outcome.problem is not None and outcome.problem.startswith(problem)


def test_a_caption_says_where_to_look_the_codes_and_the_clock() -> None:
    caption = caption_for(TOUR, 0, StepOutcome(StepState.DONE), sandbox_now=NOW)
    assert (caption.heading, caption.position) == ("Tour · Refusals", "step 1 of 3")
    assert (caption.say, caption.look) == ("Open it.", "the Balance panel")
    assert [code.code for code in caption.codes] == ["AC-105"]
    assert caption.clock == "Sandbox 09:35:00 UTC"
    assert caption.keys.startswith("Space next") and not caption.failed and not caption.status
    moved = caption_for(TOUR, 1, StepOutcome(StepState.DONE), sandbox_now=NOW)
    assert moved.clock == "Sandbox 09:35:00 UTC (+5 min)"
    last = caption_for(TOUR, 2, StepOutcome(StepState.DONE))
    assert last.keys.startswith("Space ends the tour") and last.clock == ""


def test_a_caption_while_working_and_after_a_failure() -> None:
    working = caption_for(TOUR, 0, StepOutcome(StepState.RUNNING))
    assert working.status == "Working…" and not working.failed
    failed = caption_for(TOUR, 0, StepOutcome.failed("No MFA dialog is open."))
    assert failed.failed
    assert "did not go as planned. No MFA dialog is open." in failed.status
    assert "Space goes on" in failed.status and "Esc leaves" in failed.status
