"""The user id rule, checked before anything is sent (the sandbox's rule, from the contract package)."""

from __future__ import annotations

from accountdesk.contract.identifiers import SANDBOX_USER_ID_MAX_LENGTH as MAX_LENGTH
from accountdesk.contract.identifiers import sandbox_user_id_problem as user_id_problem

__all__ = ["MAX_LENGTH", "user_id_problem"]
