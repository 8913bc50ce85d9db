"""Case files: a recorded user (or an error from the log) written as a scenario pack, atomically, 0600.

:func:`case_pack_text` makes the text of a new pack or of an existing pack
with one more user (``--append``: the user is added at the end, the rest of
the file, comments included, is kept as it was). The text is checked as the
sandbox will read it before anything is written (:func:`check_pack`, through
the connection: the one way the core reaches the sandbox), so a pack the
recorder writes always loads. The file goes through the :class:`~.store.Store`.

The header says what was redacted, from which service (its host only) and
when; nothing in a case file is a token, a key or a secret (the recorder
never sees the secret: it reads through a signed-in client).
"""

from __future__ import annotations

import datetime as dt
import re
import stat
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from accountdesk.core.cases.pack_toml import pack_text

__all__ = [
    "CaseFileError",
    "case_pack_text",
    "check_pack",
    "next_case_number",
    "scenarios_folder",
]

_REDACTED_WORDS = {
    "account_number": "account number",
    "routing_number": "routing number",
    "phone_numbers": "phone numbers",
    "user_id": "the user id",
    "emails_and_numbers_in_the_message": "any e-mail address or number of 7 digits or more "
    "in the message",
}
_CASE_ID = re.compile(r'^\s*id\s*=\s*"case_(\d{1,9})"', re.MULTILINE)
#: The same in a file's bytes, found from the literal ``case_`` (a fast scan of a 13 MB
#: statement: ~5 ms, where the line-anchored pattern takes ~70 ms), then its line checked.
_CASE_NUMBER_BYTES = re.compile(rb'case_(\d{1,9})"')
_ID_KEY_BYTES = re.compile(rb'[ \t]*id[ \t]*=[ \t]*"')
#: Packs looked at for the ids they hold: a pack's own bounds (size, files a folder).
_MAX_PACK_BYTES = 16 * 2**20
_MAX_PACKS_LOOKED_AT = 1_000


class CaseFileError(Exception):
    """The case file cannot be written as asked; the text says why (one line, or one per problem)."""


def scenarios_folder(data_dir: Path) -> Path:
    """Where the dashboard saves scenario packs: ``scenarios/`` in the data folder."""
    return data_dir / "scenarios"


def next_case_number(
    existing: str | None, folders: Iterable[Path] = (), *, replacing: Path | None = None
) -> int:
    """One more than the highest ``case_<n>`` in ``existing`` and the packs in ``folders`` (or 1).

    So cases recorded into one folder (the dashboard's ``scenarios/``, or
    files side by side) can be served together: no two are ``case_1``.
    ``replacing`` is a file about to be overwritten: its ids are not taken.
    """
    taken = [int(n) for n in _CASE_ID.findall(existing or "")]
    skip = _identity(replacing) if replacing is not None else None
    for folder in dict.fromkeys(folders):
        taken += _case_numbers_in(folder, skip)
    return max(taken, default=0) + 1


def _identity(path: Path) -> tuple[int, int] | None:
    try:
        found = path.stat()
    except OSError:
        return None
    return (found.st_dev, found.st_ino)


def _case_numbers_in(folder: Path, skip: tuple[int, int] | None) -> list[int]:
    """The ``case_<n>`` ids of the packs in ``folder``; what cannot be read is passed over."""
    try:
        paths = sorted(folder.glob("*.toml"))[:_MAX_PACKS_LOOKED_AT]
    except OSError:
        return []
    numbers: list[int] = []
    for path in paths:
        try:
            found = path.stat()
            # A regular file of a pack's size: never a FIFO (a read would wait) or /dev/zero.
            if not stat.S_ISREG(found.st_mode) or found.st_size > _MAX_PACK_BYTES:
                continue
            if (found.st_dev, found.st_ino) == skip:
                continue
            data = path.read_bytes()
        except OSError:
            continue
        numbers += _case_numbers_of(data)
    return numbers


def _case_numbers_of(data: bytes) -> list[int]:
    numbers = []
    for found in _CASE_NUMBER_BYTES.finditer(data):
        line = data.rfind(b"\n", 0, found.start()) + 1
        if _ID_KEY_BYTES.fullmatch(data, line, found.start()):
            numbers.append(int(found.group(1)))
    return numbers


def _header(user: dict[str, Any]) -> list[str]:
    recorded = user.get("recorded") or {}
    at = recorded.get("at")
    when = at.strftime("%Y-%m-%d %H:%M:%S UTC") if isinstance(at, dt.datetime) else "unknown"
    redacted = recorded.get("redacted") or []
    lines = [
        (
            f"{user['id']}: recorded from {recorded.get('service', 'a service')} at {when} "
            f"by {recorded.get('by', 'accountdesk')}."
        ),
    ]
    if redacted:
        words = ", ".join(_REDACTED_WORDS.get(name, name) for name in redacted)
        lines.append(f"Redacted (replaced by fakes of the same shape): {words}.")
    else:
        lines.append("NOT redacted: this file holds the customer's data as the service sent it.")
    lines.append("No token, key or secret is in this file.")
    lines += [f"Note: {note}" for note in recorded.get("notes") or ()]
    return lines


def case_pack_text(
    user: dict[str, Any], *, existing: str | None = None, title: str | None = None
) -> str:
    """A pack holding ``user``: a new one (``existing`` None), or ``existing`` with it added."""
    if existing is None:
        header = [
            "accountdesk scenario pack (docs/trainer/scenario-packs.md). Serve it with:",
            "  accountdesk sandbox --scenarios THIS_FILE",
            "",
            *_header(user),
        ]
        document: dict[str, Any] = {"title": title} if title else {}
        document["users"] = [user]
        return pack_text(document, header)
    taken = re.search(rf'^\s*id\s*=\s*"{re.escape(user["id"])}"', existing, re.MULTILINE)
    if taken:
        raise CaseFileError(f"the pack already has a user {user['id']}; record it --as another id")
    added = pack_text({"users": [user]}, _header(user))
    return existing.rstrip("\n") + "\n\n" + added


def check_pack(text: str, source: str) -> None:
    """Raise :class:`CaseFileError` (one line per problem) unless the sandbox can read ``text``."""
    from accountdesk.core.connection import scenario_pack_problems

    problems = scenario_pack_problems(text, source)
    if problems:
        raise CaseFileError("\n".join(problems))
