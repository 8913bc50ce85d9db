"""Get ready for the first ``x`` on an account: the screen's modules, the sandbox's answer.

The screen and its table model bring NumPy: ~110 ms of imports that are
kept off the start-up path (the first frame) and would otherwise land on
the first key press that opens transactions. The lookup screen (where a
person is once signed in) starts a thread importing them, once painted:
started from the account screen, a person quick on ``x`` found the import
under way (beside the sandbox's build of the answer, at a share of the GIL)
and waited for it, 280-500 ms of a whole process's 800 before the read even
started. The account screen starts it too (if not yet). The lookup screen
also has the app parse the transactions screen's stylesheet (on the loop:
Textual parses a screen's CSS, and the whole stylesheet again, on its first
push: ~120 ms of the ``x`` press, two thirds of it). In embedded mode the
sandbox also builds the user's transactions answer then (user_bulk: ~0.4 s
of pure Python), so the first read does not compete with that build for the
GIL; the lookup screen has it build every large generated answer (user_bulk)
before any account is opened: started at the account screen, the build was
still running when a person quick on ``x`` pressed it 50-100 ms later, and
took GIL turns from the read's first rows (see ``engine.BUILT_AHEAD_ROWS``).
"""

from __future__ import annotations

import importlib
import sys
from typing import TYPE_CHECKING

from textual.dom import DOMNode

__all__ = ["TRANSACTIONS_SCREEN", "preload_transactions_screen"]

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
    if TRANSACTIONS_SCREEN in sys.modules:
        return
    node.run_worker(
        _import, thread=True, group="preload", name="preload_transactions", exit_on_error=False
    )


def _load_stylesheet(node: DOMNode) -> None:
    """What Textual's first push of the screen would do (``App._load_screen_css``), now."""
    from accountdesk.tui.resources import styles_path

    app, path = node.app, styles_path("transactions.tcss")
    if not app.stylesheet.has_source(str(path), ""):
        app.stylesheet.read(path)
        app.stylesheet.reparse()
        app.stylesheet.update(app)


def _import() -> None:
    # A failure here is not reported: the import on the key press reports it.
    importlib.import_module(TRANSACTIONS_SCREEN)
