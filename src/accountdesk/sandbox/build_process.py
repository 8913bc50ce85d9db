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

import contextlib
import dataclasses as dc
import datetime as dt
import logging
import pickle
import subprocess
import sys
from collections.abc import Callable, Iterator
from itertools import islice
from types import SimpleNamespace

from accountdesk.sandbox import generated
from accountdesk.sandbox.scenario import GeneratedTransactions, Scenario

try:
    import fcntl
except ImportError:  # Windows: the pipe stays as it is
    fcntl = None  # type: ignore[assignment]

__all__ = ["pieces_built_apart"]

log = logging.getLogger("accountdesk.sandbox")

#: The child: the generated user's id, currency and plan (its fields), the
#: newest date and the pieces to skip (the parent built them) on stdin,
#: pickled by us, its parent; each piece after those on stdout after its
#: length (8 bytes, little-endian). It runs ``generated.py`` (its path, the
#: first argument) by itself with the standard library alone (``-I -S``):
#: the package and its imports (~100 ms of the child's start, the sandbox's
#: API, pydantic) are not what a build needs.
_CHILD = """\
import importlib.util, pickle, sys
from itertools import islice
spec = importlib.util.spec_from_file_location("accountdesk_generated", sys.argv[1])
generated = importlib.util.module_from_spec(spec)
spec.loader.exec_module(generated)
user_id, currency, plan, newest, skip = pickle.load(sys.stdin.buffer)
out = sys.stdout.buffer
for piece in islice(generated.generated_pieces(user_id, currency, plan, newest), skip, None):
    out.write(len(piece).to_bytes(8, "little"))
    out.write(piece)
out.flush()
"""

#: The pipe from the child holds this much (Linux; at most pipe-max-size, 1 MiB
#: by default): with the usual 64 KiB the child waited at each ~140 KB piece
#: for the app's reading thread to get a GIL turn (user_bulk: 0.66 s instead
#: of 0.55 s beside a busy app).
PIPE_BYTES = 1024 * 1024


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
            [sys.executable, "-I", "-S", "-c", _CHILD, generated.__file__],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        ) as child:
            assert child.stdin is not None and child.stdout is not None
            _widen(child.stdout.fileno())
            # The plan's fields in a class of the standard library's: the
            # child has no accountdesk to unpickle GeneratedTransactions with.
            plan = scenario.transactions
            assert isinstance(plan, GeneratedTransactions)  # (records builds listed rows itself)
            fields = SimpleNamespace(**{f.name: getattr(plan, f.name) for f in dc.fields(plan)})
            payload = (scenario.user_id, scenario.transactions_currency, fields, newest, sent)
            child.stdin.write(pickle.dumps(payload))
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


def _widen(pipe: int) -> None:
    """Make ``pipe`` hold :data:`PIPE_BYTES` where the system lets us (Linux); else as it is."""
    setting = getattr(fcntl, "F_SETPIPE_SZ", None) if fcntl is not None else None
    if setting is None:
        return
    with contextlib.suppress(OSError):  # over pipe-max-size, or no such pipe
        fcntl.fcntl(pipe, setting, PIPE_BYTES)
