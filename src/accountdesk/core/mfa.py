"""Answering one job's MFA challenge: the dialog's state machine, without a screen.

:class:`MfaSession` decides; the dialog draws and runs the calls. States:

- ``WAITING``: for the user's answer (the countdown runs on the app clock);
- ``SENDING``: ``submit_mfa`` then ``resolve_mfa`` are on their way;
- ``CHECKING``: the job is being re-read (every few seconds, and when the
  countdown reaches zero: live polling is held while a dialog is open, and
  the service's clock decides, not ours);
- ``CLOSED``: an outcome was reached (:class:`MfaOutcome`).

A wrong answer goes back to ``WAITING`` with the attempts left; a right one
closes with ``RESUMED``. An expired session (``AC-110``), a blocked account
(``AC-108``), a job that failed or that the service no longer knows close the
dialog; other failures (bank or network trouble) leave it open to retry.
No answer is ever held back: a block the app learnt, or no attempts left, is
a warning (:attr:`MfaSession.warning`), and the service's answer decides.
Every method returns an :class:`MfaStep`: what the dialog says and does next.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

from accountdesk.contract import JobStatus
from accountdesk.core.errors.log import block_lifts, lift_time
from accountdesk.core.formatting import status_label
from accountdesk.core.notices import Notice

if TYPE_CHECKING:
    from accountdesk.client import AccountDataError, Job, MfaChallenge

__all__ = ["MfaOutcome", "MfaResult", "MfaSession", "MfaState", "MfaStep", "format_countdown"]


class MfaState(StrEnum):
    WAITING = "waiting"
    SENDING = "sending"
    CHECKING = "checking"
    CLOSED = "closed"


class MfaOutcome(StrEnum):
    RESUMED = "resumed"
    FAILED = "failed"
    EXPIRED = "expired"
    BLOCKED = "blocked"
    GONE = "gone"
    CANCELLED = "cancelled"


@dataclass(frozen=True, slots=True)
class MfaResult:
    """How the dialog ended; ``job`` is the last state the service sent, if any."""

    outcome: MfaOutcome
    job: Job | None = None


@dataclass(frozen=True, slots=True)
class MfaStep:
    """What the dialog does next."""

    message: str | None = None  # None: leave the line as it is
    error: bool = False
    notice: Notice | None = None
    report: AccountDataError | None = None  # to the error log (and its toast)
    close: MfaResult | None = None
    clear_answer: bool = False
    enable_answer: bool = False


def format_countdown(expires_at: dt.datetime | None, now: dt.datetime) -> str:
    """``"04:59"`` until the session expires, ``"expired"`` after, ``"—"`` if unknown."""
    if expires_at is None:
        return "—"
    seconds = int((expires_at - now).total_seconds())
    if seconds <= 0:
        return "expired"
    return f"{seconds // 60:02d}:{seconds % 60:02d}"


def _outcome_of_code(code: str | None) -> MfaOutcome:
    from accountdesk.client import AccountBlockedError, MfaSessionExpiredError

    return {
        MfaSessionExpiredError.code: MfaOutcome.EXPIRED,
        AccountBlockedError.code: MfaOutcome.BLOCKED,
    }.get(code or "", MfaOutcome.FAILED)


class MfaSession:
    """The state of one open MFA dialog (see the module docstring)."""

    def __init__(self, challenge: MfaChallenge | None, clock: Callable[[], dt.datetime]) -> None:
        from accountdesk.client import MfaChallenge

        self.challenge = challenge or MfaChallenge()
        self.clock = clock
        self.state = MfaState.WAITING
        #: Bumped per answer: a re-read started before it is stale news.
        self.answer_round = 0
        #: The countdown reached zero on the app's clock.
        self.expired_here = False
        self._reported_checks: set[str] = set()

    # -- what the dialog shows ---------------------------------------------

    #: When the user's block (``AC-108``) lifts, as the app learnt it from another
    #: job of theirs: a hint (``core.learnt_blocks``); the service decides.
    blocked_until: dt.datetime | None = None

    @property
    def blocked(self) -> bool:
        return self.blocked_until is not None and self.clock() < self.blocked_until

    @property
    def attempts_text(self) -> str:
        if self.blocked and self.blocked_until is not None:
            # Beside the countdown: the time alone (the warning says how long).
            return f"Blocked until {lift_time(self.blocked_until)}"
        left = self.challenge.attempts_remaining
        return "Attempts left: —" if left is None else f"Attempts left: {left}"

    @property
    def warning(self) -> str | None:
        """Why the service will likely refuse an answer now (the dialog's line), or None.

        Never a reason not to send: a block the app learnt may be over (a
        trainer's reset), and the service's answer says so.
        """
        if self.blocked and self.blocked_until is not None:
            return (
                "The user was blocked after too many wrong answers (AC-108): "
                f"{block_lifts(self.blocked_until, self.clock())} "
                "An answer may be refused until then; the service decides."
            )
        if self.challenge.attempts_remaining == 0:
            return "No attempts left: the service will likely refuse an answer."
        return None

    def countdown(self) -> str:
        return format_countdown(self.challenge.expires_at, self.clock())

    # -- answering ---------------------------------------------------------

    def submit(self, answer: str) -> MfaStep | None:
        """The user pressed Enter: None when an answer is already on its way."""
        if self.state is not MfaState.WAITING:
            return None
        if not answer.strip():
            return MfaStep("Type the answer first.", error=True)
        self.state = MfaState.SENDING
        self.answer_round += 1
        return MfaStep("Checking the answer…")

    def answered(self, job: Job) -> MfaStep:
        """``resolve_mfa`` answered with the job's new state."""
        if job.needs_mfa:
            self.state = MfaState.WAITING
            self.challenge = job.mfa or self.challenge
            left = self.challenge.attempts_remaining
            text = (
                "Wrong answer"
                if left is None
                else f"Wrong answer — {left} {'attempt' if left == 1 else 'attempts'} left"
            )
            return MfaStep(text, error=True, clear_answer=True, enable_answer=True)
        return self._finish(job, resumed="MFA accepted; the job resumed.")

    def answer_failed(self, error: AccountDataError) -> MfaStep:
        """``submit_mfa`` or ``resolve_mfa`` raised."""
        from accountdesk.client import AccountBlockedError, JobNotFoundError, MfaSessionExpiredError

        endings = (
            (MfaSessionExpiredError, MfaOutcome.EXPIRED),
            (AccountBlockedError, MfaOutcome.BLOCKED),
            (JobNotFoundError, MfaOutcome.GONE),
        )
        for kind, outcome in endings:
            if isinstance(error, kind):
                self.state = MfaState.CLOSED
                return MfaStep(report=error, close=MfaResult(outcome))
        # Bank or network trouble may pass: keep the dialog open to try again.
        self.state = MfaState.WAITING
        return MfaStep(
            f"Could not check the answer: {error.title}. Try again.",
            error=True,
            report=error,
            enable_answer=True,
        )

    def interrupted(self) -> MfaStep:
        """Our own code failed while answering (reported elsewhere): let the user try again."""
        self.state = MfaState.WAITING
        return MfaStep(
            "Could not check the answer: internal error (details in the log). Try again.",
            error=True,
            enable_answer=True,
        )

    def cancel(self) -> MfaResult:
        self.state = MfaState.CLOSED
        return MfaResult(MfaOutcome.CANCELLED)

    # -- checking the job with the service --------------------------------

    def tick(self) -> MfaStep | None:
        """Once a second. When the countdown first reaches zero, a step that asks for a check."""
        if self.countdown() != "expired" or self.expired_here:
            return None
        self.expired_here = True
        if self.state is not MfaState.WAITING:
            return None
        return MfaStep("Session expired: checking with the service…", error=True)

    def start_check(self) -> int | None:
        """Begin a re-read: the answer round to tag it with, or None when busy."""
        if self.state is not MfaState.WAITING:
            return None
        self.state = MfaState.CHECKING
        return self.answer_round

    def checked(
        self, answer_round: int, job: Job | None, error: AccountDataError | None
    ) -> MfaStep | None:
        """A re-read ended; None when its news is stale (an answer went out since)."""
        if self.state is MfaState.CHECKING:
            self.state = MfaState.WAITING
        if answer_round != self.answer_round or self.state is not MfaState.WAITING:
            return None
        if error is not None:
            return self._check_failed(error)
        assert job is not None
        if not job.needs_mfa:
            return self._finish(
                job,
                resumed="The job no longer waits for MFA (answered elsewhere): "
                f"it is {status_label(job.status)}.",
            )
        self.challenge = job.mfa or self.challenge
        if self.expired_here:
            return MfaStep(
                "This computer's clock says the session expired, but the service still "
                "waits for an answer: try it.",
                error=True,
            )
        return MfaStep()

    def _check_failed(self, error: AccountDataError) -> MfaStep:
        from accountdesk.client import JobNotFoundError

        key = error.code or type(error).__name__
        first = key not in self._reported_checks  # every few seconds: one report per kind
        self._reported_checks.add(key)
        if isinstance(error, JobNotFoundError):
            self.state = MfaState.CLOSED
            return MfaStep(report=error if first else None, close=MfaResult(MfaOutcome.GONE))
        return MfaStep(
            f"Could not check the job: {error.title}.", error=True, report=error if first else None
        )

    def _finish(self, job: Job, *, resumed: str) -> MfaStep:
        self.state = MfaState.CLOSED
        if job.status == JobStatus.FAILED:
            # The toast of a failed job is the desk's (one text for poller and dialog).
            code = job.error.code if job.error else None
            return MfaStep(close=MfaResult(_outcome_of_code(code), job))
        return MfaStep(notice=Notice("MFA", resumed), close=MfaResult(MfaOutcome.RESUMED, job))
