"""Which embedded sandbox a job was started on, and whether that sandbox still runs.

The embedded sandbox lives in its app's process and is new every run. Two
windows on one data folder and one key share a jobs file (saving adopts the
other's jobs: right for a live service or a sandbox served over HTTP, where
both poll the same world), but each has a sandbox of its own: polling the
other window's job against ours is told AC-109 and would mark it gone while
that window still polls it.

So each embedded sandbox gets an id (random, per build) and holds a lock,
``<data>/sandboxes/<id>.lock``, while it runs. A job is stamped with the id
of the sandbox it was started on; another window's job whose sandbox still
holds its lock is shown, not polled. Once that window is closed (or
crashed: the system releases its lock), the job is polled as an earlier
run's job is, and found gone.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Protocol

__all__ = ["SandboxLocks", "valid_sandbox_id"]

log = logging.getLogger(__name__)

_ID = re.compile(r"[0-9a-f]{16}")

#: How long a look at another sandbox's lock holds (the poller asks every tick).
ALIVE_FOR = 5.0


def valid_sandbox_id(value: Any) -> str | None:
    """``value`` if it is a sandbox id as we write them (never a path), else None."""
    return value if isinstance(value, str) and _ID.fullmatch(value) else None


class _Stamped(Protocol):
    """What :meth:`SandboxLocks.mark_elsewhere` reads and sets of a tracked job."""

    sandbox: str | None
    gone: bool
    elsewhere: bool


class SandboxLocks:
    """The embedded sandbox this app runs now (:attr:`current`) and a look at the others'."""

    def __init__(self, folder: Path | None) -> None:
        """``folder`` None: no locks (nothing is shared; every job is ours)."""
        self.folder = folder
        #: The id of the sandbox this app runs now, None when it runs none.
        self.current: str | None = None
        self._lock: Any = None
        self._seen: dict[str, tuple[float, bool]] = {}

    def start(self) -> str:
        """A new sandbox runs: its id, its lock held (the last one's released)."""
        import secrets

        self.stop()
        self.current = secrets.token_hex(8)
        if self.folder is not None:
            from filelock import FileLock, Timeout

            try:
                self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
                lock = FileLock(self.folder / f"{self.current}.lock", mode=0o600)
                lock.acquire(timeout=0)
                self._lock = lock
            except (OSError, Timeout) as error:
                # Only another window's view of our jobs suffers: it finds them gone.
                log.warning("the embedded sandbox's lock could not be taken: %s", error)
        return self.current

    def stop(self) -> None:
        """Our sandbox stopped: its lock released and its file removed."""
        lock, self._lock, self.current = self._lock, None, None
        if lock is not None:
            lock.release()
            Path(lock.lock_file).unlink(missing_ok=True)

    def alive(self, sandbox_id: str) -> bool:
        """Whether ``sandbox_id`` runs now: ours, or another app's holding its lock."""
        if sandbox_id == self.current:
            return True
        if self.folder is None or valid_sandbox_id(sandbox_id) is None:
            return False
        now = time.monotonic()
        seen = self._seen.get(sandbox_id)
        if seen is not None and now - seen[0] < ALIVE_FOR:
            return seen[1]
        alive = self._held(self.folder / f"{sandbox_id}.lock")
        self._seen[sandbox_id] = (now, alive)
        return alive

    def mark_elsewhere(self, jobs: Iterable[_Stamped]) -> None:
        """Mark each of ``jobs`` started on another app's sandbox that still runs."""
        for job in jobs:
            job.elsewhere = (
                job.sandbox is not None
                and job.sandbox != self.current
                and not job.gone
                and self.alive(job.sandbox)
            )

    @staticmethod
    def _held(path: Path) -> bool:
        if not path.exists():
            return False
        from filelock import FileLock, Timeout

        lock = FileLock(path, mode=0o600)
        try:
            lock.acquire(timeout=0)
        except Timeout:
            return True
        except OSError:
            return False  # cannot tell: polled, as an earlier run's job is
        lock.release()
        path.unlink(missing_ok=True)  # a window that ended without removing it
        return False
