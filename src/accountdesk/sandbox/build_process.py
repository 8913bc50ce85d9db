"""A large generated answer built in a Python process of its own, piece by piece.

The embedded sandbox runs in a thread of the app: user_bulk's build (~0.3 s
of pure Python) there takes GIL turns from everything the app does while it
runs (typing an id, the transactions screen's import, the first rows of the
read it was built for). A child process builds on the other core instead;
the app's side only reads a pipe (the read lets the GIL go) and keeps the
pieces. The bytes are :func:`~.records.transactions_pieces`'s, built by the
same code; if the child cannot start or stops early, the pieces it did not
send are built here, in the caller's thread, from the same seed.
"""

from __future__ import annotations

import datetime as dt
import logging
import pickle
import subprocess
import sys
from collections.abc import Callable, Iterator
from itertools import islice
from types import SimpleNamespace

from .scenario import Scenario

__all__ = ["pieces_built_apart"]

log = logging.getLogger("accountdesk.sandbox")

#: The child: the generated user, the newest date and the pieces to skip (the
#: parent built them) on stdin, pickled by us, its parent; each piece after
#: those on stdout after its length (8 bytes, little-endian).
_CHILD = """\
import pickle, sys
from accountdesk.sandbox.records import transactions_pieces
from itertools import islice
scenario, newest, skip = pickle.load(sys.stdin.buffer)
out = sys.stdout.buffer
for piece in islice(transactions_pieces(scenario, newest), skip, None):
    out.write(len(piece).to_bytes(8, "little"))
    out.write(piece)
out.flush()
"""


def pieces_built_apart(
    scenario: Scenario,
    newest: dt.date,
    build_here: Callable[[Scenario, dt.date], Iterator[bytes]],
) -> Iterator[bytes]:
    """``build_here(scenario, newest)``'s pieces, built by a child process.

    ``build_here`` (``records.transactions_pieces``) builds what the child
    did not send: all of it if no child starts, the rest if one stops early.
    """
    # The first rows here at once: a child takes ~0.1 s to start.
    here = build_here(scenario, newest)
    first = next(here, None)
    if first is None:
        return
    yield first
    sent = 1
    try:
        with subprocess.Popen(
            [sys.executable, "-c", _CHILD],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        ) as child:
            assert child.stdin is not None and child.stdout is not None
            # What transactions_pieces reads of a generated user (a Scenario
            # holds mapping proxies, which do not pickle).
            part = SimpleNamespace(
                user_id=scenario.user_id,
                transactions_currency=scenario.transactions_currency,
                transactions=scenario.transactions,
            )
            child.stdin.write(pickle.dumps((part, newest, sent)))
            child.stdin.close()
            read = child.stdout.read
            while size := read(8):
                piece = read(int.from_bytes(size, "little")) if len(size) == 8 else b""
                if len(piece) != int.from_bytes(size, "little") or not piece:
                    break  # cut short: the rest is built here
                yield piece
                sent += 1
            else:
                if child.wait() == 0:
                    return
            child.kill()
        log.warning("the process building %s's transactions stopped early", scenario.user_id)
    except Exception:  # no child, a broken pipe: built here all the same
        log.warning("no process could build %s's transactions", scenario.user_id, exc_info=True)
    yield from islice(here, sent - 1, None)
