"""Get ready for the first ``x`` on an account: the screen's modules, the sandbox's answer.

The screen and its table model bring NumPy: ~110 ms of imports that are
kept off the start-up path (the first frame) and would otherwise land on
the first key press that opens transactions. The sign-in screen starts a
thread importing them once its first frame is on the terminal (after the
embedded sandbox is built, not beside it), with a short GIL switch
interval: beside a loop busy signing in and looking up, each file the
import read cost it a whole 5 ms interval, and a person quick on ``x``
found NumPy's import still under way (0.9-1.4 s instead of 0.15 s) and
waited for it. The lookup and account screens start it too (if not yet).
The lookup screen also has the app parse the transactions screen's
stylesheet (on the loop: Textual parses a screen's CSS, and the whole
stylesheet again, on its first push: ~120 ms of the ``x`` press, two thirds
of it). In embedded mode the lookup screen has the sandbox build every
large generated answer (user_bulk) before any account is opened, in a
process of its own: started at the account screen, in a thread, the build
was still running when a person quick on ``x`` pressed it 50-100 ms later,
and took GIL turns from the read's first rows (see
``engine.BUILT_AHEAD_ROWS``); the account screen has the opened user's
answer built too, if not yet.
"""

from __future__ import annotations

import importlib
import sys
import threading
from typing import TYPE_CHECKING

from textual.dom import DOMNode

__all__ = ["TRANSACTIONS_SCREEN", "preload_transactions_modules", "preload_transactions_screen"]

if TYPE_CHECKING:
    from accountdesk.core.desk import Desk

TRANSACTIONS_SCREEN = "accountdesk.tui.screens.transactions"


def preload_transactions_screen(
    node: DOMNode, desk: Desk | None = None, user_id: str | None = None
) -> None:
    """Import the transactions screen in a worker thread of ``node`` (once per process).

    With ``desk`` and ``user_id`` (an account shown): the desk's embedded sandbox (if it is one)
    builds ``user_id``'s transactions too, unless they are read already; with
    ``desk`` alone (the lookup screen): every large generated answer.
    """
    if desk is not None:
        node.run_worker(
            desk.prepare_transactions(user_id),
            group="preload",
            name="prepare_transactions",
            exit_on_error=False,
        )
    _load_stylesheet(node)
    preload_transactions_modules(node)


def preload_transactions_modules(node: DOMNode) -> None:
    """Import the transactions screen's modules in a worker thread of ``node`` (once)."""
    if TRANSACTIONS_SCREEN in sys.modules:
        return
    node.run_worker(
        _import, thread=True, group="preload", name="preload_transactions", exit_on_error=False
    )


def _load_stylesheet(node: DOMNode) -> None:
    """What Textual's first push of the screen would do (:mod:`.seams.stylesheet`), now."""
    from accountdesk.tui.resources import styles_path
    from accountdesk.tui.seams.stylesheet import load_screen_css

    load_screen_css(node.app, styles_path("transactions.tcss"))


#: The GIL switch interval while the import runs (Python's default: 5 ms).
IMPORT_SWITCH_INTERVAL = 0.0005


_IMPORTING = threading.Lock()


def _import() -> None:
    # An import reads hundreds of files; each read gives up the GIL, and
    # with the loop busy (a sign-in, a lookup) getting it back took a whole
    # switch interval: NumPy's 150 ms import took 0.9-1.4 s beside the
    # screens a quick person opened. A short interval for its duration.
    # One at a time (the sign-in and lookup screens may both start one), so
    # the interval put back is the one found before either.
    with _IMPORTING:
        if TRANSACTIONS_SCREEN in sys.modules:
            return
        interval = sys.getswitchinterval()
        sys.setswitchinterval(IMPORT_SWITCH_INTERVAL)
        try:
            # A failure here is not reported: the import on the key press reports it.
            importlib.import_module(TRANSACTIONS_SCREEN)
        finally:
            sys.setswitchinterval(interval)
