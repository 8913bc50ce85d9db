"""The jobs screen: every job started in this app, live.

Rows come from the app's :class:`~accountdesk.tui.jobs.JobTracker` (newest
first); the screen redraws when the app publishes ``jobs_changed_signal`` and
once a second so ages move. It never talks to the service itself: ``r`` asks
the app for a poll round, ``m`` (or Enter on a job waiting for MFA) opens the
MFA dialog.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, cast

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import DataTable, Static

from accountdesk.tui.jobs import JobTracker, TrackedJob, describe_age
from accountdesk.tui.resources import styles_path
from accountdesk.tui.widgets.footer import AppFooter
from accountdesk.tui.widgets.header import AppHeader

if TYPE_CHECKING:
    from accountdesk.tui.poller import JobsMixin

__all__ = ["STATUS_STYLES", "JobsScreen"]

#: Colour of each job status in the table.
STATUS_STYLES = {
    "pending": "bold yellow",
    "in_progress": "bold cyan",
    "mfa_required": "bold magenta",
    "completed": "bold green",
    "failed": "bold red",
}
COLUMNS = (("user", "User"), ("kind", "Kind"), ("status", "Status"), ("age", "Age"),
           ("last_poll", "Last poll"), ("note", "Note"))  # fmt: skip


class JobsScreen(Screen[None]):
    """Tracked jobs with user, kind, status, age, last poll and a note."""

    CSS_PATH = styles_path("jobs.tcss")
    TITLE = "Jobs"
    HELP = """\
Every job started in this app (balance refresh, identity, transactions),
newest first, kept across runs for each service.

The app polls unfinished jobs about once a second; a poll never starts
before the previous one finished. When polling fails, the error is shown once
and the row is marked **stale** while polls back off (up to 30 s). Jobs the
service no longer knows (`AC-109`) are marked **gone** and not polled again.

