"""The terminal the dashboard runs in: is there one, how big it is, and pastes that stay text.

Plain functions and one small state machine, no Textual: the command line
asks :func:`terminal_problem` before it starts the app, and the app's driver
(:mod:`accountdesk.tui.seams.driver`) reads :func:`terminal_size` and
filters its input through :class:`PasteGuard`. (How wide a skin-toned emoji
is drawn: :mod:`accountdesk.tui.seams.unicode`.)

- No terminal (``accountdesk </dev/null``, a pipe, a cron job): the dashboard
  cannot draw or read keys, and Textual's input loop would spin at 100 % of
  a core on a closed stdin. It says so in one line instead.
- ``TERM=dumb`` (Emacs's shell, some CI consoles) moves no cursor: refused the
  same way rather than drawn as a wall of escape codes.
- ``COLUMNS`` and ``LINES`` describe a terminal only when there is none to ask:
  a stale or absurd value (``LINES=99999``) made the app lay out 99,999 lines
  and allocate gigabytes. The real terminal's size wins; the environment's is
  a bounded fallback.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from typing import Protocol

__all__ = [
    "MAX_COLUMNS",
    "MAX_LINES",
    "PasteGuard",
    "bounded_size_environment",
    "prepare_terminal",
    "terminal_problem",
    "terminal_size",
]

#: Bounds on a terminal's size from the environment (a 8K screen at a small
#: font is about 800 columns by 250 lines).
MAX_COLUMNS = 1000
MAX_LINES = 500
#: Textual's own default when nothing says otherwise.
DEFAULT_SIZE = (80, 24)
#: The environment variable that hands Textual another driver (web mode sets it).
DRIVER_VARIABLE = "TEXTUAL_DRIVER"


class _Stream(Protocol):
    def isatty(self) -> bool: ...


def terminal_problem(
    environ: Mapping[str, str], stdin: _Stream | None, stderr: _Stream | None
) -> str | None:
    """Why the dashboard cannot run here (one line), or None when it can.

    Textual reads keys from stdin and draws on stderr. A driver named in the
    environment (web mode's) brings its own input and output: nothing to check.
    """
    if environ.get(DRIVER_VARIABLE):
        return None
    missing = [
        name
        for name, stream in (("stdin", stdin), ("stderr", stderr))
        if stream is None or not _is_tty(stream)
    ]
    if missing:
        return (
            f"the dashboard needs a terminal, and {' and '.join(missing)} "
            f"{'is' if len(missing) == 1 else 'are'} not one; run it in a terminal "
            "(other commands, such as 'accountdesk sandbox' or 'accountdesk explain', need none)"
        )
    if environ.get("TERM", "").strip().lower() == "dumb":
        return (
            "TERM=dumb cannot draw the dashboard (it moves no cursor); run it in a terminal "
            "such as xterm, or set TERM=xterm-256color"
        )
    return None


def prepare_terminal() -> str | None:
    """Why the dashboard cannot run in this process's terminal (one line); else None.

    When it can, ``COLUMNS``/``LINES`` in ``os.environ`` are made safe for
    Textual and rich first (see :func:`bounded_size_environment`).
    """
    import sys

    problem = terminal_problem(os.environ, sys.__stdin__, sys.__stderr__)
    if problem is None:
        real_terminal = DRIVER_VARIABLE not in os.environ
        safe = bounded_size_environment(os.environ, real_terminal=real_terminal)
        for name in ("COLUMNS", "LINES"):
            if name in safe:
                os.environ[name] = safe[name]
            else:
                os.environ.pop(name, None)
    return problem


def _is_tty(stream: _Stream) -> bool:
    try:
        return bool(stream.isatty())
    except (OSError, ValueError):  # a closed stream
        return False


def _bounded(text: str | None, ceiling: int) -> int | None:
    if text is None or not text.strip().isdigit():
        return None
    value = int(text.strip())
    return min(value, ceiling) if value > 0 else None


def terminal_size(fds: Iterable[int], environ: Mapping[str, str]) -> tuple[int, int]:
    """The terminal's (columns, lines): the real terminal first, then bounded environment."""
    for fd in fds:
        try:
            columns, lines = os.get_terminal_size(fd)
        except (OSError, ValueError):
            continue
        if columns > 0 and lines > 0:
            return min(columns, MAX_COLUMNS), min(lines, MAX_LINES)
    columns = _bounded(environ.get("COLUMNS"), MAX_COLUMNS) or DEFAULT_SIZE[0]
    lines = _bounded(environ.get("LINES"), MAX_LINES) or DEFAULT_SIZE[1]
    return columns, lines


def bounded_size_environment(environ: Mapping[str, str], *, real_terminal: bool) -> dict[str, str]:
    """The environment with ``COLUMNS``/``LINES`` made safe for Textual and rich.

    With a real terminal they are dropped (its size wins; rich and Textual
    would otherwise trust them); without one (web mode) they are kept
    within bounds, and a value that is not a number is dropped.
    """
    safe = dict(environ)
    for name, ceiling in (("COLUMNS", MAX_COLUMNS), ("LINES", MAX_LINES)):
        if name not in safe:
            continue
        value = None if real_terminal else _bounded(safe[name], ceiling)
        if value is None:
            del safe[name]
        else:
            safe[name] = str(value)
    return safe


#: Bracketed paste markers (xterm): the terminal wraps a paste in these.
PASTE_START = "\x1b[200~"
PASTE_END = "\x1b[201~"
#: Control characters a paste may not carry into the app: C0 but tab, line
#: feed and carriage return; DEL; C1. ESC is among them.
_PASTE_CONTROLS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


class PasteGuard:
    """Keeps a bracketed paste one paste, whatever bytes it holds.

    Textual's input parser treats an ESC inside a paste as the start of an
    escape sequence, and what follows it is re-issued as key presses: a
    pasted ESC then newline pressed Enter (it signed in, spent an MFA attempt,
    started a job). Fed the terminal's input before Textual's parser sees it,
    this drops the control characters inside a paste (ESC included), so the
    parser sees plain text up to the real end marker. Outside a paste nothing
    is changed or held back: a lone Escape key still arrives at once.
    """

    def __init__(self) -> None:
        self._in_paste = False
        #: Outside a paste: how much of the start marker the last text ended with.
        self._start_seen = 0
        #: Inside a paste: text held back because it may begin the end marker.
        self._held = ""

    @property
    def in_paste(self) -> bool:
        return self._in_paste

    def feed(self, text: str) -> str:
        """The input to give the parser for ``text`` (pastes cleaned); keeps state across calls."""
        out: list[str] = []
        rest = text
        while rest:
            rest = self._inside(rest, out) if self._in_paste else self._outside(rest, out)
        return "".join(out)

    def _outside(self, text: str, out: list[str]) -> str:
        # The start marker may be split across reads: continue a partial match.
        if self._start_seen:
            wanted = PASTE_START[self._start_seen :]
            if text.startswith(wanted):
                out.append(wanted)
                self._start_seen = 0
                self._in_paste = True
                return text[len(wanted) :]
            if wanted.startswith(text):
                out.append(text)
                self._start_seen += len(text)
                return ""
            self._start_seen = 0
        index = text.find(PASTE_START)
        if index >= 0:
            out.append(text[: index + len(PASTE_START)])
            self._in_paste = True
            return text[index + len(PASTE_START) :]
        out.append(text)
        self._start_seen = _prefix_at_end(text, PASTE_START)
        return ""

    def _inside(self, text: str, out: list[str]) -> str:
        text = self._held + text
        self._held = ""
        index = text.find(PASTE_END)
        if index >= 0:
            out.append(_PASTE_CONTROLS.sub("", text[:index]) + PASTE_END)
            self._in_paste = False
            return text[index + len(PASTE_END) :]
        keep = _prefix_at_end(text, PASTE_END)
        if keep:
            self._held = text[-keep:]
            text = text[:-keep]
        out.append(_PASTE_CONTROLS.sub("", text))
        return ""


def _prefix_at_end(text: str, marker: str) -> int:
    """The length of the longest proper prefix of ``marker`` that ``text`` ends with."""
    for size in range(min(len(marker) - 1, len(text)), 0, -1):
        if text.endswith(marker[:size]):
            return size
    return 0
