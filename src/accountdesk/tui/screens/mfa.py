"""The MFA dialog: answer the challenge a job waits on.

Submitting calls ``submit_mfa`` then ``resolve_mfa`` in a worker. A wrong
answer keeps the dialog open with the attempts left; a right one closes it and
the job resumes. An expired session (``AC-110``), a blocked account
(``AC-108``) and a job that failed (third wrong answer) are shown as toasts and
close the dialog with an :class:`~accountdesk.tui.poller.MfaOutcome`.

The countdown reads ``app.now()`` (tests freeze it), but the service's clock
decides: live polling is paused while a modal is open, so the dialog re-reads
its job itself, every :attr:`MfaDialog.check_interval` seconds (one read at a
time) and when its countdown reaches zero. A job that no longer waits for MFA
(expired, blocked, answered elsewhere) closes the dialog with a toast saying
why; a service that still waits keeps it open.

The answer is shown in plain text (one-time codes are read back by the user)
but never logged or kept after the dialog closes.
"""

from __future__ import annotations

import datetime as dt
from typing import ClassVar, cast

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import ModalScreen
from textual.timer import Timer
from textual.widgets import Button, Input, Label, Static
from textual.worker import Worker

from accountdesk.client.errors import (
    AccountBlockedError,
    AccountDataError,
    JobNotFoundError,
    MfaSessionExpiredError,
)
from accountdesk.client.models import Job, MfaChallenge
from accountdesk.tui.poller import JobsHost, MfaOutcome
from accountdesk.tui.resources import styles_path
from accountdesk.tui.widgets.footer import AppFooter

__all__ = ["MfaDialog", "format_countdown"]

#: Seconds between the dialog's reads of its job.
MFA_CHECK_INTERVAL = 5.0
#: How a job that failed while the dialog was open ends the dialog.
OUTCOME_OF_CODE = {MfaSessionExpiredError.code: "expired", AccountBlockedError.code: "blocked"}
#: Errors of ``submit_mfa``/``resolve_mfa`` that end the dialog (others leave it open to retry).
OUTCOME_OF_ERROR: tuple[tuple[type[AccountDataError], str], ...] = (
    (MfaSessionExpiredError, "expired"),
    (AccountBlockedError, "blocked"),
    (JobNotFoundError, "error"),
)


def format_countdown(expires_at: dt.datetime | None, now: dt.datetime) -> str:
    """``"04:59"`` until the session expires, ``"expired"`` after, ``"—"`` if unknown."""
    if expires_at is None:
        return "—"
    seconds = int((expires_at - now).total_seconds())
    if seconds <= 0:
        return "expired"
    return f"{seconds // 60:02d}:{seconds % 60:02d}"


class MfaAnswered(Message):
    """``resolve_mfa`` answered with the job's new state."""

    def __init__(self, job: Job) -> None:
        super().__init__()
        self.job = job


class MfaAnswerFailed(Message):
    """``submit_mfa`` or ``resolve_mfa`` raised."""

    def __init__(self, error: AccountDataError) -> None:
        super().__init__()
        self.error = error


class MfaJobRead(Message):
    """A re-read of the job answered; ``answer_round`` drops news older than an answer."""

    def __init__(self, answer_round: int, job: Job | None, error: AccountDataError | None) -> None:
        super().__init__()
        self.answer_round = answer_round
        self.job = job
        self.error = error


