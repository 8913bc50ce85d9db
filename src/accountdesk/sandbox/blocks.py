"""The AC-108 block: a user's budget of wrong MFA answers, across all their jobs.

The budget belongs to the user, not to a job: three wrong answers in all
(or the user's own number, from a scenario pack), on any of that user's
jobs, block the user for ``block_seconds`` (or the pack's block length). Before, it
was per job, and 300 concurrent jobs gave 900 guesses at a 4-digit code.
While the block stands no answer is checked (a right one fails its job with
``AC-108`` too); when it lifts, on the sandbox clock, the budget is full
again, as it is after any right answer. Standard library only.
"""

from __future__ import annotations

import datetime as dt
import math

__all__ = ["MAX_MFA_ATTEMPTS", "MFA_ATTEMPTS", "MfaBudget"]

#: Wrong answers a user may give, over all their jobs, before the block.
MFA_ATTEMPTS = 3
#: The most a scenario pack may give (``[users.mfa] attempts``), hence answer.
MAX_MFA_ATTEMPTS = 1_000


class MfaBudget:
    """One user's wrong MFA answers left, and the block when they run out.

    ``attempts`` is the user's budget (a scenario pack may set it; 3 for the
    shipped users).
    """

    __slots__ = ("attempts", "blocked_until", "remaining")

    def __init__(self, attempts: int = MFA_ATTEMPTS) -> None:
        self.attempts = attempts
        self.remaining = attempts
        self.blocked_until: dt.datetime | None = None

    def blocked_at(self, now: dt.datetime) -> dt.datetime | None:
        """When the block standing at ``now`` lifts, or None (lifts a block that is due)."""
        if self.blocked_until is not None and now >= self.blocked_until:
            self.blocked_until = None
            self.remaining = self.attempts
        return self.blocked_until

    def attempts_at(self, now: dt.datetime) -> int:
        """Wrong answers left at ``now``: none while blocked."""
        return 0 if self.blocked_at(now) is not None else self.remaining

    def retry_after(self, now: dt.datetime) -> int:
        """Whole seconds, rounded up, until the block lifts (0 when there is none)."""
        until = self.blocked_at(now)
        return 0 if until is None else max(1, math.ceil((until - now).total_seconds()))

    def spend(self, now: dt.datetime, block: dt.timedelta) -> dt.datetime | None:
        """Count one wrong answer; the end of the block when it used the budget up."""
        self.remaining -= 1
        if self.remaining > 0:
            return None
        self.remaining = 0
        self.blocked_until = now + block
        return self.blocked_until

    def refill(self) -> None:
        """A right answer: the count starts again."""
        self.remaining = self.attempts

    def __repr__(self) -> str:
        return f"MfaBudget(remaining={self.remaining}, blocked_until={self.blocked_until})"
