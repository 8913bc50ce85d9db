"""Recent user lookups, kept across runs in ``recent.json``, per service and API key.

Each API key keeps its own file (``AppDirs.state_dir``), so people sharing a
machine account never see each other's lookups; inside it, one list per
``service_key`` (a user id on the sandbox means nothing on a real service)::

    {"sandbox": ["user_good", "user_mfa"]}

Most recent first, no duplicates, at most :data:`MAX_RECENT` per service.
Every change is a locked read-modify-write through the store, so two apps on
one data dir never lose each other's lookups. The lookups an earlier version
kept for the service (any key, ``earlier_path``) go to the first key that
signs in (:mod:`.earlier_files`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from accountdesk.core.settings.earlier_files import earlier_lookups, forget_earlier_lookups
from accountdesk.core.store import CorruptFile, Store

__all__ = ["MAX_RECENT", "RecentLookups"]

MAX_RECENT = 20
#: The service a file of the old format (one list) belongs to.
LEGACY_KEY = "sandbox"


def _document(data: Any) -> dict[str, list[str]]:
    if isinstance(data, list):
        data = {LEGACY_KEY: data}
    if not isinstance(data, dict):
        raise CorruptFile("not a recent-lookups document")
    return {
        str(key): [item for item in value if isinstance(item, str)]
        for key, value in data.items()
        if isinstance(value, list)
    }


def _empty() -> dict[str, list[str]]:
    return {}


class RecentLookups:
    """The user ids looked up lately on one service."""

    def __init__(
        self,
        store: Store,
        path: Path | None,
        service_key: str,
        limit: int = MAX_RECENT,
        *,
        earlier_path: Path | None = None,
    ) -> None:
        """``path`` None: kept in memory only (not signed in yet)."""
        self.store = store
        self.path = path
        self.service_key = service_key
        self.limit = limit
        self._user_ids: list[str] = []
        self._saved = False
        if path is not None:
            self._user_ids = store.read_json(path, _document, _empty).get(service_key, [])[:limit]
        if earlier_path is not None:
            self._take_earlier(earlier_path)

    def _take_earlier(self, earlier_path: Path) -> None:
        """The earlier version's lookups of this service: this key's now (after its own)."""
        taken = earlier_lookups(self.store, earlier_path, self.service_key)
        if not taken:
            return
        self._change(lambda ids: [*ids, *(u for u in taken if u not in ids)])
        if self.path is not None and self._saved:
            forget_earlier_lookups(self.store, earlier_path, self.service_key)

    @property
    def user_ids(self) -> list[str]:
        return list(self._user_ids)

    def add(self, user_id: str) -> None:
        """Put ``user_id`` first and save."""
        self._change(lambda ids: [user_id, *(u for u in ids if u != user_id)])

    def forget(self, user_id: str) -> None:
        """Drop ``user_id`` (a lookup the service says is no user)."""
        if user_id in self._user_ids:
            self._change(lambda ids: [u for u in ids if u != user_id])

    def _change(self, edit: Any) -> None:
        # Applied to memory first: an unwritable data dir still gives a
        # working list for this session (the store reports the failure).
        self._user_ids = edit(self._user_ids)[: self.limit]

        def change(document: dict[str, list[str]]) -> dict[str, list[str]]:
            updated = dict(document)
            updated[self.service_key] = edit(document.get(self.service_key, []))[: self.limit]
            return updated

        if self.path is None:
            self._saved = False
            return
        result = self.store.update_json(self.path, change, _document, _empty)
        self._saved = result is not None
        if result is not None:
            self._user_ids = result[self.service_key]
