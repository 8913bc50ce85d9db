"""The soak's keys: one round through every screen of a signed-in sandbox session, a key at a time.

A round starts and ends on the lookup screen: type ``user_good`` and open the
account, reveal and hide its numbers, start a balance refresh, then visit the
transactions (sorting by amount), identity, jobs, error log, help, sandbox
panel (moving the sandbox's clock one minute) and the command palette, each
left with Escape. Each step is a key and the state its frame must show (the
screen that must be on top, the field that must hold the text...), so a key
the app did not act on is noticed, not assumed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from textual.command import CommandPalette
from textual.widgets import Button, Input

from accountdesk.tui.screens.account import AccountScreen
from accountdesk.tui.screens.error_log import ErrorLogScreen
from accountdesk.tui.screens.help import HelpScreen
from accountdesk.tui.screens.identity import IdentityScreen
from accountdesk.tui.screens.jobs import JobsScreen
from accountdesk.tui.screens.lookup import LookupScreen
from accountdesk.tui.screens.sandbox_panel import SandboxPanel
from accountdesk.tui.screens.transactions import TransactionsScreen

__all__ = ["USER_ID", "KeyStep", "round_of_keys"]

#: The user every round opens (and whose balance refreshes the soak starts).
USER_ID = "user_good"


@dataclass(frozen=True, slots=True)
class KeyStep:
    """A key, and what must hold in the first frame that shows it was handled."""

    key: str
    holds: Callable[[], bool]
    what: str


def round_of_keys(app: Any) -> list[KeyStep]:
    """The keys of one round over ``app`` (see the module docstring)."""

    def on(screen_type: type[Any]) -> Callable[[], bool]:
        return lambda: isinstance(app.screen, screen_type)

    def typed(text: str) -> Callable[[], bool]:
        def holds() -> bool:
            screen = app.screen
            if not isinstance(screen, LookupScreen):
                return False
            return bool(screen.query_one("#user-id", Input).value == text)

        return holds

    def revealed(state: bool) -> Callable[[], bool]:
        return lambda: isinstance(app.screen, AccountScreen) and app.screen.revealed is state

    def focused(button_id: str) -> Callable[[], bool]:
        def holds() -> bool:
            focus = app.screen.focused if isinstance(app.screen, SandboxPanel) else None
            return isinstance(focus, Button) and focus.id == button_id

        return holds

    def painted() -> bool:
        return True

    steps = [KeyStep(letter, typed(USER_ID[: i + 1]), "type") for i, letter in enumerate(USER_ID)]
    steps += [
        KeyStep("enter", on(AccountScreen), "open the account"),
        KeyStep("r", revealed(True), "reveal the numbers"),
        KeyStep("r", revealed(False), "hide them"),
        KeyStep("b", painted, "start a balance refresh"),
        KeyStep("x", on(TransactionsScreen), "transactions"),
        KeyStep("4", painted, "sort by amount"),
        KeyStep("escape", on(AccountScreen), "back"),
        KeyStep("v", on(IdentityScreen), "identity"),
        KeyStep("escape", on(AccountScreen), "back"),
        KeyStep("j", on(JobsScreen), "jobs"),
        KeyStep("down", painted, "next job"),
        KeyStep("down", painted, "next job"),
        KeyStep("up", painted, "previous job"),
        KeyStep("escape", on(AccountScreen), "back"),
        KeyStep("e", on(ErrorLogScreen), "error log"),
        KeyStep("escape", on(AccountScreen), "back"),
        KeyStep("f1", on(HelpScreen), "help"),
        KeyStep("escape", on(AccountScreen), "back"),
        KeyStep("f4", on(SandboxPanel), "sandbox panel"),
        KeyStep("shift+tab", focused("plus-1m"), "to +1 min"),
        KeyStep("enter", painted, "move the sandbox's clock a minute"),
        KeyStep("escape", on(AccountScreen), "back"),
        KeyStep("ctrl+p", on(CommandPalette), "command palette"),
        KeyStep("escape", on(AccountScreen), "back"),
        KeyStep("escape", on(LookupScreen), "back to the lookup"),
    ]
    return steps
