"""The one way accountdesk writes a file: atomic, locked, owner-only, never lost.

Every file we keep (jobs, recent lookups, the config when the user asks us
to remember something, CSV exports, screenshots) goes through a
:class:`Store`, so they all follow one policy:

- **Atomic**: written to a uniquely named temporary file beside the target,
  flushed to disk, then renamed over it, so a crash or a second process never
  sees half a file (a fixed temporary name let two processes tear it).
- **Locked**: a read-modify-write (:meth:`Store.update_json`,
  :meth:`Store.update_text`) holds a file lock across processes, so two apps
  on one data dir never lose each other's changes.
- **Owner-only**: files and the folders we create are mode 0600 / 0700; they
  may hold credentials or account data.
- **Never crash, never lose the user's file**: a failure is logged and
  reported through ``on_problem`` (the app shows it), and the caller gets a
  default or ``None`` back. A file we cannot *decode* (not UTF-8, not JSON, not
  our shape) is set aside with a timestamp (``jobs.json.unreadable-20261120T093000Z``)
  before we start afresh; it is never overwritten. A file we cannot *read*
  (permissions) is left alone.

Standard library only, plus ``filelock`` imported when a lock is first taken
(it is not needed to paint the first frame).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import logging
import os
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, TypeVar

__all__ = ["FILE_MODE", "CorruptFile", "Store", "StoreProblem"]

log = logging.getLogger(__name__)

T = TypeVar("T")
R = TypeVar("R")

FILE_MODE = 0o600
DIR_MODE = 0o700
#: Seconds to wait for another process's lock before giving up (and saying so).
LOCK_TIMEOUT = 5.0


class CorruptFile(ValueError):
    """Raised by a ``validate`` callable: the file decodes but is not in our shape."""


@dataclass(frozen=True, slots=True)
class StoreProblem:
    """A file operation that failed; ``sentence`` is what the user is told."""

    path: Path
    action: str  # "read", "save", "lock"
    reason: str
    set_aside: Path | None = None

    @property
    def sentence(self) -> str:
        if self.set_aside is not None:
            return (
                f"{self.path.name} could not be read ({self.reason}); it was moved to "
                f"{self.set_aside.name} and a new one started."
            )
        return f"Could not {self.action} {self.path}: {self.reason}."


def _reason(error: BaseException) -> str:
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    if isinstance(error, UnicodeDecodeError):
        return "not UTF-8 text"
    import json  # only a failure needs it

    if isinstance(error, json.JSONDecodeError):
        return f"not JSON (line {error.lineno})"
    return str(error) or type(error).__name__


class Store:
    """File operations with one policy (see the module docstring).

    ``on_problem`` is called with every :class:`StoreProblem` (after it is
    logged); the app turns it into a toast. ``now`` stamps set-aside files.
    """

    def __init__(
        self,
        on_problem: Callable[[StoreProblem], None] | None = None,
        *,
        lock_timeout: float = LOCK_TIMEOUT,
        now: Callable[[], dt.datetime] | None = None,
    ) -> None:
        self.on_problem = on_problem
        self.lock_timeout = lock_timeout
        self._now = now or (lambda: dt.datetime.now(dt.UTC))

    # -- reading -------------------------------------------------------------

    def read_json(self, path: Path, validate: Callable[[Any], T], default: Callable[[], T]) -> T:
        """The file's content through ``validate``; ``default()`` when missing or unusable.

        ``validate`` raises :class:`CorruptFile` (or ``ValueError``/``TypeError``)
        for a document that is not in our shape: the file is then set aside.
        """
        try:
            return self._load_json(path, validate, default)
        except OSError as error:
            self._report(StoreProblem(path, "read", _reason(error)))
            return default()

    def _load_json(self, path: Path, validate: Callable[[Any], T], default: Callable[[], T]) -> T:
        """Like :meth:`read_json` but lets an OSError through (the caller holds a lock)."""
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            return default()
        except IsADirectoryError as error:
            # Not ours to move: a folder where our file should be.
            raise OSError(error.errno, "it is a folder, not a file") from None
        import json  # on the first read, not with the start-up's imports (issue 16)

        try:
            return validate(json.loads(data.decode("utf-8")))
        except (ValueError, TypeError, KeyError, RecursionError) as error:
            aside = self._set_aside(path)
            self._report(StoreProblem(path, "read", _reason(error), set_aside=aside))
            return default()

    # -- writing -------------------------------------------------------------

    def write_text(self, path: Path, text: str) -> bool:
        """Replace ``path`` with ``text`` atomically (mode 0600); False on failure."""
        return self.write_stream(path, lambda stream: stream.write(text)) is not None

    def write_json(self, path: Path, document: Any) -> bool:
        import json

        return self.write_text(path, json.dumps(document, indent=1, ensure_ascii=False) + "\n")

    def write_stream(
        self, path: Path, write: Callable[[IO[str]], R], *, newline: str | None = None
    ) -> R | None:
        """Write ``path`` atomically through ``write(stream)``; its result, or None on failure.

        For large files (CSV exports): the content is streamed to the
        temporary file, never held whole in memory.
        """
        try:
            return self._write(path, write, newline)
        except OSError as error:
            self._report(StoreProblem(path, "save", _reason(error)))
            return None

    def _write(self, path: Path, write: Callable[[IO[str]], R], newline: str | None) -> R:
        self._make_dir(path.parent)
        # A unique temporary name: two writers never share (and tear) one file.
        handle, temporary = tempfile.mkstemp(
            dir=path.parent, prefix=f".{path.name}.", suffix=".tmp"
        )
        try:
            os.fchmod(handle, FILE_MODE)
            with os.fdopen(handle, "w", encoding="utf-8", newline=newline) as stream:
                result = write(stream)
                stream.flush()
                os.fsync(stream.fileno())
            os.replace(temporary, path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
        return result

    # -- read-modify-write under a lock ----------------------------------------

    def update_json(
        self,
        path: Path,
        change: Callable[[T], T],
        validate: Callable[[Any], T],
        default: Callable[[], T],
    ) -> T | None:
        """Read, ``change`` and write back ``path`` holding its lock; the new content or None.

        Another process's changes made since we last read are in what
        ``change`` receives, so nothing either of us wrote is lost.
        """
        import json

        try:
            with self.locked(path):
                current = self._load_json(path, validate, default)
                updated = change(current)
                text = json.dumps(updated, indent=1, ensure_ascii=False) + "\n"
                self._write(path, lambda stream: stream.write(text), None)
                return updated
        except OSError as error:
            self._report(StoreProblem(path, "save", _reason(error)))
            return None

    def update_text(self, path: Path, change: Callable[[str | None], str]) -> bool:
        """Read ``path`` as text (None when missing), ``change`` it and write it back, locked.

        ``change`` may raise ``ValueError`` to refuse (the file is then left
        exactly as it was and the error reported): used for the user's own
        config file, which we never set aside.
        """
        try:
            with self.locked(path):
                try:
                    current: str | None = path.read_bytes().decode("utf-8")
                except FileNotFoundError:
                    current = None
                updated = change(current)
                self._write(path, lambda stream: stream.write(updated), None)
                return True
        except (OSError, ValueError) as error:
            self._report(StoreProblem(path, "save", _reason(error)))
            return False

    @contextlib.contextmanager
    def locked(self, path: Path) -> Iterator[None]:
        """Hold ``path``'s lock (``<path>.lock``) across processes; raises OSError on time-out."""
        from filelock import FileLock, Timeout

        self._make_dir(path.parent)
        lock = FileLock(
            path.with_name(path.name + ".lock"), timeout=self.lock_timeout, mode=FILE_MODE
        )
        try:
            with lock:
                yield
        except Timeout:
            raise OSError(
                0, f"another accountdesk held its lock for over {self.lock_timeout:g} s"
            ) from None

    # -- helpers ---------------------------------------------------------------

    @staticmethod
    def _make_dir(folder: Path) -> None:
        folder.mkdir(mode=DIR_MODE, parents=True, exist_ok=True)

    def _set_aside(self, path: Path) -> Path | None:
        """Move an undecodable file out of the way under a unique, timestamped name."""
        stamp = self._now().strftime("%Y%m%dT%H%M%SZ")
        for attempt in range(100):
            suffix = f".unreadable-{stamp}" + (f"-{attempt}" if attempt else "")
            target = path.with_name(path.name + suffix)
            try:
                # link + unlink, not rename: rename would silently replace an
                # earlier set-aside file of the same second.
                os.link(path, target)
            except FileExistsError:
                continue
            except OSError as error:
                log.warning("cannot set %s aside: %s", path, error)
                return None
            path.unlink(missing_ok=True)
            return target
        return None

    def _report(self, problem: StoreProblem) -> None:
        log.warning("%s", problem.sentence)
        if self.on_problem is not None:
            self.on_problem(problem)
