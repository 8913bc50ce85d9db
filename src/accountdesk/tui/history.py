"""Recent user lookups, kept across runs in ``data_dir/recent.json``.

One list per service (``base_url_key``: ``"sandbox"`` or the live base URL),
since a user id on the sandbox means nothing on a real service::

    {"sandbox": ["user_good", "user_mfa"], "https://api.bank.example": ["u_1"]}

Most recent first, no duplicates, at most :data:`MAX_RECENT` entries per
service. A file from before the split (a bare JSON list) is read as the
sandbox's list. A missing or damaged file is an empty history (the list is
a convenience, not a record worth crashing for).
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path
from typing import Any

MAX_RECENT = 20
FILE_NAME = "recent.json"
#: The key a file of the old format (one list) belongs to.
LEGACY_KEY = "sandbox"

log = logging.getLogger(__name__)


class RecentLookups:
    """The user ids looked up lately on one service, persisted as JSON."""

    def __init__(
        self, data_dir: Path, base_url_key: str = LEGACY_KEY, limit: int = MAX_RECENT
    ) -> None:
        self.path = data_dir / FILE_NAME
        self.base_url_key = base_url_key
        self.limit = limit
        self._user_ids = _user_ids(self._load_all().get(base_url_key))[: self.limit]

    def _load_all(self) -> dict[str, Any]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as error:
            log.warning("ignoring unreadable %s: %s", self.path, error)
            return {}
        if isinstance(data, list):
            return {LEGACY_KEY: data}
        return data if isinstance(data, dict) else {}

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
        # Read again before writing: the other services' lists (perhaps
        # changed by another run of the app) are kept as they are.
        everything = {
            key: value for key, value in self._load_all().items() if isinstance(value, list)
        }
        everything[self.base_url_key] = self._user_ids
        self.path.parent.mkdir(parents=True, exist_ok=True)
        # Write then rename, so a crash never leaves half a file behind.
        temporary = self.path.with_suffix(".tmp")
        temporary.write_text(json.dumps(everything, indent=2), encoding="utf-8")
        os.replace(temporary, self.path)


def _user_ids(value: object) -> list[str]:
    if not isinstance(value, list):
        return []
    return [item for item in value if isinstance(item, str)]
