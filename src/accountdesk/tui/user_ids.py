"""The user id rule, checked before anything is sent.

Same rule as the sandbox (README, "Scenario users"): 1 to 64 of
``A-Z a-z 0-9 _ . -``, but not ``.`` or ``..``. Checking it in the UI lets
the lookup screen say why an id is refused instead of sending it.
"""

from __future__ import annotations

import re

MAX_LENGTH = 64
_ALLOWED = re.compile(r"[A-Za-z0-9_.\-]+")
_BAD_CHARACTER = re.compile(r"[^A-Za-z0-9_.\-]")


def user_id_problem(user_id: str) -> str | None:
    """Why ``user_id`` cannot be looked up, or None when it is fine."""
    if not user_id:
        return "Enter a user id."
    if not user_id.strip():
        return "A user id cannot be blank."
    if len(user_id) > MAX_LENGTH:
        return f"A user id has at most {MAX_LENGTH} characters (this one has {len(user_id)})."
    if user_id in {".", ".."}:
        return f"{user_id!r} is not a user id."
    if not _ALLOWED.fullmatch(user_id):
        bad = _BAD_CHARACTER.search(user_id)
        shown = repr(bad.group()) if bad else "a character"
        return f"{shown} is not allowed: use letters, digits, '_', '.' and '-'."
    return None
