"""The MFA dialog: answer the challenge a job waits on.

The decisions live in :class:`~accountdesk.core.mfa.MfaSession` (a state
enum, tested without a screen); this dialog draws, runs the calls in
workers and applies each :class:`~accountdesk.core.mfa.MfaStep`.

The countdown reads the app clock (tests freeze it), but the service's clock
decides: live polling is held while a dialog is open, so the dialog re-reads
its job every :attr:`MfaDialog.check_interval` seconds (one read at a time)
and when its countdown reaches zero.

The answer is shown in plain text (one-time codes are read back by the user)
but never logged or kept after the dialog closes.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.timer import Timer
from textual.widgets import Button, Input, Label, Static
from textual.worker import Worker

from accountdesk.client import AccountDataError, Job
from accountdesk.core.errors.log import InternalError
from accountdesk.core.formatting import kind_label
from accountdesk.core.jobs.learnt_blocks import user_blocked_until
from accountdesk.core.jobs.tracker import TrackedJob
from accountdesk.core.mfa import MfaResult, MfaSession, MfaState, MfaStep
from accountdesk.tui.base import DeskModal
from accountdesk.tui.messages import ServiceFailed
from accountdesk.tui.presenting import TypedField
from accountdesk.tui.resources import styles_path
from accountdesk.tui.widgets.footer import AppFooter

__all__ = ["MfaDialog"]

#: Seconds between the dialog's reads of its job.
MFA_CHECK_INTERVAL = 5.0


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
    """A re-read of the job ended; ``answer_round`` drops news older than an answer."""

    def __init__(self, answer_round: int, job: Job | None, error: AccountDataError | None) -> None:
        super().__init__()
        self.answer_round = answer_round
        self.job = job
        self.error = error


class MfaDialog(DeskModal[MfaResult]):
    """Modal dialog answering one job's MFA challenge."""

    CSS_PATH = styles_path("mfa.tcss")
    HELP_TITLE = "MFA dialog"
    HELP = """\
The bank asks a question before the job can go on (multi-factor
authentication). Type the answer and press Enter (or Submit).

- A wrong answer costs one attempt; after the last one the job fails and the
  account is blocked for a while (`AC-108` on the next refresh).
- A block learnt from another job of the user is shown, but the answer still
  goes: the service decides (a trainer's reset lifts a block early).
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
    #: Seconds between countdown ticks (tests that move the clock by hand hold it still).
    tick_interval: float = 1.0

    def __init__(self, tracked: TrackedJob) -> None:
        super().__init__()
        self.user_id = tracked.user_id
        self.job_id = tracked.job_id
        self.kind = tracked.kind
        self._challenge = tracked.mfa
        self.session: MfaSession | None = None
        self.check_timer: Timer | None = None
        self._close_when_shown: MfaResult | None = None
        self._covered = False  # another screen (help) is on top
        self._warning: str | None = None  # why an answer may be refused, as last said
        self._warning_on_line = False  # ... and the message line still says it

    @property
    def mfa(self) -> MfaSession:
        assert self.session is not None, "the dialog is not mounted"
        return self.session

    def compose(self) -> ComposeResult:
        question = self._challenge.question if self._challenge else ""
        with Vertical(id="mfa-box") as box:
            # A Text, not a str: a str title is parsed as markup.
            box.border_title = Text(f"MFA · {kind_label(self.kind)} for {self.user_id}")
            yield Label(Text(question or "The bank asks for a code."), id="mfa-question")
            # Enter submits: said here, as the answer box keeps Enter from the key bar.
            yield TypedField(placeholder="Answer, then Enter", id="mfa-answer", max_length=128)
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
        self.session = MfaSession(self._challenge, self.desk.now)
        self._draw_facts()
        self.set_interval(self.tick_interval, self.tick, name="mfa-countdown")
        self.check_timer = self.set_interval(self.check_interval, self.check_due, name="mfa-check")
        self.query_one(Input).focus()

    # -- drawing ---------------------------------------------------------

    def _draw_facts(self) -> None:
        mfa, desk = self.mfa, self.desk
        # A block learnt from another job of this user (AC-108) holds this one too.
        mfa.blocked_until = user_blocked_until(desk.tracker.jobs, self.user_id, desk.now())
        attempts = self.query_one("#mfa-attempts", Label)
        attempts.update(mfa.attempts_text)
        attempts.set_class(mfa.blocked, "-blocked")
        self._draw_warning()
        left = self.mfa.countdown()
        label = self.query_one("#mfa-countdown", Label)
        label.update(f"Session expires in {left}" if left != "expired" else "Session expired")
        label.set_class(left == "expired", "-expired")

    def _draw_warning(self) -> None:
        """Say once why an answer may be refused; take it back when that no longer holds."""
        warning = self.mfa.warning
        if (warning is None) == (self._warning is None):
            return
        if warning is not None or self._warning_on_line:  # never wipe a step's words
            message = self.query_one("#mfa-message", Static)
            message.update(Text(warning or ""))
            message.set_class(warning is not None, "-error")
        self._warning = warning
        self._warning_on_line = warning is not None

    def _apply(self, step: MfaStep | None) -> None:
        """Do what the session decided."""
        if step is None:
            return
        if step.report is not None:
            self.post_message(ServiceFailed(step.report, "mfa"))
        if step.message is not None:
            self._warning_on_line = False
            message = self.query_one("#mfa-message", Static)
            message.update(Text(step.message))
            message.set_class(step.error, "-error")
        if step.enable_answer:
            answer = self.query_one(Input)
            answer.disabled = False
            if step.clear_answer:
                answer.value = ""
            answer.focus()
        if step.notice is not None:
            notice = step.notice
            self.app.notify(
                notice.message, title=notice.title, severity=notice.severity, markup=False
            )
        self._draw_facts()
        if step.close is not None:
            self._close(step.close)

    def tick(self) -> None:
        """Once a second: move the countdown; at zero, ask the service whether it agrees."""
        step = self.mfa.tick()
        self._draw_facts()
        if step is not None:
            self._apply(step)
            self.check_job()

    # -- answering -------------------------------------------------------

    @on(Input.Submitted, "#mfa-answer")
    @on(Button.Pressed, "#mfa-submit")
    def action_submit(self) -> None:
        """Send the answer (Enter or the Submit button)."""
        answer_input = self.query_one(Input)
        answer = answer_input.value.strip()
        step = self.mfa.submit(answer)
        if step is None:
            return
        self._apply(step)
        if self.mfa.state is MfaState.SENDING:
            answer_input.disabled = True
            self._send_answer(answer)

    @on(Button.Pressed, "#mfa-cancel")
    def action_cancel(self) -> None:
        self.dismiss(self.mfa.cancel())

    @work(exclusive=True, exit_on_error=False, group="mfa", name="mfa")
    async def _send_answer(self, answer: str) -> None:
        client = self.desk.client
        try:
            await client.submit_mfa(self.user_id, self.job_id, answer)
            job = await client.resolve_mfa(self.user_id, self.job_id)
        except AccountDataError as error:
            self.post_message(MfaAnswerFailed(error))
        else:
            self.post_message(MfaAnswered(job))

    def on_mfa_answered(self, message: MfaAnswered) -> None:
        self.desk.update_job(message.job, self.user_id)
        self._apply(self.mfa.answered(message.job))

    def on_mfa_answer_failed(self, message: MfaAnswerFailed) -> None:
        self._apply(self.mfa.answer_failed(message.error))

    def on_service_failed(self, message: ServiceFailed) -> None:
        # Our own worker crashed (the app reports it): let the user try again.
        if isinstance(message.error, InternalError) and self.mfa.state is MfaState.SENDING:
            self._apply(self.mfa.interrupted())

    # -- checking the job with the service -----------------------------------

    def check_job(self) -> Worker[None] | None:
        """Re-read the job now; None when a read or an answer is already on its way."""
        if self._close_when_shown is not None:
            return None
        answer_round = self.mfa.start_check()
        if answer_round is None:
            return None
        return self._read_job(answer_round)

    def check_due(self) -> None:
        """The re-read timer's tick: read the job unless another screen covers the dialog."""
        if self.is_active:  # covered (help): it reads again when shown
            self.check_job()

    @work(exit_on_error=False, group="mfa-check", name="mfa_check")
    async def _read_job(self, answer_round: int) -> None:
        try:
            job = await self.desk.client.get_job(self.user_id, self.job_id)
        except AccountDataError as error:
            self.post_message(MfaJobRead(answer_round, None, error))
        else:
            self.post_message(MfaJobRead(answer_round, job, None))

    def on_mfa_job_read(self, message: MfaJobRead) -> None:
        if message.job is not None:
            self.desk.update_job(message.job, self.user_id)
        self._apply(self.mfa.checked(message.answer_round, message.job, message.error))

    def on_screen_suspend(self) -> None:
        self._covered = True

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        if self._close_when_shown is not None:
            self.dismiss(self._close_when_shown)
        elif self._covered:
            self._covered = False
            self.check_job()  # the job may have moved on while the dialog was covered

    # -- closing -----------------------------------------------------------

    def _close(self, result: MfaResult) -> None:
        # dismiss() pops the top screen: with help open over the dialog it
        # would close the help instead, so wait until the dialog is shown.
        if self.is_active:
            self.dismiss(result)
        else:
            self._close_when_shown = result
