"""What the command line prints: every line through the one sanitiser.

A subcommand prints text it did not write: a pack's or a tour's (a file a
trainer received from elsewhere), its file name, a key the pack misspelt,
the service's words. Each line goes through
:func:`accountdesk.contract.sanitise.sanitise_text` here, so nothing in them
drives the terminal (``ESC[2J`` shows as ``␛[2J``), whatever checked it
before. Imports the sanitiser when something is printed, not before.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from typing import TextIO

__all__ = ["APP_EXTRA", "fail", "inert", "missing", "say"]

#: What the dashboard needs beyond the client library.
APP_EXTRA = "pip install 'accountdesk[app]'"


def inert(text: str) -> str:
    """``text`` with each line made inert (its newlines kept)."""
    from accountdesk.contract.sanitise import sanitise_text

    return "\n".join(sanitise_text(line) for line in text.split("\n"))


def say(lines: str | Iterable[str], *, file: TextIO | None = None) -> bool:
    """Print ``lines`` made inert, flushed; False when the reader left early (``| head``)."""
    out = file if file is not None else sys.stdout
    text = lines if isinstance(lines, str) else "\n".join(lines)
    try:
        print(inert(text), file=out, flush=True)
    except BrokenPipeError:
        # Not a failure; point stdout at /dev/null so Python's flush at exit
        # does not fail again (as its documentation advises).
        if out is sys.stdout:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return False
    return True


def fail(lines: str | Iterable[str], *, prefix: str = "accountdesk: ") -> int:
    """Each line on stderr as ``accountdesk: <line>``, made inert; exit status 2."""
    text = lines if isinstance(lines, str) else "\n".join(lines)
    for line in text.split("\n"):
        print(prefix + inert(line), file=sys.stderr)
    return 2


def missing(error: ImportError) -> int:
    """A package of the dashboard is not installed (the client-only install): what to install."""
    return fail(f"this needs the dashboard's packages ({error.name}); {APP_EXTRA}")
