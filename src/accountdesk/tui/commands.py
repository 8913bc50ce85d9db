"""The command palette (Ctrl+P): every action, plus the session's people and jobs.

- :func:`system_commands`: Textual's own commands (themes, screenshot...)
  and every shown, enabled key of the screen, each title once.
- :class:`DeskCommands`: what a support person reaches for by name: "Open
  user_good" for each recent lookup, "Job job_0003 · user_mfa · answer MFA" for
  each tracked job (Enter does what Enter does on the jobs screen), "Record
  USER as a scenario" on a user's account, and "Sign out", from every screen
  once signed in.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import partial
from typing import Any

from textual.app import App, SystemCommand
from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.message_pump import MessagePump
from textual.screen import Screen

from accountdesk.tui.base import desk_of
from accountdesk.tui.messages import (
    OpenAccount,
    OpenMfaDialog,
    RecordScenario,
    SignOutRequested,
)

__all__ = ["DeskCommand", "DeskCommands", "desk_commands", "system_commands"]


@dataclass(frozen=True, slots=True)
class DeskCommand:
    title: str
    help: str
    app: App[Any]
    message: Any
    #: Where the message goes (the app when None).
    target: MessagePump | None = None
    #: The screen key this command stands for (not listed again under its short name).
    action: str = ""

    def run(self) -> None:
        (self.target or self.app).post_message(self.message)


def desk_commands(app: App[Any]) -> list[DeskCommand]:
    """The session's commands: recent users, tracked jobs, sign out (none before sign-in)."""
    desk = desk_of(app)
    if not desk.signed_in:
        return []
    commands = [
        DeskCommand(
            f"Open {user_id}", "Account and balance of a recent lookup", app, OpenAccount(user_id)
        )
        for user_id in desk.recents.user_ids
    ]
    from accountdesk.core.formatting import kind_label  # the contract's: not at start-up

    for job in desk.tracker.jobs:
        message: OpenAccount | OpenMfaDialog
        if job.needs_mfa:
            what, message = "answer MFA", OpenMfaDialog(job.key)
        else:
            what, message = str(job.status).replace("_", " "), OpenAccount(job.user_id)
        commands.append(
            DeskCommand(
                f"Job {job.job_id} · {job.user_id} · {what}",
                f"{kind_label(job.kind).capitalize()} job; "
                + ("opens the MFA dialog" if job.needs_mfa else "opens the user's account"),
                app,
                message,
            )
        )
    from accountdesk.tui.screens.account import AccountScreen

    if isinstance(app.screen, AccountScreen):
        user_id = app.screen.user_id
        commands.append(
            DeskCommand(
                f"Record {user_id} as a scenario",
                "A scenario pack user that answers as this user does (redacted), to reproduce, "
                "attach to a ticket or teach (s)",
                app,
                RecordScenario(user_id),
                target=app.screen,
                action="record_scenario",
            )
        )
    commands.append(DeskCommand("Sign out", "Back to the sign-in screen", app, SignOutRequested()))
    return commands


class DeskCommands(Provider):
    """The palette's provider of :func:`desk_commands`."""

    async def discover(self) -> Hits:
        for command in desk_commands(self.app):
            yield DiscoveryHit(command.title, command.run, help=command.help)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for command in desk_commands(self.app):
            score = matcher.match(command.title)
            if score > 0:
                yield Hit(score, matcher.highlight(command.title), command.run, help=command.help)


def system_commands(
    app: App[Any], screen: Screen[Any], textual_commands: Iterable[SystemCommand]
) -> Iterator[SystemCommand]:
    """Textual's commands and the screen's shown keys, each title once."""
    ours = desk_commands(app)
    seen: set[str] = {command.title.casefold() for command in ours}
    covered = {command.action for command in ours if command.action}

    def fresh(title: str) -> bool:
        key = title.casefold()
        if key in seen:
            return False
        seen.add(key)
        return True

    for command in textual_commands:
        if fresh(command.title):
            yield command
    if desk_of(app).signed_in and fresh("Pause or resume job polling"):
        yield SystemCommand(
            "Pause or resume job polling",
            "Stop or restart the live polling of every unfinished job",
            partial(app.run_action, "toggle_job_polling"),
        )
    # Every shown, enabled binding of the screen is a command too, so the
    # palette offers exactly what the footer does (plus the keys to learn).
    for active in screen.active_bindings.values():
        binding = active.binding
        if not (binding.show and active.enabled and binding.description):
            continue
        if binding.action == "quit" or binding.action in covered:
            continue
        if not fresh(binding.description):
            continue
        help_text = f"{binding.tooltip or binding.description} ({app.get_key_display(binding)})"
        yield SystemCommand(
            binding.description, help_text, partial(app.run_action, binding.action, active.node)
        )
