"""Load the transactions screen's modules before the first ``x`` needs them.

The screen and its table model bring NumPy: ~110 ms of imports that are
kept off the start-up path (the first frame) and would otherwise land on
the first key press that opens transactions. An account screen is where
that key is; once it has painted, a thread imports them while the person
reads the account.
"""

from __future__ import annotations

import importlib
import sys

from textual.dom import DOMNode

__all__ = ["TRANSACTIONS_SCREEN", "preload_transactions_screen"]

TRANSACTIONS_SCREEN = "accountdesk.tui.screens.transactions"


def preload_transactions_screen(node: DOMNode) -> None:
    """Import the transactions screen in a worker thread of ``node`` (once per process)."""
    if TRANSACTIONS_SCREEN in sys.modules:
        return
    node.run_worker(
        _import, thread=True, group="preload", name="preload_transactions", exit_on_error=False
    )


def _import() -> None:
    # A failure here is not reported: the import on the key press reports it.
    importlib.import_module(TRANSACTIONS_SCREEN)
