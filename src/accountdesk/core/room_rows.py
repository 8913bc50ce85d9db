"""What the sandbox panel shows of a training room, as plain text (a view model).

One row per trainee (``GET /_sandbox/trainees``, the trainer's list), the
details of the one selected, and a title. Kept apart from the widget so the
words are tested without Textual, and so the widget touches only the cells
whose text changed when the list is read again every few seconds.

Times: "last seen" counts on the sandbox's own clock (the list's ``now``),
never on a trainee's, which they may have moved; a trainee's clock is shown
as its time and how far it is ahead.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from accountdesk.core.formatting import describe_age

if TYPE_CHECKING:
    import datetime as dt

    from accountdesk.client import Trainee, TrainingRoom

__all__ = ["ROOM_COLUMNS", "TraineeRow", "room_title", "trainee_details", "trainee_row"]

#: (key, label) of the room table's columns, in order.
ROOM_COLUMNS: tuple[tuple[str, str], ...] = (
    ("trainee", "Trainee"),
    ("seen", "Last seen"),
    ("clock", "Clock"),
    ("jobs", "Jobs open"),
    ("blocks", "Blocked"),
)


@dataclass(frozen=True, slots=True)
class TraineeRow:
    """One trainee's cell texts, keyed like :data:`ROOM_COLUMNS`, plus what styles them."""

    key: str
    cells: tuple[str, ...]
    #: A user of theirs is blocked (AC-108): the row stands out.
    blocked: bool
    #: A job of theirs waits for an MFA answer.
    waiting: bool


def _clock(trainee: Trainee) -> str:
    shown = f"{trainee.clock:%H:%M:%S}"
    if trainee.clock_ahead_seconds >= 1:
        shown += f" +{describe_age(trainee.clock - trainee.clock_ahead, trainee.clock)}"
    return shown


def _jobs(trainee: Trainee) -> str:
    if not trainee.open_jobs:
        return "none"
    waiting = f", {trainee.waiting_for_mfa} MFA" if trainee.waiting_for_mfa else ""
    return f"{trainee.open_jobs}{waiting}"


def _blocks(trainee: Trainee) -> str:
    if not trainee.blocks:
        return "—"
    first = trainee.blocks[0]
    more = f" +{len(trainee.blocks) - 1}" if len(trainee.blocks) > 1 else ""
    return f"{first.user_id} to {first.until:%H:%M:%S}{more}"


def trainee_row(trainee: Trainee, now: dt.datetime) -> TraineeRow:
    """``now``: the sandbox's own clock (the list's), for "last seen"."""
    cells = (
        trainee.name,
        f"{describe_age(trainee.last_request, now)} ago",
        _clock(trainee),
        _jobs(trainee),
        _blocks(trainee),
    )
    return TraineeRow(trainee.name, cells, bool(trainee.blocks), trainee.waiting_for_mfa > 0)


def trainee_details(trainee: Trainee) -> str:
    """The line under the table for the selected trainee: everything the row cuts short."""
    parts = [
        f"{trainee.name} ({trainee.api_key})",
        f"first request {trainee.first_request:%H:%M:%S}",
        f"{trainee.jobs} job{'s' if trainee.jobs != 1 else ''} started",
    ]
    if trainee.blocks:
        parts.append(
            "blocked: "
            + ", ".join(f"{block.user_id} until {block.until:%H:%M:%S}" for block in trainee.blocks)
        )
    return " · ".join(parts)


def room_title(room: TrainingRoom) -> str:
    """``Training room · 3 trainees (room for 100)``."""
    count = len(room.trainees)
    if not count:
        return "Training room · no trainee has signed in yet"
    noun = "trainee" if count == 1 else "trainees"
    return f"Training room · {count} {noun} (room for {room.max_trainees})"
