"""What the jobs screen shows for each tracked job, as plain text (a view model).

Kept apart from the screen so the words are tested without Textual, and so
the screen can compare a row's new texts with the old ones and touch only
the cells that changed.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from accountdesk.core.formatting import describe_age, kind_label, status_label
from accountdesk.core.jobs.tracker import TrackedJob

#: Columns whose text changes every second get a fixed width (their longest
#: possible text: "23h 59m", "23h 59m ago"), so a redraw never re-measures them.
FIXED_WIDTHS: dict[str, int] = {"age": 7, "last_poll": 11}

__all__ = [
    "COLUMNS",
    "FIXED_WIDTHS",
    "AgesMoment",
    "JobRow",
    "block_text",
    "clear_text",
    "job_details",
    "job_note",
    "job_row",
    "matches",
    "only_ages_moved",
]

#: The details line of a job an earlier version kept (``core.earlier_files``).
ANOTHER_WINDOW = (
    "started in another window, on its own embedded sandbox: that window polls and answers it"
)
EARLIER_VERSION = (
    "kept by an earlier version for this service: it becomes the job of the first key "
    "whose poll of it succeeds"
)

#: (key, label) of the jobs table's columns, in order.
COLUMNS: tuple[tuple[str, str], ...] = (
    ("user", "User"),
    ("kind", "Kind"),
    ("status", "Status"),
    ("age", "Age"),
    ("last_poll", "Last poll"),
    ("note", "Note"),
)


@dataclass(frozen=True, slots=True)
class JobRow:
    """One row's cell texts, keyed like :data:`COLUMNS`, plus what styles them."""

    key: str
    cells: tuple[str, ...]
    #: The status word for colouring (``"gone"`` for a job the service no longer knows).
    status: str
    stale: bool
    gone: bool


def _error_text(job: TrackedJob) -> str:
    return " ".join(part for part in (job.last_error_code, job.last_error_message) if part)


def job_note(job: TrackedJob, *, stale: bool) -> str:
    """Text for the note column (cut to its width on screen); the details line says it all."""
    if job.legacy:
        return "earlier version: not this key's yet"
    if job.gone:
        return f"gone ({job.last_error_code or 'unknown'})"
    if job.elsewhere:
        return "another window's"
    parts = []
    if job.given_up:
        parts.append("not polled")
    if stale:
        parts.append("stale")
    if job.is_failed:
        parts.append(_error_text(job))  # why it failed: code and the service's words
    elif job.last_error_code or job.last_error_message:
        parts.append(job.last_error_code or job.last_error_message or "")
    return " · ".join(part for part in parts if part)


def block_text(job: TrackedJob) -> str | None:
    """For an AC-108 failure: when the block lifts, where the service said so."""
    if job.last_error_code != "AC-108":
        return None
    if job.blocked_until is None:
        return "block lifts later: try again later"
    if job.block_overruled:
        return "block lifted early (a later answer of the service showed no block)"
    return f"block lifts at {job.blocked_until:%H:%M:%S %Z}".rstrip()


def clear_text(cleared: int, not_shown: int) -> str:
    """What clearing finished jobs did; ``not_shown``: finished jobs a filter hid, kept."""
    noun = "job" if cleared == 1 else "jobs"
    said = f"Cleared {cleared} finished {noun}." if cleared else "No finished job to clear."
    if not_shown:
        they = "it is" if not_shown == 1 else "they are"
        said += f" {not_shown} not shown by the filter: {they} kept."
    return said


def matches(job: TrackedJob, query: str) -> bool:
    """Every word of ``query`` is in the job's user, kind or status (case-insensitive).

    Kind and status match as the screen shows them (``balance refresh``) and
    as the service sends them (``balance_refresh``).
    """
    shown = f"{kind_label(job.kind)} {status_label(job.status)}"
    haystack = f"{job.user_id} {job.kind} {job.status} {shown} {job.job_id}".casefold()
    return all(word in haystack for word in query.casefold().split())


def job_row(job: TrackedJob, now: dt.datetime, *, stale: bool) -> JobRow:
    status = "gone" if job.gone else str(job.status)  # the last known status would be a guess
    cells = (
        job.user_id,
        kind_label(job.kind),  # the person's words, as on every other screen
        status_label(status),
        describe_age(job.age_from, now),
        describe_age(job.last_poll_at, now) + " ago" if job.last_poll_at else "—",
        job_note(job, stale=stale),
    )
    return JobRow(job.key, cells, status, stale, job.gone)


class AgesMoment:
    """The one moment every age and last poll of a screen is read at (its last ages step).

    A row written between two steps (a new status, scrolled into view) reads
    its age at the same moment as the rows beside it, not a fresher one.
    """

    #: A change of the sandbox's offset that moves the ages at once: a re-read
    #: of its clock changes the offset by its latency alone.
    CLOCK_MOVED = dt.timedelta(seconds=0.5)

    def __init__(self) -> None:
        #: The moment, on our own clock (``Desk.clock``); None before the first step.
        self.at: dt.datetime | None = None
        self._offset: dt.timedelta | None = None

    def step(self, ours: dt.datetime, offset: dt.timedelta) -> None:
        """Read every age at ``ours`` from now on, with the sandbox ``offset`` of the moment."""
        self.at, self._offset = ours, offset

    def clock_moved(self, offset: dt.timedelta) -> bool:
        """The sandbox's clock moved since the step (or no step yet): the ages move with it."""
        return self._offset is None or abs(offset - self._offset) >= self.CLOCK_MOVED


#: Columns that move with the clock alone (the jobs screen writes them every 10 s).
CLOCK_COLUMNS = frozenset({"age", "last_poll"})
AGE_CELLS = frozenset(index for index, (key, _) in enumerate(COLUMNS) if key in CLOCK_COLUMNS)


def only_ages_moved(old: JobRow, new: JobRow) -> bool:
    """The row's texts and styles are the same but for its age and last-poll cells."""
    if (old.status, old.stale, old.gone) != (new.status, new.stale, new.gone):
        return False
    return all(
        index in AGE_CELLS or text == new.cells[index] for index, text in enumerate(old.cells)
    )


def job_details(job: TrackedJob) -> list[tuple[str, str]]:
    """(label, value) pairs of the details line under the table."""
    details = [
        ("Job", job.job_id),
        ("user", job.user_id),
        ("created", job.created_at.strftime("%Y-%m-%d %H:%M:%S %Z")),
    ]
    if job.last_error_code or job.last_error_message:
        details.append(("error" if job.is_failed else "last error", _error_text(job)))
    block = block_text(job)
    if block is not None:
        details.append(("", block))
    if job.legacy:
        details.append(("", EARLIER_VERSION))
    if job.elsewhere:
        details.append(("", ANOTHER_WINDOW))
    if job.mfa is not None and job.mfa.attempts_remaining is not None:
        details.append(("MFA attempts left", str(job.mfa.attempts_remaining)))
    return details
