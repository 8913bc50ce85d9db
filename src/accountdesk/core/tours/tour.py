"""Guided tours as data: a script of steps over the sandbox, read from TOML and validated.

A tour is a small TOML file; the shipped ones are package data
(``accountdesk/tours/*.toml``), a support lead's own is read with
``accountdesk demo --file``::

    title = "The manual user's five refusals"
    summary = "One user linked by hand, five things the service will not do."
    order = 20                      # place in the tour picker (optional)
    scenarios = "my-users.toml"     # scenario packs the tour's sandbox serves (optional;
                                    # a path or a list, relative to the tour file)

    [[steps]]
    do = "look_up"                  # what the step does in the real screens
    user = "user_manual"            # what it needs: user, answer, seconds, secret
    say = "We open the account of a manually linked user."   # the caption, read aloud
    look = "the Balance panel"      # where the audience looks (optional)
    point_at = "user_manual"        # a user to bring into view and highlight (optional)
    expect = "AC-105"               # the code the service must answer (optional)
    explain = ["AC-107"]            # more codes to explain (optional)

A step's caption shows the texts of ``expect`` and ``explain`` codes from the
error catalogue (:mod:`accountdesk.core.tours.captions`), never its own copy.
The file's name (without ``.toml``) is the tour's id: ``accountdesk demo mfa``.

Every problem is a :class:`TourFileError` whose text is one line naming the
file, the step and the field: ``my.toml: step 3: seconds: advance_clock needs
seconds``.
"""

from __future__ import annotations

import re
import tomllib
from enum import StrEnum
from importlib import resources
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator
from pydantic_core import PydanticCustomError

from accountdesk.contract import ERRORS
from accountdesk.contract.identifiers import sandbox_user_id_problem
from accountdesk.contract.sanitise import inert_text
from accountdesk.core.tours.clock_steps import MAX_CLOCK_STEP
from accountdesk.core.tours.files import TourFileError, file_kind_problem, read_tour_text

__all__ = [
    "Action",
    "Tour",
    "TourFileError",
    "TourStep",
    "load_tour",
    "parse_tour",
    "shipped_tour",
    "shipped_tours",
    "tour_listing",
    "tours_document",
]

#: Longest caption (it must fit a few lines at 80 columns, beside the code texts).
MAX_SAY = 320
MAX_LOOK = 80


class Action(StrEnum):
    """What a step does, as a person would in the real screens."""

    SAY = "say"  # nothing: the caption alone
    SIGN_IN = "sign_in"  # the sign-in form (optionally with another secret)
    LOOK_UP = "look_up"  # a user's account, from the lookup screen
    REFRESH_BALANCE = "refresh_balance"
    START_IDENTITY = "start_identity"
    START_TRANSACTIONS = "start_transactions"
    VIEW_IDENTITY = "view_identity"
    VIEW_TRANSACTIONS = "view_transactions"
    SHOW_JOBS = "show_jobs"
    SHOW_ERRORS = "show_errors"
    ANSWER_MFA = "answer_mfa"  # type an answer in the open MFA dialog
    ADVANCE_CLOCK = "advance_clock"  # move the sandbox's clock
    BACK = "back"  # close the top screen


#: The parameter each action needs (or may take, for sign_in); others are refused.
_NEEDS: dict[Action, str] = {
    Action.LOOK_UP: "user",
    Action.ANSWER_MFA: "answer",
    Action.ADVANCE_CLOCK: "seconds",
}
_MAY_TAKE: dict[Action, str] = {Action.SIGN_IN: "secret"}
_PARAMETERS = ("user", "answer", "seconds", "secret")


def _printable(text: str, *, newlines: bool = False) -> str:
    """``text`` when it holds nothing a terminal would obey (ESC, other controls, bidi marks)."""
    return inert_text(text, newlines=newlines)


def _problem(field: str, problem: str) -> PydanticCustomError:
    # "field: problem", so the one-line error names the field even for
    # checks that look at several fields at once.
    return PydanticCustomError("tour", "{field}: {problem}", {"field": field, "problem": problem})


