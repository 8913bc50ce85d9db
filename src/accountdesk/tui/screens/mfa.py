"""The MFA dialog: answer the challenge a job waits on.

Submitting calls ``submit_mfa`` then ``resolve_mfa`` in a worker. A wrong
answer keeps the dialog open with the attempts left; a right one closes it and
the job resumes. An expired session (``AC-110``), a blocked account
(``AC-108``) and a job that failed (third wrong answer) are shown as toasts and
close the dialog with an :class:`~accountdesk.tui.poller.MfaOutcome`. The
countdown to the session's expiry reads ``app.now()``, so tests freeze it.

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
from textual.widgets import Button, Input, Label, Static

from accountdesk.client.errors import (
    AccountBlockedError,
    AccountDataError,
    JobNotFoundError,
    MfaSessionExpiredError,
)
from accountdesk.client.models import Job, MfaChallenge
from accountdesk.tui.poller import JobsHost, MfaOutcome
from accountdesk.tui.resources import styles_path

__all__ = ["MfaDialog", "format_countdown"]


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


class MfaDialog(ModalScreen[MfaOutcome]):
    """Modal dialog answering one job's MFA challenge."""

    CSS_PATH = styles_path("mfa.tcss")
    HELP = """\
The bank asks a question before the job can go on (multi-factor
authentication). Type the answer and press Enter.

- A wrong answer costs one attempt; after the last one the job fails and the
  account is blocked for a while (`AC-108` on the next refresh).
- The session expires at the countdown's end (`AC-110`): start the job again.
- Escape closes the dialog without answering; `m` on the jobs screen opens it
  again.
"""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="mfa_cancel"),
    ]

    def __init__(
        self, user_id: str, job_id: str, kind: str, challenge: MfaChallenge | None
    ) -> None:
        super().__init__()
        self.user_id = user_id
        self.job_id = job_id
        self.kind = kind
        self.challenge = challenge or MfaChallenge()

    def compose(self) -> ComposeResult:
        with Vertical(id="mfa-box") as box:
            # A Text, not a str: a str title is parsed as markup.
            box.border_title = Text(f"MFA · {self.kind.replace('_', ' ')} for {self.user_id}")
            yield Label(Text(self.challenge.question or "The bank asks for a code."),
                        id="mfa-question")  # fmt: skip
            yield Input(placeholder="Answer", id="mfa-answer", max_length=128)
            with Horizontal(id="mfa-facts"):
                yield Label(id="mfa-attempts")
                yield Label(id="mfa-countdown")
            yield Static(id="mfa-message")
            with Horizontal(id="mfa-buttons"):
                yield Button("Submit", variant="primary", id="mfa-submit")
                yield Button("Cancel", id="mfa-cancel")

    def on_mount(self) -> None:
        self._draw_facts()
        self.set_interval(1.0, self._draw_countdown, name="mfa-countdown")
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

    def _draw_countdown(self) -> None:
        left = format_countdown(self.challenge.expires_at, self._host.now())
        label = self.query_one("#mfa-countdown", Label)
        label.update(f"Session expires in {left}" if left != "expired" else "Session expired")
        label.set_class(left == "expired", "-expired")

    def _say(self, text: str, *, error: bool = False) -> None:
        message = self.query_one("#mfa-message", Static)
        message.update(Text(text))
        message.set_class(error, "-error")

    # -- submitting ------------------------------------------------------

    @on(Input.Submitted, "#mfa-answer")
    @on(Button.Pressed, "#mfa-submit")
    def submit(self) -> None:
        """Send the answer (Enter or the Submit button)."""
        answer_input = self.query_one(Input)
        answer = answer_input.value.strip()
        if not answer:
            self._say("Type the answer first.", error=True)
            return
        answer_input.disabled = True
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
        job = message.job
        update_job = getattr(self.app, "update_job", None)
        if update_job is not None:
            update_job(job, self.user_id)
        if job.needs_mfa:
            self.challenge = job.mfa or self.challenge
            left = self.challenge.attempts_remaining
            answer_input = self.query_one(Input)
            answer_input.disabled = False
            answer_input.value = ""
            answer_input.focus()
            if left is None:
                self._say("Wrong answer", error=True)
            else:
                self._say(f"Wrong answer — {left} {'attempt' if left == 1 else 'attempts'} left",
                          error=True)  # fmt: skip
            self._draw_facts()
            return
        if job.status == "failed":
            code = job.error.code if job.error and job.error.code else None
            reason = job.error.message if job.error and job.error.message else "no reason given"
            self.app.notify(
                reason,
                title=f"Job failed · {code}" if code else "Job failed",
                severity="error",
                markup=False,
            )
            self.dismiss(MfaOutcome("failed", job))
            return
        self.app.notify("MFA accepted; the job resumed.", title="MFA")
        self.dismiss(MfaOutcome("resumed", job))

    def on_mfa_answer_failed(self, message: MfaAnswerFailed) -> None:
        error = message.error
        self._host.report_error(error)
        outcome = {
            MfaSessionExpiredError: "expired",
            AccountBlockedError: "blocked",
            JobNotFoundError: "error",
        }
        for error_type, name in outcome.items():
            if isinstance(error, error_type):
                self.dismiss(MfaOutcome(name))
                return
        # Anything else (bank or network trouble) may pass: keep the dialog to retry.
        answer_input = self.query_one(Input)
        answer_input.disabled = False
        answer_input.focus()
        self._say(f"Could not check the answer: {error.title}. Try again.", error=True)
