"""Reading a tour file a person hands us, and the packs it names: bounded, kind first.

A tour is a few kilobytes of TOML; a path may name a folder, a device that
gives bytes for ever (``/dev/zero``) or a pipe nobody writes to. Each is
asked for what it is before it is opened, and a file over
:data:`MAX_TOUR_BYTES` is refused by its size before it is read (the pack
reader, :func:`accountdesk.sandbox.packs.read_pack`, does the same for
packs, in the same words).
"""

from __future__ import annotations

import stat
from pathlib import Path

__all__ = ["MAX_TOUR_BYTES", "file_kind_problem"]

#: The largest tour file read: 60 steps of the longest captions are ~60 KB.
MAX_TOUR_BYTES = 256 * 1024


def file_kind_problem(path: Path, what: str, instead: str) -> str | None:
    """Why ``path`` cannot be read as ``what`` (a folder, a device, a pipe), or None.

    FileNotFoundError when there is nothing there; other OSErrors as raised.
    """
    mode = path.stat().st_mode
    if stat.S_ISDIR(mode):
        return f"is a folder, not {what}"
    if not stat.S_ISREG(mode):
        return f"is not a regular file (a device, a pipe or a socket); {instead}"
    return None