class TourStep(BaseModel):
    """One step: what it does, what it needs, and what the caption says."""

    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=True)

    do: Action = Action.SAY
    say: str = Field(min_length=1, max_length=MAX_SAY)
    look: str | None = Field(default=None, min_length=1, max_length=MAX_LOOK)
    user: str | None = None
    answer: str | None = Field(default=None, min_length=1, max_length=128)
    secret: str | None = Field(default=None, min_length=1, max_length=256, repr=False)
    seconds: float | None = Field(default=None, gt=0, le=MAX_CLOCK_STEP, allow_inf_nan=False)
    expect: str | None = None
    explain: tuple[str, ...] = ()
    #: A user id the step points at: once it has run, the list on screen that
    #: holds it (the lookup screen's) scrolls to it and highlights it, so a
    #: row below the fold at 80x24 is seen.
    point_at: str | None = None

    @field_validator("say")
    @classmethod
    def _caption_text(cls, text: str) -> str:
        return _printable(text, newlines=True)

    @field_validator("look", "answer", "secret")
    @classmethod
    def _one_line(cls, text: str | None) -> str | None:
        return _printable(text) if text is not None else None

    @field_validator("do", mode="before")
    @classmethod
    def _known_action(cls, action: object) -> object:
        if isinstance(action, str) and action not in Action.__members__.values():
            raise ValueError(f"{action!r} is not an action; the actions: {', '.join(Action)}")
        return action

    @field_validator("seconds", mode="before")
    @classmethod
    def _clock_step(cls, seconds: object) -> object:
        number = isinstance(seconds, int | float) and not isinstance(seconds, bool)
        if number and not 0 < float(seconds) <= MAX_CLOCK_STEP:  # type: ignore[arg-type]
            raise ValueError("a clock step is more than 0 seconds and at most 366 days")
        return seconds

    @field_validator("user", "point_at")
    @classmethod
    def _user_id(cls, user: str | None) -> str | None:
        problem = sandbox_user_id_problem(user) if user is not None else None
        if problem is not None:
            raise ValueError(problem)
        return user

    @field_validator("expect")
    @classmethod
    def _expected_code(cls, code: str | None) -> str | None:
        if code is not None:
            _known_code(code)
        return code

    @field_validator("explain")
    @classmethod
    def _explained_codes(cls, codes: tuple[str, ...]) -> tuple[str, ...]:
        for code in codes:
            _known_code(code)
        return codes

    @model_validator(mode="after")
    def _parameters_fit_the_action(self) -> TourStep:
        needed = _NEEDS.get(self.do)
        allowed = {needed, _MAY_TAKE.get(self.do)} - {None}
        for name in _PARAMETERS:
            if getattr(self, name) is not None and name not in allowed:
                raise _problem(name, f"{self.do} takes no {name}")
        if needed is not None and getattr(self, needed) is None:
            raise _problem(needed, f"{self.do} needs {needed}")
        if self.expect is not None and self.expect in self.explain:
            raise _problem("explain", f"{self.expect} is already the expected code")
        return self

    @property
    def codes(self) -> tuple[str, ...]:
        """The codes the caption explains: the expected one first."""
        return ((self.expect,) if self.expect else ()) + self.explain


def _known_code(code: str) -> None:
    if code not in ERRORS:
        raise ValueError(f"{code} is not a code of the error catalogue")


class Tour(BaseModel):
    """A guided tour: a title, a summary for the picker, its steps and its scenario packs.

    ``scenarios`` are the pack files as the tour file names them (relative
    to it); ``scenario_files`` the same, resolved: what the tour's sandbox
    serves after the shipped users.
    """

    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=True)

    id: str = Field(min_length=1, max_length=40, pattern=r"^[a-z0-9][a-z0-9_-]*$")
    title: str = Field(min_length=1, max_length=60)
    summary: str = Field(min_length=1, max_length=240)
    order: int = 100
    scenarios: tuple[str, ...] = Field(default=(), max_length=20)
    steps: tuple[TourStep, ...] = Field(min_length=1, max_length=60)
    scenario_files: tuple[Path, ...] = Field(default=(), exclude=True)

    @field_validator("title", "summary")
    @classmethod
    def _one_line(cls, text: str) -> str:
        return _printable(text)

    @field_validator("scenarios", mode="before")
    @classmethod
    def _one_or_more(cls, value: object) -> object:
        return (value,) if isinstance(value, str) else value

    @field_validator("scenarios")
    @classmethod
    def _pack_names(cls, names: tuple[str, ...]) -> tuple[str, ...]:
        for name in names:
            if not name or len(name) > 1024:
                raise ValueError("a pack is named by a path of 1 to 1024 characters")
            _printable(name)
        return names


def parse_tour(text: str, *, tour_id: str, source: str, folder: Path | None = None) -> Tour:
    """The tour in ``text`` (TOML); ``source`` names it in errors (a path).

    ``folder``: where the tour file is, for its ``scenarios`` (relative
    paths); the current folder when None. A pack that is not there is an
    error here; what is in it is checked when the demo starts.
    """
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise TourFileError(f"{source}: not valid TOML: {error}") from None
    except RecursionError:  # tomllib recurses per nested array or inline table
        raise TourFileError(
            f"{source}: not valid TOML: arrays or tables nested too deeply (it needs a few levels)"
        ) from None
    if "scenario_files" in document:  # ours: resolved from scenarios
        raise TourFileError(f"{source}: scenario_files: not a field of a tour")
    data: dict[str, Any] = {"id": tour_id, **document}
    try:
        tour = Tour.model_validate(data)
    except ValidationError as error:
        raise TourFileError(f"{source}: {_describe(error)}") from None
    base = folder if folder is not None else Path()
    files = tuple(base / Path(name).expanduser() for name in tour.scenarios)
    for name, file in zip(tour.scenarios, files, strict=True):
        try:
            problem = file_kind_problem(file, "a scenario pack file", "a pack is a file")
        except FileNotFoundError:
            problem = "no such file"
        except OSError as error:
            problem = f"cannot read it: {error.strerror or error}"
        if problem is not None:
            raise TourFileError(f"{source}: scenarios: {name}: {problem}")
    return tour.model_copy(update={"scenario_files": files})


