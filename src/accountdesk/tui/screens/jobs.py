"""The jobs screen: every job started in this app, live.

Rows come from the desk's job tracker (newest first) through the core's
``job_rows`` view model; the screen redraws when the app publishes the jobs
signal and once a second so stale marks show (ages every 10 s), touching
only the cells whose text changed. Every age and last poll on screen is
read at the same moment, the last ages step: a row rewritten for a new
status, or scrolled into view, reads like its neighbours. It never talks to the service itself:
``r`` asks the poller for a poll of every unfinished job, ``m`` (or Enter
on a job waiting for MFA) asks the app for the MFA dialog.
"""

from __future__ import annotations

import time
from typing import ClassVar

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import DataTable, Input, Static

from accountdesk.core.jobs.poller import PollerState
from accountdesk.core.jobs.rows import (
    COLUMNS,
    FIXED_WIDTHS,
    AgesMoment,
    JobRow,
    clear_text,
    job_details,
    job_row,
    matches,
    only_ages_moved,
)
from accountdesk.core.jobs.tracker import TrackedJob
from accountdesk.tui.base import DeskScreen
from accountdesk.tui.messages import OpenAccount, OpenMfaDialog
from accountdesk.tui.presenting import TypedField
from accountdesk.tui.resources import styles_path
from accountdesk.tui.widgets.fitted_table import FittedTable, cell
from accountdesk.tui.widgets.footer import AppFooter
from accountdesk.tui.widgets.header import AppHeader

__all__ = ["STATUS_STYLES", "JobsScreen"]

#: Seconds between two redraws the jobs signal asks for (a thousand jobs answer ~40 times a second).
REDRAW_EVERY = 0.25
#: Rows beyond the visible ones kept up to date on each side (a page-down lands on fresh rows).
VIEW_MARGIN = 5
#: The screen's clock ticks once a second (a job turning stale shows within a second); the
#: age and "last poll" cells move every AGES_EVERY ticks. One changed cell redraws every row
#: in view (Textual's table caches are per table), and with a thousand jobs polled some
#: "… ago" in view changes every second: ages in 10 s steps cost a tenth of that.
AGES_EVERY = 10

#: Colour of each job status in the table.
STATUS_STYLES = {
    "pending": "bold yellow",
    "in_progress": "bold cyan",
    "mfa_required": "bold magenta",
    "completed": "bold green",
    "failed": "bold red",
    "gone": "dim",
}


def _cells(row: JobRow) -> list[Text]:
    user, kind, status, age, last_poll, note = row.cells
    note_style = "dim" if row.gone else "bold red" if row.stale else ""
    return [
        cell(user),
        cell(kind),
        cell(status, STATUS_STYLES.get(row.status, "")),
        cell(age),
        cell(last_poll),
        cell(note, note_style),
    ]