- `m` or Enter on a job waiting for MFA: answer the challenge.
- `p` pauses or resumes polling; `r` polls every unfinished job now.
- Escape goes back.
"""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("m", "answer_mfa", "Answer MFA", id="answer_mfa"),
        Binding("p", "pause_polling", "Pause/resume", id="pause_polling"),
        Binding("r", "poll_now", "Poll now", id="poll_now"),
        Binding("escape", "back", "Back", id="back"),
    ]

    def compose(self) -> ComposeResult:
        yield AppHeader("Jobs")
        yield Static(id="jobs-status")
        table: DataTable[Text] = DataTable(id="jobs-table", cursor_type="row", zebra_stripes=True)
        yield table
        yield Static(id="job-details")
        yield Static(
            "No jobs yet: start a balance refresh, identity or transactions job from an account.",
            id="jobs-empty",
        )
        yield AppFooter()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        for key, label in COLUMNS:
            table.add_column(label, key=key)
        self._host.jobs_changed_signal.subscribe(self, self._jobs_changed)
        # Ages and "last poll" move with the clock even when no job changes.
        self.set_interval(1.0, self.refresh_jobs, name="jobs-ages")
        self.refresh_jobs()
        table.focus()

    # -- drawing ---------------------------------------------------------

    @property
    def _host(self) -> JobsMixin:
        return cast("JobsMixin", self.app)

    def _jobs_changed(self, tracker: JobTracker) -> None:
        self.refresh_jobs()

    def refresh_jobs(self) -> None:
        """Redraw every row, keeping the cursor on the same job."""
        tracker = self._host.job_tracker
        now = cast(Any, self.app).now()
        table = self.query_one(DataTable)
        jobs = tracker.jobs
        keys = [job.key for job in jobs]
        if keys == [row.value for row in table.rows]:
            # The same jobs in the same order (the usual tick): update in place,
            # so the cursor and scroll position stay exactly where they were.
            for job in jobs:
                for (column, _), cell in zip(COLUMNS, self._cells(job, now), strict=True):
                    table.update_cell(job.key, column, cell, update_width=True)
        else:
            selected = self.selected_job_key
            table.clear()
            for job in jobs:
                table.add_row(*self._cells(job, now), key=job.key)
            if selected is not None and selected in table.rows:
                table.move_cursor(row=table.get_row_index(selected), animate=False)
        self.query_one("#jobs-empty").display = len(tracker) == 0
        table.display = len(tracker) > 0
        self._draw_status(tracker)
        self._draw_details()

    @staticmethod
    def _cells(job: TrackedJob, now: Any) -> list[Text]:
        if job.gone:  # the last known status would be a guess now
            status = Text("gone", style="dim")
        else:
            status = Text(job.status, style=STATUS_STYLES.get(job.status, ""))
        note = Text(job.note, style="dim" if job.gone else "bold red" if job.stale else "")
        return [
            Text(job.user_id),
            Text(job.kind),
            status,
            Text(describe_age(job.age_from, now)),
            Text(describe_age(job.last_poll_at, now) + " ago" if job.last_poll_at else "—"),
            note,
        ]

    def _draw_status(self, tracker: JobTracker) -> None:
        unfinished = tracker.pollable()
        live = len(unfinished)
        waiting = sum(1 for job in unfinished if job.needs_mfa)  # MFA waits are unfinished
        state = (
            Text("Polling paused", style="bold yellow")
            if self._host.polling_paused
            else Text("Polling live", style="bold green")
        )
        noun = "job" if len(tracker) == 1 else "jobs"
        state.append(f"  ·  {len(tracker)} {noun}, {live} unfinished", style="")
        if waiting:
            state.append(f", {waiting} waiting for MFA (press m)", style="magenta")
        self.query_one("#jobs-status", Static).update(state)

    def _draw_details(self) -> None:
        details = self.query_one("#job-details", Static)
        job = self.selected_job
        if job is None:
            details.update("")
            return
        text = Text.assemble(("Job ", "dim"), job.job_id, ("  user ", "dim"), job.user_id)
        text.append("  created ", style="dim")
        text.append(job.created_at.strftime("%Y-%m-%d %H:%M:%S %Z"))
        if job.last_error_code or job.last_error_title:
            text.append("  last error ", style="dim")
            text.append(" ".join(p for p in (job.last_error_code, job.last_error_title) if p))
        if job.mfa is not None and job.mfa.attempts_remaining is not None:
            text.append("  MFA attempts left ", style="dim")
            text.append(str(job.mfa.attempts_remaining), style="magenta")
        details.update(text)

    # -- selection -------------------------------------------------------

    @property
    def selected_job_key(self) -> str | None:
        table = self.query_one(DataTable)
        if table.row_count == 0:
            return None
        row_key, _ = table.coordinate_to_cell_key(table.cursor_coordinate)
        return cast("str | None", row_key.value)

    @property
    def selected_job(self) -> TrackedJob | None:
        key = self.selected_job_key
        return None if key is None else self._host.job_tracker.get(key)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self._draw_details()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        """Enter: answer MFA when the job waits for it, else show its details."""
        job = self.selected_job
        if job is not None and job.needs_mfa:
            self._host.open_mfa_dialog(job.key)
        else:
            self._draw_details()

    # -- actions ---------------------------------------------------------

    def action_answer_mfa(self) -> None:
        job = self.selected_job
        if job is None or not job.needs_mfa:
            # Fall back to the first job waiting for MFA, so m works from anywhere.
            job = next((j for j in self._host.job_tracker.jobs if j.needs_mfa), None)
        if job is None:
            self.notify("No job is waiting for MFA.", severity="warning")
            return
        self._host.open_mfa_dialog(job.key)

    def action_pause_polling(self) -> None:
        # The app publishes the change, which redraws this screen.
        self._host.set_polling_paused(not self._host.polling_paused)

    def action_poll_now(self) -> None:
        if self._host.poll_jobs_now(force=True) is None:
            self.notify("No unfinished job to poll.")

    def action_back(self) -> None:
        self.dismiss()
