"""The job vocabulary of the wire format: kinds and statuses.

The contract names the three kinds of job but shows no payloads; these values
are the sandbox's wire format (docs/developer/sandbox.md). Declared here, once, because both the client's
models and the sandbox's engine speak them and neither may import the other.
"""

from __future__ import annotations

from enum import StrEnum


class JobKind(StrEnum):
    """What a job does."""

    BALANCE_REFRESH = "balance_refresh"
    IDENTITY = "identity"
    TRANSACTIONS = "transactions"


class JobStatus(StrEnum):
    """Where a job stands."""

    PENDING = "pending"
    IN_PROGRESS = "in_progress"
    MFA_REQUIRED = "mfa_required"
    COMPLETED = "completed"
    FAILED = "failed"


#: A job in one of these has ended; polling it again changes nothing.
TERMINAL_STATUSES = frozenset({JobStatus.COMPLETED, JobStatus.FAILED})
