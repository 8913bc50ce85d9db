"""Whether a typed user id can be looked up, and why not, before anything is sent.

On the embedded sandbox the sandbox's own rule applies (1 to 64 of
``A-Z a-z 0-9 _ . -``, from the contract package). A live service decides its
own ids (``user@bank.example`` is fine there): only the client's path-safety
rules apply (not blank, not ``.``/``..``, sendable, not absurdly long).
"""

from __future__ import annotations

from accountdesk.contract.identifiers import sandbox_user_id_problem

__all__ = ["lookup_problem"]


def lookup_problem(user_id: str, *, sandbox: bool) -> str | None:
    """Why ``user_id`` cannot be looked up, in a sentence, or None."""
    if sandbox:
        return sandbox_user_id_problem(user_id)
    if not user_id:
        return "Enter a user id."
    from accountdesk.client import identifier_problem

    problem = identifier_problem("user_id", user_id)
    if problem is None:
        return None
    return problem[:1].upper() + problem[1:]
