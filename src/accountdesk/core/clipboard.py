"""How text reaches the user's clipboard: through the terminal (OSC 52), or a file and a dialog.

Textual copies with the OSC 52 escape sequence: the terminal puts the text on
the system clipboard, over SSH too. Many terminals ignore it silently, so a
person presses "copy" and pastes nothing. The ``clipboard`` setting decides:

- ``"osc52"``: always the escape sequence.
- ``"file"``: never; the text is shown in a dialog (selectable) and written
  to a 0600 file under the data dir, whose path the dialog shows.
- ``"auto"`` (default): the escape sequence, unless the environment shows it
  cannot arrive (:func:`clipboard_route` says which sign it saw).

What is detectable without asking the terminal (a query would have to go
through Textual's input parser and may never be answered):

- tmux (``$TMUX``) passes a program's OSC 52 on only with ``set-clipboard on``;
  its default, ``external``, drops it. Asked with ``tmux show-options -sv``.
- GNU screen (``$STY``) does not pass it on.
- Terminal.app (``TERM_PROGRAM=Apple_Terminal``), VTE terminals (GNOME
  Terminal, Tilix, Terminator...: ``$VTE_VERSION``) and the Linux console
  (``TERM=linux``) have no OSC 52 at all.
- kitty, WezTerm, Alacritty, foot, Ghostty and Windows Terminal have it; their
  own variables win over an inherited ``$VTE_VERSION``.

Anything else (most of all a session over SSH, where these variables are not
passed) gets OSC 52, and the "copied" toast says how to switch to files.
"""

from __future__ import annotations

import logging
import os
import subprocess
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from accountdesk.core.store import Store

__all__ = ["ClipboardMode", "ClipboardRoute", "clipboard_route", "save_clip", "tmux_set_clipboard"]

log = logging.getLogger(__name__)


class ClipboardMode(StrEnum):
    """The ``clipboard`` setting."""

    AUTO = "auto"
    OSC52 = "osc52"
    FILE = "file"


@dataclass(frozen=True, slots=True)
class ClipboardRoute:
    """Where copied text goes, and why (``reason`` completes "because ...")."""

    osc52: bool
    reason: str


#: Variables only terminals with OSC 52 set (checked before the "no" signs:
#: a kitty started from GNOME Terminal inherits $VTE_VERSION).
_CAPABLE_VARIABLES = (
    "KITTY_WINDOW_ID",
    "WEZTERM_PANE",
    "ALACRITTY_WINDOW_ID",
    "WT_SESSION",
    "GHOSTTY_RESOURCES_DIR",
)
_CAPABLE_TERMS = ("xterm-kitty", "wezterm", "alacritty", "foot", "xterm-ghostty")


@cache
def _tmux_answer(socket: str) -> str | None:
    # One question per tmux server a session runs in (the socket is in $TMUX).
    try:
        done = subprocess.run(
            ["tmux", "show-options", "-sv", "set-clipboard"],
            capture_output=True,
            text=True,
            timeout=1.0,
            check=False,
        )
    except (OSError, subprocess.SubprocessError) as error:
        log.info("cannot ask tmux for set-clipboard: %s", error)
        return None
    answer = done.stdout.strip()
    return answer if done.returncode == 0 and answer else None


def tmux_set_clipboard(env: Mapping[str, str]) -> str | None:
    """tmux's ``set-clipboard`` for the server of ``$TMUX`` (None if tmux does not say)."""
    return _tmux_answer(env.get("TMUX", ""))


def clipboard_route(
    mode: ClipboardMode,
    env: Mapping[str, str] | None = None,
    *,
    ask_tmux: Callable[[Mapping[str, str]], str | None] = tmux_set_clipboard,
) -> ClipboardRoute:
    """Where copied text should go for the ``clipboard`` setting ``mode`` in ``env``."""
    if mode is ClipboardMode.OSC52:
        return ClipboardRoute(True, 'the config says clipboard = "osc52"')
    if mode is ClipboardMode.FILE:
        return ClipboardRoute(False, 'the config says clipboard = "file"')
    env = os.environ if env is None else env
    if env.get("TMUX"):
        setting = ask_tmux(env)
        if setting == "on":
            return ClipboardRoute(True, "tmux passes it on (set-clipboard on)")
        return ClipboardRoute(
            False,
            f"tmux drops copies from programs unless set-clipboard is on (here: "
            f"{setting or 'unknown'}); `set -s set-clipboard on` in ~/.tmux.conf fixes it",
        )
    if env.get("STY"):
        return ClipboardRoute(False, "GNU screen does not pass copies from programs on")
    term = env.get("TERM", "")
    if any(env.get(name) for name in _CAPABLE_VARIABLES) or term.startswith(_CAPABLE_TERMS):
        return ClipboardRoute(True, "this terminal takes OSC 52")
    if env.get("TERM_PROGRAM") == "Apple_Terminal":
        return ClipboardRoute(False, "Terminal.app ignores OSC 52 (iTerm2 and others take it)")
    if env.get("VTE_VERSION"):
        return ClipboardRoute(
            False, "VTE terminals (GNOME Terminal, Tilix, Terminator...) ignore OSC 52"
        )
    if term in {"linux", "dumb", ""}:
        return ClipboardRoute(False, f"this terminal ({term or 'no TERM'}) has no clipboard")
    return ClipboardRoute(True, "OSC 52 is the terminal's way (whether it arrives cannot be seen)")


def save_clip(
    store: Store, folder: Path, text: str, name: str, now: datetime, suffix: str = "txt"
) -> Path | None:
    """Write ``text`` to ``folder/<name>-<time>.<suffix>`` (0600); its path, or None (the store said why)."""
    target = folder / f"{name}-{now:%Y%m%d-%H%M%S}.{suffix}"
    return target if store.write_text(target, text) else None
