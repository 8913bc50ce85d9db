"""What the app does at the terminal's edges: its driver, NO_COLOR, and a crash.

A mixin of :class:`~accountdesk.tui.app.AccountDeskApp` (see
:mod:`accountdesk.tui.terminal` for the rules):

- the driver: ours in a terminal (sizes and pastes a person can trust);
- ``NO_COLOR``: theme variables that mark the cursor row, the highlighted
  option and the text cursor by more than a shade;
- an unexpected error: the traceback to the log, a few lines on the
  terminal once it is restored (:mod:`accountdesk.core.crash`).
"""

from __future__ import annotations

import logging
import sys
from pathlib import Path
from typing import Any

from textual.app import App
from textual.driver import Driver

__all__ = ["TerminalAware"]

log = logging.getLogger("accountdesk.tui.app")

#: Theme variables under NO_COLOR: states marked by underline, weight and reverse video.
_NO_COLOUR_STYLES = {
    "block-cursor-text-style": "bold underline",
    "block-cursor-blurred-text-style": "underline",
    "input-cursor-text-style": "reverse",
    "button-focus-text-style": "bold reverse",
}


class TerminalAware(App[None]):
    """The app at the terminal's edges (see the module docstring)."""

    #: The lines printed after an unexpected error ended the app (core.crash).
    crash_report: list[str]

    def crash_log_file(self) -> Path | None:
        """The log file a crash's traceback went to (None: no log could be written)."""
        return None

    def _handle_exception(self, error: Exception) -> None:
        # Textual's report is the traceback with its locals, as wide as the
        # terminal, and nothing in the log: ours logs the traceback and, once
        # the terminal is restored, prints a few lines (run()).
        if self._exception is None:  # Pilot re-raises the first one in tests
            self._exception = error
            self._exception_event.set()
        self._return_code = 1
        # Imported here: only a crash needs it (~4 ms of every start otherwise).
        from accountdesk.core.crash import crash_lines, log_crash

        log_crash(log, error)
        self.crash_report = crash_lines(error, self.crash_log_file())
        self.bell()
        self.panic()  # ends the app, with nothing of Textual's to print

    def run(self, *args: Any, **options: Any) -> Any:
        """Run the app; after an unexpected error, print its few lines once the terminal is back.

        Plain lines, not rich's: a path wrapped by rich could not be copied whole.
        """
        self.crash_report = []
        result = super().run(*args, **options)
        if self.crash_report:
            print("\n".join(self.crash_report), file=sys.stderr)
        return result

    def get_css_variables(self) -> dict[str, str]:
        variables = super().get_css_variables()
        if self.no_color:
            variables.update(_NO_COLOUR_STYLES)
        return variables

    def get_driver_class(self) -> type[Driver]:
        # In a terminal, ours (terminal_driver). Another driver named in the
        # environment (web mode's) or Windows's stays.
        chosen = super().get_driver_class()
        if chosen.__module__ == "textual.drivers.linux_driver":
            from .terminal_driver import TerminalDriver

            return TerminalDriver
        return chosen
