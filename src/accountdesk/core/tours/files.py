"""Reading a tour file a person hands us, and the packs it names: bounded, kind first.

A tour is a few kilobytes of TOML; a path may name a folder, a device that
gives bytes for ever (``/dev/zero``) or a pipe nobody writes to. Each is
asked for what it is before it is opened, and a file over
:data:`MAX_TOUR_BYTES` is refused by its size before it is read (the pack
reader, :func:`accountdesk.sandbox.packs.reading.read_pack`, does the same for
packs, in the same words).
"""

from __future__ import annotations

import stat
from pathlib import Path

__all__ = ["MAX_TOUR_BYTES", "TourFileError", "file_kind_problem", "read_tour_text"]

#: The largest tour file read: 60 steps of the longest captions are ~60 KB.
MAX_TOUR_BYTES = 256 * 1024


class TourFileError(ValueError):
    """A tour file cannot be used; the text is one line: file, step, field, problem."""


def read_tour_text(path: Path) -> str:
    """The text of the tour file at ``path``: its kind and size asked first, then read.

    :class:`TourFileError` naming the file: no such file, a folder, a device
    or a pipe, more than :data:`MAX_TOUR_BYTES`, not UTF-8.
    """
    limit = f"a tour is at most {MAX_TOUR_BYTES // 1024} KB"
    try:
        problem = file_kind_problem(path, "a tour file", "a tour is a file")
        if problem is None and path.stat().st_size > MAX_TOUR_BYTES:
            problem = f"is {path.stat().st_size / 2**20:.1f} MB; {limit}"
        if problem is not None:
            raise TourFileError(f"{path}: {problem}")
        with path.open("rb") as stream:
            data = stream.read(MAX_TOUR_BYTES + 1)  # it may have grown since
    except OSError as error:
        raise TourFileError(f"{path}: cannot read: {error.strerror or error}") from None
    if len(data) > MAX_TOUR_BYTES:
        raise TourFileError(f"{path}: is over {MAX_TOUR_BYTES // 1024} KB; {limit}")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise TourFileError(f"{path}: not UTF-8 text") from None


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