def load_tour(path: Path) -> Tour:
    """Read and validate the tour file at ``path`` (its id: the file name without ``.toml``)."""
    text = read_tour_text(path)
    return parse_tour(text, tour_id=_id_of(path.name), source=str(path), folder=path.parent)


def shipped_tours() -> list[Tour]:
    """The tours that come with accountdesk, in picker order."""
    folder = Path(str(resources.files("accountdesk") / "tours"))
    tours = [
        parse_tour(
            entry.read_text(encoding="utf-8"),
            tour_id=_id_of(entry.name),
            source=entry.name,
            folder=folder,
        )
        for entry in folder.iterdir()
        if entry.name.endswith(".toml")
    ]
    return sorted(tours, key=lambda tour: (tour.order, tour.id))


def shipped_tour(tour_id: str) -> Tour:
    """One shipped tour by id; KeyError naming the ones there are."""
    tours = {tour.id: tour for tour in shipped_tours()}
    if tour_id not in tours:
        raise KeyError(f"no tour {tour_id!r}; the tours are: {', '.join(tours)}")
    return tours[tour_id]


def tour_listing(tours: list[Tour]) -> str:
    """``accountdesk demo --list``: one line per tour (id, steps, title), for a lesson plan."""
    width = max([len("id"), *(len(tour.id) for tour in tours)])
    lines = [f"{'id':<{width}}  steps  title"]
    lines += [f"{tour.id:<{width}}  {len(tour.steps):>5}  {tour.title}" for tour in tours]
    return "\n".join(lines)


def tours_document(tours: list[Tour]) -> list[dict[str, Any]]:
    """``accountdesk demo --list --json``: every tour and its steps, for a script.

    A step's ``secret`` (a wrong one, typed on purpose) is left out: a
    listing is printed, piped and pasted.
    """
    return [
        {
            "id": tour.id,
            "title": tour.title,
            "summary": tour.summary,
            "order": tour.order,
            "scenarios": list(tour.scenarios),
            "steps": [step.model_dump(mode="json", exclude={"secret"}) for step in tour.steps],
        }
        for tour in tours
    ]


def _id_of(file_name: str) -> str:
    """``My tour.toml`` -> ``my-tour``: what ``accountdesk demo`` is given."""
    stem = re.sub(r"[^a-z0-9_-]+", "-", file_name.removesuffix(".toml").lower()).strip("-_")
    return stem or "tour"


#: What a text field is, for its bounds in words ("a caption is at most 320 characters").
_NOUNS = {
    "id": "a tour's id (its file name)",
    "title": "a title",
    "summary": "a summary",
    "say": "a caption",
    "answer": "an answer",
    "secret": "a secret",
}
#: How a tour counts its lists: ("has", "steps") -> "a tour has at most 60 steps".
_COUNTED = {"steps": ("has", "steps"), "scenarios": ("names", "packs")}


def _bound(kind: object, fields: list[str], detail: Any) -> str | None:
    """A length bound in a person's words, or None for another problem."""
    context = detail.get("ctx") or {}
    noun = _NOUNS.get(fields[-1]) if fields else None
    if kind == "string_too_long":
        # The length only: the value may be a secret.
        length = len(detail.get("input") or "")
        subject = f"{noun} is " if noun else ""
        return f"{subject}at most {context.get('max_length'):,} characters; this one has {length:,}"
    if kind == "string_too_short":
        return f"{noun} cannot be empty" if noun else "cannot be empty"
    if kind == "too_long" and fields in (["steps"], ["scenarios"]):
        verb, things = _COUNTED[fields[0]]
        most, actual = context.get("max_length"), context.get("actual_length")
        return f"a tour {verb} at most {most} {things}; this one {verb} {actual}"
    return None


def _describe(error: ValidationError) -> str:
    """The first problem as ``step N: field: problem`` (steps counted from 1)."""
    first = error.errors(include_url=False)[0]
    location = list(first.get("loc", ()))
    where: list[str] = []
    if location[:1] == ["steps"] and len(location) > 1 and isinstance(location[1], int):
        where.append(f"step {location[1] + 1}")
        location = location[2:]
    fields = [str(part) for part in location if not isinstance(part, int)]
    message = str(first.get("msg", "invalid"))
    if first.get("type") == "tour":
        message = message.replace("Value error, ", "")
    elif message.startswith("Value error, "):
        message = message.removeprefix("Value error, ")
    kind = first.get("type")
    if kind == "missing":
        message = "required"
    elif kind == "extra_forbidden":
        message = "not a field of a tour" if not where else "not a field of a step"
    elif kind in {"model_type", "dict_type"}:
        message = "must be a table ([[steps]] with say = ...)"
    elif kind == "too_short" and fields == ["steps"]:
        message = "a tour has at least one step"
    elif (bound := _bound(kind, fields, first)) is not None:
        message = bound
    if fields and kind != "tour":
        where.append(".".join(fields))
    return " ".join(": ".join([*where, message]).split())  # one line, always