class MfaDialog(ModalScreen[MfaOutcome]):
    """Modal dialog answering one job's MFA challenge."""

    CSS_PATH = styles_path("mfa.tcss")
    HELP_TITLE = "MFA dialog"
    HELP = """\
The bank asks a question before the job can go on (multi-factor
authentication). Type the answer and press Enter (or Submit).

- A wrong answer costs one attempt; after the last one the job fails and the
  account is blocked for a while (`AC-108` on the next refresh).
- The session expires at the countdown's end (`AC-110`): start the job again.
  The dialog checks the job with the service every few seconds and when the
  countdown ends; if the service says the job no longer waits (expired,
  blocked, answered elsewhere) the dialog closes and a toast says why.
- Escape closes the dialog without answering; `m` on the jobs screen opens it
  again.
"""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="mfa_cancel"),
        # A modal screen hides the app's bindings (all but priority ones), so
        # the dialog binds F1 itself; the app's help then opens over it.
        Binding("f1", "app.help", "Help", id="mfa_help", tooltip="Help for this dialog"),
    ]

    #: Seconds between reads of the job while the dialog is open.
    check_interval: float = MFA_CHECK_INTERVAL

    def __init__(
        self, user_id: str, job_id: str, kind: str, challenge: MfaChallenge | None
    ) -> None:
        super().__init__()
        self.user_id = user_id
        self.job_id = job_id
        self.kind = kind
        self.challenge = challenge or MfaChallenge()
        self.check_timer: Timer | None = None
        self._answering = False
        self._answer_round = 0  # bumped per answer: a read started before it is stale
        self._checking = False
        self._expired_here = False  # the countdown reached zero on the app's clock
        self._reported_checks: set[str] = set()
        self._close_when_shown: MfaOutcome | None = None
        self._covered = False  # another screen (help, jobs) is on top

    def compose(self) -> ComposeResult:
        with Vertical(id="mfa-box") as box:
            # A Text, not a str: a str title is parsed as markup.
            box.border_title = Text(f"MFA · {self.kind.replace('_', ' ')} for {self.user_id}")
            yield Label(Text(self.challenge.question or "The bank asks for a code."),
                        id="mfa-question")  # fmt: skip
            # Enter submits: said here, as the answer box keeps Enter from the key bar.
            yield Input(placeholder="Answer, then Enter", id="mfa-answer", max_length=128)
            with Horizontal(id="mfa-facts"):
                yield Label(id="mfa-attempts")
                yield Label(id="mfa-countdown")
            yield Static(id="mfa-message")
            with Horizontal(id="mfa-buttons"):
                yield Button("Submit", variant="primary", id="mfa-submit")
                yield Button("Cancel", id="mfa-cancel")
        # Its own key bar: the one of the screen below showed keys that do nothing here.
        yield AppFooter()

    def on_mount(self) -> None:
        self._draw_facts()
        self.set_interval(1.0, self.tick, name="mfa-countdown")
        self.check_timer = self.set_interval(self.check_interval, self.check_due, name="mfa-check")
        self.query_one(Input).focus()

    @property
    def _host(self) -> JobsHost:
        return cast(JobsHost, self.app)

    # -- drawing ---------------------------------------------------------

    def _draw_facts(self) -> None:
        attempts = self.challenge.attempts_remaining
        text = "Attempts left: —" if attempts is None else f"Attempts left: {attempts}"
        self.query_one("#mfa-attempts", Label).update(text)
        self._draw_countdown()

    def _draw_countdown(self) -> bool:
        """Draw the countdown; True once it has run out on the app's clock."""
        left = format_countdown(self.challenge.expires_at, self._host.now())
        label = self.query_one("#mfa-countdown", Label)
        label.update(f"Session expires in {left}" if left != "expired" else "Session expired")
        label.set_class(left == "expired", "-expired")
        return left == "expired"

    def tick(self) -> None:
        """Once a second: move the countdown; at zero, ask the service whether it agrees."""
        expired = self._draw_countdown()
        if expired and not self._expired_here:
            self._expired_here = True
            if not self._answering:
                self._say("Session expired: checking with the service…", error=True)
                self.check_job()

    def _say(self, text: str, *, error: bool = False) -> None:
        message = self.query_one("#mfa-message", Static)
        message.update(Text(text))
        message.set_class(error, "-error")

    # -- submitting ------------------------------------------------------

    @on(Input.Submitted, "#mfa-answer")
    @on(Button.Pressed, "#mfa-submit")
    def action_submit(self) -> None:
        """Send the answer (Enter or the Submit button)."""
        if self._answering:
            return
        answer_input = self.query_one(Input)
        answer = answer_input.value.strip()
        if not answer:
            self._say("Type the answer first.", error=True)
            return
        answer_input.disabled = True
        self._answering = True
        self._answer_round += 1
        self._say("Checking the answer…")
        self._send_answer(answer)

    @on(Button.Pressed, "#mfa-cancel")
    def action_cancel(self) -> None:
        self.dismiss(MfaOutcome("cancelled"))

    @work(exclusive=True, exit_on_error=False, group="mfa")
    async def _send_answer(self, answer: str) -> None:
        try:
            client = self._host.client
            await client.submit_mfa(self.user_id, self.job_id, answer)
            job = await client.resolve_mfa(self.user_id, self.job_id)
        except AccountDataError as error:
            self.post_message(MfaAnswerFailed(error))
        else:
            self.post_message(MfaAnswered(job))

    def on_mfa_answered(self, message: MfaAnswered) -> None:
        self._answering = False
        job = message.job
        self._record(job)
        if job.needs_mfa:
            self.challenge = job.mfa or self.challenge
            left = self.challenge.attempts_remaining
            self._enable_answer(clear=True)
            if left is None:
                self._say("Wrong answer", error=True)
            else:
                self._say(f"Wrong answer — {left} {'attempt' if left == 1 else 'attempts'} left",
                          error=True)  # fmt: skip
            self._draw_facts()
            return
        self._finish(job, resumed="MFA accepted; the job resumed.")

    def on_mfa_answer_failed(self, message: MfaAnswerFailed) -> None:
        self._answering = False
        error = message.error
        self._host.report_error(error)
        for error_type, name in OUTCOME_OF_ERROR:
            if isinstance(error, error_type):
                self._close(MfaOutcome(name))
                return
        # Anything else (bank or network trouble) may pass: keep the dialog to retry.
        self._enable_answer(clear=False)
        self._say(f"Could not check the answer: {error.title}. Try again.", error=True)

    def _enable_answer(self, *, clear: bool) -> None:
        answer_input = self.query_one(Input)
        answer_input.disabled = False
        if clear:
            answer_input.value = ""
        answer_input.focus()

    # -- checking the job with the service -----------------------------------

    def check_job(self) -> Worker[None] | None:
        """Re-read the job now; None when a read or an answer is already on its way."""
        if self._checking or self._answering or self._close_when_shown is not None:
            return None
        self._checking = True
        return self._read_job(self._answer_round)

    def check_due(self) -> None:
        """The re-read timer's tick: read the job unless another screen covers the dialog."""
        # Covered (help, jobs): it reads again when shown (on_screen_resume).
        if self.is_active:
            self.check_job()

    @work(exit_on_error=False, group="mfa-check")
    async def _read_job(self, answer_round: int) -> None:
        try:
            job = await self._host.client.get_job(self.user_id, self.job_id)
        except AccountDataError as error:
            self.post_message(MfaJobRead(answer_round, None, error))
        else:
            self.post_message(MfaJobRead(answer_round, job, None))

    def on_mfa_job_read(self, message: MfaJobRead) -> None:
        self._checking = False
        if message.answer_round != self._answer_round or self._answering:
            return  # an answer went out since: its own reply tells the story
        if message.error is not None:
            self._check_failed(message.error)
            return
        job = message.job
        assert job is not None
        self._record(job)
        if not job.needs_mfa:
            self._finish(job, resumed=f"The job no longer waits for MFA (answered elsewhere): "
                                      f"it is {str(job.status).replace('_', ' ')}.")  # fmt: skip
            return
        self.challenge = job.mfa or self.challenge
        self._draw_facts()
        if self._expired_here:
            self._say("This computer's clock says the session expired, but the service still "
                      "waits for an answer: try it.", error=True)  # fmt: skip

    def _check_failed(self, error: AccountDataError) -> None:
        key = error.code or type(error).__name__
        if key not in self._reported_checks:  # every 5 s: one toast per kind of trouble
            self._reported_checks.add(key)
            self._host.report_error(error)
        if isinstance(error, JobNotFoundError):
            self._close(MfaOutcome("error"))
            return
        self._say(f"Could not check the job: {error.title}.", error=True)

    def on_screen_suspend(self) -> None:
        self._covered = True

    def on_screen_resume(self) -> None:
        if self._close_when_shown is not None:
            self.dismiss(self._close_when_shown)
        elif self._covered:
            self._covered = False
            self.check_job()  # the job may have moved on while the dialog was covered

    # -- closing -----------------------------------------------------------

    def _record(self, job: Job) -> None:
        update_job = getattr(self.app, "update_job", None)
        if update_job is not None:
            update_job(job, self.user_id)

    def _finish(self, job: Job, *, resumed: str) -> None:
        """The job no longer waits for MFA: say why, then close."""
        if job.status == "failed":
            code = job.error.code if job.error and job.error.code else None
            reason = job.error.message if job.error and job.error.message else "no reason given"
            self.app.notify(
                reason,
                title=f"Job failed · {code}" if code else "Job failed",
                severity="error",
                markup=False,
            )
            self._close(MfaOutcome(OUTCOME_OF_CODE.get(code or "", "failed"), job))
            return
        self.app.notify(resumed, title="MFA", markup=False)
        self._close(MfaOutcome("resumed", job))

    def _close(self, outcome: MfaOutcome) -> None:
        # dismiss() pops the top screen: with help open over the dialog it
        # would close the help instead, so wait until the dialog is shown.
        if self.is_active:
            self.dismiss(outcome)
        else:
            self._close_when_shown = outcome
