"""Recent user lookups, kept across runs in ``data_dir/recent.json``.

Most recent first, no duplicates, at most :data:`MAX_RECENT` entries. A
missing or damaged file is an empty history (the list is a convenience, not
a record worth crashing for).
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path

MAX_RECENT = 20
FILE_NAME = "recent.json"

log = logging.getLogger(__name__)


class RecentLookups:
    """The user ids looked up lately, persisted as a JSON list."""

    def __init__(self, data_dir: Path, limit: int = MAX_RECENT) -> None:
        self.path = data_dir / FILE_NAME
        self.limit = limit
        self._user_ids = self._load()

    def _load(self) -> list[str]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return []
        except (OSError, ValueError) as error:
            log.warning("ignoring unreadable %s: %s", self.path, error)
            return []
        if not isinstance(data, list):
            return []
        return [item for item in data if isinstance(item, str)][: self.limit]

    @property
    def user_ids(self) -> list[str]:
        return list(self._user_ids)

    def add(self, user_id: str) -> None:
        """Put ``user_id`` first and save."""
        self._user_ids = [user_id, *(u for u in self._user_ids if u != user_id)][: self.limit]
        self._save()

    def forget(self, user_id: str) -> None:
        """Drop ``user_id`` (a lookup the service says is no user)."""
        if user_id in self._user_ids:
            self._user_ids = [u for u in self._user_ids if u != user_id]
            self._save()

    def _save(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        # Write then rename, so a crash never leaves half a file behind.
        temporary = self.path.with_suffix(".tmp")
        temporary.write_text(json.dumps(self._user_ids, indent=2), encoding="utf-8")
        os.replace(temporary, self.path)
