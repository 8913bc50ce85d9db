"""Writing the user's config file: only what they asked for, everything else kept.

Reading is ``core.settings`` (tomllib + pydantic); writing edits the
document with ``tomlkit`` so comments, key order, dates, arrays of tables and
any setting we do not know survive exactly as the user wrote them. Writes go
through the :class:`~accountdesk.core.store.Store` (atomic, locked, 0600). A
file that is not valid TOML is never rewritten (it is the user's, not ours to
set aside): the change is refused and the user told why.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from accountdesk.core.store import Store

__all__ = ["remember_credentials", "remember_theme"]


def _edit(store: Store, path: Path, keys: dict[str, str | None], profile: str | None) -> bool:
    """Set (or, for None, remove) ``keys`` in the profile's table or the top level."""
    import tomlkit
    from tomlkit.exceptions import TOMLKitError

    def change(text: str | None) -> str:
        try:
            document = tomlkit.parse(text or "")
        except TOMLKitError as error:
            raise ValueError(f"it is not valid TOML ({error}); nothing was changed") from None
        table: Any = document
        if profile:
            profiles = document.get("profiles")
            if profiles is None:
                profiles = tomlkit.table(is_super_table=True)
                document["profiles"] = profiles
            if not isinstance(profiles, dict):
                raise ValueError("[profiles] is not a table; nothing was changed")
            table = profiles.get(profile)
            if table is None:
                table = tomlkit.table()
                profiles[profile] = table
            if not isinstance(table, dict):
                raise ValueError(f"[profiles.{profile}] is not a table; nothing was changed")
        for key, value in keys.items():
            if value is None:
                table.pop(key, None)
            else:
                table[key] = value
        return tomlkit.dumps(document)

    return store.update_text(path, change)


def remember_credentials(
    store: Store,
    path: Path,
    *,
    api_key: str,
    base_url: str | None,
    profile: str | None,
    api_secret: str | None = None,
) -> bool:
    """Store the key (and the URL of a live service) the user signed in with.

    ``api_secret`` is written only when given (the user chose the file over
    the keyring); otherwise a secret left in the file from before is removed,
    so the file never holds a stale secret beside a keyring one.
    """
    keys: dict[str, str | None] = {"api_key": api_key, "api_secret": api_secret}
    if base_url:
        keys["base_url"] = base_url
    return _edit(store, path, keys, profile)


def remember_theme(store: Store, path: Path, theme: str, profile: str | None = None) -> bool:
    """Keep the theme picked in the command palette for the next run."""
    return _edit(store, path, {"theme": theme}, profile)
