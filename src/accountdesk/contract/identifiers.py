"""The sandbox's rule for user ids, written once for the sandbox and the dashboard.

The contract shows no syntax for ``user_id``; the sandbox decides one (docs/developer/sandbox.md,
"Scenario users"): 1 to 64 of ``A-Z a-z 0-9 _ . -``, but not ``.`` or ``..``.
It is the sandbox's rule, not the service's: on a live service only the
client's path-safety rules apply (``user@bank.example`` must be accepted
there). It lives in the contract package because both the sandbox (which
enforces it) and the dashboard (which explains it before sending) read it,
and neither may import the other.
"""

from __future__ import annotations

import re

__all__ = ["SANDBOX_USER_ID_MAX_LENGTH", "is_sandbox_user_id", "sandbox_user_id_problem"]

SANDBOX_USER_ID_MAX_LENGTH = 64
_ALLOWED = re.compile(r"[A-Za-z0-9_.\-]+")
_BAD_CHARACTER = re.compile(r"[^A-Za-z0-9_.\-]")
_DOT_SEGMENTS = frozenset({".", ".."})


def sandbox_user_id_problem(user_id: str) -> str | None:
    """Why ``user_id`` breaks the sandbox's rule, in a sentence, or None when it is fine."""
    if not user_id:
        return "Enter a user id."
    if not user_id.strip():
        return "A user id cannot be blank."
    if len(user_id) > SANDBOX_USER_ID_MAX_LENGTH:
        return (
            f"A user id has at most {SANDBOX_USER_ID_MAX_LENGTH} characters "
            f"(this one has {len(user_id)})."
        )
    if user_id in _DOT_SEGMENTS:
        return f"{user_id!r} is not a user id."
    if not _ALLOWED.fullmatch(user_id):
        bad = _BAD_CHARACTER.search(user_id)
        shown = repr(bad.group()) if bad else "a character"
        return f"{shown} is not allowed: use letters, digits, '_', '.' and '-'."
    return None


def is_sandbox_user_id(user_id: str) -> bool:
    """True when ``user_id`` follows the sandbox's rule."""
    return sandbox_user_id_problem(user_id) is None
