"""What a tour's caption says, and whether a step went as its script expects.

Free of Textual: the runner (``accountdesk.tui.tour``) performs the steps and
draws a :class:`Caption`; everything worded is decided here.

Code texts come from the error catalogue through :func:`code_texts`, never
from a tour file: a caption that explains ``AC-110`` shows the catalogue's
message, what the code means and what support does next.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from accountdesk.contract import ERRORS
from accountdesk.core.tours.clock_steps import describe_step
from accountdesk.core.tours.tour import Tour, TourStep

__all__ = [
    "Caption",
    "CodeTexts",
    "ServiceAnswer",
    "StepOutcome",
    "StepState",
    "caption_for",
    "code_texts",
    "judge_step",
]


@dataclass(frozen=True, slots=True)
class CodeTexts:
    """One catalogue code as a caption explains it."""

    code: str
    status: int
    message: str
    meaning: str
    next_step: str | None


def code_texts(code: str, *, user_id: str = "") -> CodeTexts:
    """The catalogue's texts for ``code`` (KeyError for a code it does not list).

    ``meaning`` and ``next_step`` are the catalogue's support guidance; a row
    without guidance falls back to the contract's condition, and no next step.
    """
    spec = ERRORS[code]
    return CodeTexts(
        code=code,
        status=spec.status,
        message=spec.message_for(user_id=user_id, job_id="…"),
        meaning=spec.meaning or spec.condition,
        next_step=spec.next_step or None,
    )


class StepState(StrEnum):
    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"


@dataclass(frozen=True, slots=True)
class StepOutcome:
    """How the last run of a step ended; ``problem`` says why it failed."""

    state: StepState
    problem: str | None = None

    @classmethod
    def failed(cls, problem: str) -> StepOutcome:
        return cls(StepState.FAILED, problem)


@dataclass(frozen=True, slots=True)
class ServiceAnswer:
    """Something the service said during a step: an error or a job that failed."""

    code: str | None
    title: str
    message: str


def judge_step(step: TourStep, answers: Sequence[ServiceAnswer]) -> StepOutcome:
    """Done when the service answered what the script expects, and nothing else."""
    for answer in answers:
        if answer.code is None or answer.code not in step.codes:
            return StepOutcome.failed(f"Unexpected answer: {answer.title}: {answer.message}")
    if step.expect is not None and step.expect not in {answer.code for answer in answers}:
        return StepOutcome.failed(
            f"Expected {step.expect}, but the service did not answer it this time."
        )
    return StepOutcome(StepState.DONE)


@dataclass(frozen=True, slots=True)
class Caption:
    """Everything the caption panel shows for one step."""

    heading: str
    position: str
    say: str
    look: str | None
    codes: tuple[CodeTexts, ...]
    status: str
    failed: bool
    clock: str
    keys: str


def caption_for(
    tour: Tour,
    index: int,
    outcome: StepOutcome,
    *,
    sandbox_now: dt.datetime | None = None,
) -> Caption:
    """The caption of step ``index`` (from 0) after ``outcome``."""
    step = tour.steps[index]
    last = index == len(tour.steps) - 1
    if outcome.state is StepState.RUNNING:
        status = "Working…"
    elif outcome.state is StepState.FAILED:
        status = (
            f"✗ This step did not go as planned. {outcome.problem} "
            "Space goes on, Backspace tries again, Esc leaves the tour."
        )
    else:
        status = ""
    return Caption(
        heading=f"Tour · {tour.title}",
        position=f"step {index + 1} of {len(tour.steps)}",
        say=step.say,
        look=step.look,
        codes=tuple(code_texts(code, user_id=step.user or "") for code in step.codes),
        status=status,
        failed=outcome.state is StepState.FAILED,
        clock=_clock_text(step, sandbox_now),
        keys=(
            "Space ends the tour · Bksp again · Esc leave"
            if last
            else "Space next · Bksp again · Esc leave"
        ),
    )


def _clock_text(step: TourStep, now: dt.datetime | None) -> str:
    if now is None:
        return ""
    moved = f" ({describe_step(step.seconds)})" if step.seconds is not None else ""
    return f"Sandbox {now.astimezone(dt.UTC):%H:%M:%S} UTC{moved}"