class JobsScreen(DeskScreen[None]):
    """Tracked jobs with user, kind, status, age, last poll and a note."""

    CSS_PATH = styles_path("jobs.tcss")
    TITLE = "Jobs"
    HELP = """\
Every job started in this app (balance refresh, identity, transactions),
newest first, kept across runs for each service.

The app polls unfinished jobs about once a second (many jobs in turn: a
thousand every 25 s, every 50 s while a job's answers do not change); a poll
never starts before the previous one finished. Ages and last polls move
together in 10 s steps, all read at the same moment (a sandbox clock moved
on the sandbox panel shows at once). When polling fails, the error is shown
once and the row is marked **stale** while polls back off (up to 30 s). Jobs the
service no longer knows (`AC-109`) are marked **gone** and not polled again.

A failed job shows its code and the service's message on its row and, whole,
in the line under the table; an `AC-108` block says when it lifts when the
service tells (the sandbox does).

- Enter on a job: its user's account, or the MFA dialog when it waits for MFA.
- `m`: answer MFA; `c`: clear finished jobs; `/`: filter by user, kind or
  status (all words must match; Enter applies, Escape clears).
- `p` pauses or resumes polling; `r` polls every unfinished job now (jobs
  no longer polled after 30 minutes too).
- Escape goes back.
"""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("m", "answer_mfa", "Answer MFA", id="answer_mfa"),
        Binding(
            "c", "clear_finished", "Clear done", id="clear_finished", tooltip="Forget finished jobs"
        ),
        Binding(
            "slash",
            "focus_filter",
            "Filter",
            id="focus_jobs_filter",
            tooltip="Filter by user or status",
        ),
        Binding("p", "pause_polling", "Pause/resume", id="pause_polling"),
        Binding("r", "poll_now", "Poll now", id="poll_now"),
        Binding("escape", "back", "Back", id="back"),
    ]

    def __init__(self) -> None:
        super().__init__()
        #: The jobs shown, in table order, as of the last redraw.
        self._jobs: list[TrackedJob] = []
        #: What the table holds for each job (a row off screen is written when it scrolls in).
        self._written: dict[str, JobRow] = {}
        #: What the status, details and empty lines show (updated only when it changes).
        self._lines: dict[str, object] = {}
        self._last_refresh = -REDRAW_EVERY
        self._refresh_due = False
        #: Ticks of the one-second clock since the ages were last drawn.
        self._ticks = 0
        #: The moment every age and last poll on screen is read at.
        self._ages = AgesMoment()

    def compose(self) -> ComposeResult:
        yield AppHeader("Jobs")
        yield Static(id="jobs-status")
        yield TypedField(
            placeholder="Filter by user, kind or status  ( / )", id="jobs-filter", compact=True
        )
        yield FittedTable(
            flexible=("note", "kind", "user"),
            id="jobs-table",
            cursor_type="row",
            zebra_stripes=True,
        )
        yield Static(id="job-details")
        yield Static(
            "No jobs yet: start a balance refresh, identity or transactions job from an account.",
            id="jobs-empty",
        )
        yield AppFooter()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        for key, label in COLUMNS:
            table.add_column(label, key=key, width=FIXED_WIDTHS.get(key))
        self.jobs_changed_signal.subscribe(self, lambda _: self._jobs_changed())
        # Stale marks, ages and "last poll" move with the clock even when no job changes.
        self.ticker = self.set_interval(1.0, self.tick, name="jobs-ages")
        # Rows that scroll into view are brought up to date as they come.
        self.watch(table, "scroll_y", lambda _: self._write_visible(ages=True), init=False)
        self.refresh_jobs()
        table.focus()

    @property
    def redraw_due(self) -> bool:
        """A redraw the jobs signal asked for is waiting for its turn (the Driver's settle waits)."""
        return self._refresh_due

    def _jobs_changed(self) -> None:
        """Polls answer many times a second with many jobs: redraw at most every REDRAW_EVERY s."""
        if self._refresh_due:
            return
        wait = self._last_refresh + REDRAW_EVERY - time.monotonic()
        if wait <= 0:
            self.refresh_jobs(ages=False)
        else:
            self._refresh_due = True
            self.set_timer(wait, lambda: self.refresh_jobs(ages=False), name="jobs-changed")

    def tick(self) -> None:
        """The one-second clock: stale marks at once, ages and last polls every AGES_EVERY s."""
        self._ticks += 1
        self.refresh_jobs(ages=self._ticks >= AGES_EVERY)

    # -- drawing ---------------------------------------------------------

    def refresh_jobs(self, *, ages: bool = True) -> None:
        """Redraw the rows, keeping the cursor on the same job.

        With the same jobs in the same order (the usual tick) only the rows
        in view are brought up to date, and only their changed cells: a
        thousand jobs cost what a screenful does. Others are written when
        they scroll into view. Without ``ages`` a row whose only change is
        its age or last poll is left for the next ages step.
        """
        self._last_refresh, self._refresh_due = time.monotonic(), False
        desk = self.desk
        tracker = desk.tracker
        table = self.query_one(FittedTable)
        query = self.query_one("#jobs-filter", Input).value
        jobs = tracker.jobs
        shown = [job for job in jobs if matches(job, query)] if query.strip() else jobs
        same_rows = [job.key for job in shown] == [job.key for job in self._jobs]
        if ages or not same_rows or self._ages.clock_moved(desk.sandbox_offset):
            # An ages step: every row read from now on reads at this moment
            # (a rebuild writes every row; a moved sandbox clock shows at once).
            ages, self._ticks = True, 0
            self._ages.step(desk.clock(), desk.sandbox_offset)
        if same_rows:
            # Update in place, so the cursor and scroll position stay exactly where they were.
            self._jobs = shown
            self._write_visible(ages=ages)
        else:
            selected = self.selected_job_key
            self._jobs = shown
            poller, now = desk.poller, desk.now()
            # Each age on the clock its job started on (a sandbox's may have moved).
            rows = [
                job_row(job, desk.job_now(job, self._ages.at), stale=poller.is_stale(job, now))
                for job in shown
            ]
            table.clear()
            for row in rows:
                table.add_row(*_cells(row), key=row.key)
            self._written = {row.key: row for row in rows}
            if selected is not None and selected in table.rows:
                table.move_cursor(row=table.get_row_index(selected), animate=False)
        table.fit()
        empty = self.query_one("#jobs-empty", Static)
        self._show(
            empty,
            "No jobs yet: start a balance refresh, identity or transactions job from an account."
            if not len(tracker)
            else f"No job matches “{query}”.",
        )
        # A class, not ``display``: a display set here would outrank the
        # stylesheet's rule that hides everything in a terminal too small.
        empty.set_class(bool(shown), "-hidden")
        table.set_class(not shown, "-hidden")
        self._draw_status()
        self._draw_details()

    def _write_visible(self, *, ages: bool) -> None:
        """Bring the rows in view (and a few around them) up to date, changed cells only.

        Without ``ages``, a row whose only changes are its age and last poll is
        not written (and keeps its old texts on record, so the ages step writes it).
        """
        table = self.query_one(FittedTable)
        first = max(0, round(table.scroll_y) - VIEW_MARGIN)
        last = round(table.scroll_y) + table.size.height + VIEW_MARGIN
        desk = self.desk
        poller, now = desk.poller, desk.now()
        for job in self._jobs[first:last]:
            # Ages as of the last ages step, whenever the row is written.
            row = job_row(job, desk.job_now(job, self._ages.at), stale=poller.is_stale(job, now))
            old = self._written.get(row.key)
            if old == row or row.key not in table.rows:
                continue
            if not ages and old is not None and only_ages_moved(old, row):
                continue
            for index, ((column, _), text) in enumerate(zip(COLUMNS, _cells(row), strict=True)):
                # Styles follow the texts (status word, "stale"/"gone" in the note).
                if old is None or old.cells[index] != row.cells[index]:
                    # Re-measuring a column costs a pass over every row:
                    # only for the columns that rarely change.
                    fixed = column in FIXED_WIDTHS
                    table.update_cell(row.key, column, text, update_width=not fixed)
            self._written[row.key] = row

    def _show(self, line: Static, content: str | Text) -> None:
        """``line.update(content)`` unless it shows that already.

        Laying the screen out again (a thousand rows' table included) is only
        needed when the line's height may change: not while the old and the
        new text each fit on one line (the details line follows the cursor).
        """
        key = line.id or ""
        old = self._lines.get(key)
        if old == content:
            return
        self._lines[key] = content
        width = line.content_region.width
        one_line = old is not None and all(
            "\n" not in str(text) and Text(str(text)).cell_len <= width for text in (old, content)
        )
        line.update(content, layout=not one_line)

    def _draw_status(self) -> None:
        desk = self.desk
        tracker, poller, now = desk.tracker, desk.poller, desk.now()
        unfinished = tracker.pollable()
        waiting = sum(1 for job in unfinished if job.needs_mfa)  # MFA waits are unfinished
        if poller.state is PollerState.PAUSED:
            state = Text("Polling paused", style="bold yellow")
        else:
            stale = poller.stale_count(now)
            state = (
                Text(f"Polling live · {stale} stale", style="bold red")
                if stale
                else Text("Polling live", style="bold green")
            )
        noun = "job" if len(tracker) == 1 else "jobs"
        state.append(f"  ·  {len(tracker)} {noun}, {len(unfinished)} unfinished", style="")
        if waiting:
            state.append(f", {waiting} waiting for MFA (press m)", style="magenta")
        self._show(self.query_one("#jobs-status", Static), state)

    def _draw_details(self) -> None:
        details = self.query_one("#job-details", Static)
        job = self.selected_job
        if job is None:
            self._show(details, "")
            return
        text = Text()
        for index, (label, value) in enumerate(job_details(job)):
            text.append(("  " if index else "") + (label + " " if label else ""), style="dim")
            text.append(value, style="magenta" if label.startswith("MFA") else "")
        self._show(details, text)

    # -- selection -------------------------------------------------------

    @property
    def selected_job_key(self) -> str | None:
        table: DataTable[Text] = self.query_one(DataTable)
        if table.row_count == 0:
            return None
        row_key, _ = table.coordinate_to_cell_key(table.cursor_coordinate)
        return row_key.value

    @property
    def selected_job(self) -> TrackedJob | None:
        key = self.selected_job_key
        return None if key is None else self.desk.tracker.get(key)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self._draw_details()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        """Enter: answer MFA when the job waits for it, else open its user's account."""
        job = self.selected_job
        if job is None:
            return
        if job.needs_mfa:
            self.post_message(OpenMfaDialog(job.key))
        else:
            self.post_message(OpenAccount(job.user_id))

    # -- the filter ------------------------------------------------------------

    def action_focus_filter(self) -> None:
        self.query_one("#jobs-filter", Input).focus()

    @on(Input.Submitted, "#jobs-filter")
    def _filter_submitted(self) -> None:
        self.refresh_jobs()
        self.query_one(DataTable).focus()

    @on(Input.Changed, "#jobs-filter")
    def _filter_typed(self) -> None:
        self.refresh_jobs()

    def on_key(self, event: events.Key) -> None:
        # Escape in the filter clears it and leaves it; elsewhere it goes back.
        field = self.query_one("#jobs-filter", Input)
        if event.key == "escape" and self.focused is field:
            event.stop()
            event.prevent_default()
            field.value = ""
            self.query_one(DataTable).focus()

    # -- actions -------------------------------------------------------------

    def action_answer_mfa(self) -> None:
        job = self.selected_job
        if job is None or not job.needs_mfa:
            # Fall back to the first job waiting for MFA, so m works from anywhere.
            job = next((j for j in self.desk.tracker.jobs if j.needs_mfa), None)
        if job is None:
            self.notify("No job is waiting for MFA.", title="MFA", severity="warning")
            return
        self.post_message(OpenMfaDialog(job.key))

    def action_clear_finished(self) -> None:
        """Forget the finished jobs shown: with a filter, only those it shows."""
        tracker = self.desk.tracker
        query = self.query_one("#jobs-filter", Input).value
        shown = {job.key for job in tracker.jobs if matches(job, query)} if query else None
        finished = self.desk.finished_job_keys()
        hidden = sum(1 for key in finished if key not in shown) if shown is not None else 0
        cleared = self.desk.clear_finished_jobs(among=shown)
        self.notify(
            clear_text(cleared, hidden),
            title="Jobs cleared" if cleared else "Nothing to clear",
        )

    def action_pause_polling(self) -> None:
        poller = self.desk.poller
        if poller.state is PollerState.PAUSED:
            poller.resume()
        else:
            poller.pause()

    def action_poll_now(self) -> None:
        if self.desk.poller.poll_now(force=True) == 0:
            self.notify("No unfinished job to poll.", title="Jobs")

    def action_back(self) -> None:
        self.dismiss()
