"""An unexpected error that ends the app: a report, not a wall.

Textual's own crash report is the traceback drawn with every local's value,
at the terminal's width: at 20 columns it was 6,477 lines of boxes, nothing
went to the log, and a local could hold account data. Here the traceback
goes to the log file (redacted and made terminal-safe like every record,
see :mod:`accountdesk.core.logs`), and the terminal, once restored, gets a
few lines: what happened, where the details are, how to report it. The
exception's message is not among them: it may quote data.
"""

from __future__ import annotations

import logging
import traceback
from pathlib import Path

__all__ = ["crash_lines", "log_crash"]


def log_crash(log: logging.Logger, error: BaseException) -> None:
    """The whole traceback, to the log only."""
    text = "".join(traceback.format_exception(error)).rstrip()
    log.critical("unexpected error; accountdesk stopped:\n%s", text)


def crash_lines(error: BaseException, log_file: Path | None) -> list[str]:
    """What the terminal shows after the app stopped on ``error``: a few lines, no data.

    The log file's path is a line of its own, so it can be copied whole.
    """
    lines = [
        f"accountdesk stopped on an unexpected error ({type(error).__name__}).",
        "Your jobs are kept: they are polled again when you start it next.",
    ]
    if log_file is None:
        lines.append("No log file could be written (check the log folder's permissions).")
    else:
        lines += [
            "The details (a traceback, secrets masked) are in this file:",
            str(log_file),
            (
                "To report it, attach that file to a ticket with what you were doing; "
                "it holds no API secret or token."
            ),
        ]
    return lines
