"""Keep the cyclic garbage collector out of bulk parsing.

Building 100,000 records allocates millions of objects, none of them
garbage; each young-generation collection walks them again. Pausing the
collector for the parse is about a third of its time. Threads share the
collector, so pauses are counted: the first one in turns it off (if it was
on), the last one out turns it back on.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["gc_paused"]


class _State:
    lock = threading.Lock()
    pauses = 0
    was_enabled = False


@contextmanager
def gc_paused() -> Iterator[None]:
    """No automatic garbage collection inside the block (re-entrant, thread-safe)."""
    with _State.lock:
        if _State.pauses == 0:
            _State.was_enabled = gc.isenabled()
            gc.disable()
        _State.pauses += 1
    try:
        yield
    finally:
        with _State.lock:
            _State.pauses -= 1
            if _State.pauses == 0 and _State.was_enabled:
                gc.enable()
