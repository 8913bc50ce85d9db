"""Async, typed client of the Account Data Service (httpx + pydantic v2).

Imports neither Textual nor any web framework, so it can be used on its own::

    from accountdesk.client import AccountDataClient, ApiError

    async with AccountDataClient(base_url, api_key, api_secret) as client:
        try:
            job = await client.refresh_balance("user_good")
        except ApiError as err:
            print(err.code, err.message)

Every failure raises an :class:`AccountDataError`: :class:`ApiError` (one
subclass per ``AC-nnn`` code) when the service answered with its error
envelope, :class:`MalformedResponseError` when the answer is not in the
contract's shape, :class:`TransportError` when there was no answer,
:class:`InvalidIdentifierError` when a path parameter was refused
client-side. Attach :class:`RedactingFilter` to any log handler that may see
client records.
"""

from __future__ import annotations

from ._backoff import MAX_RETRY_AFTER, exponential_backoff, parse_retry_after
from ._columns import TransactionColumns
from ._paths import identifier_problem
from ._redact import (
    REDACTED,
    RedactingFilter,
    SecretRegistry,
    live_registries,
    redact,
    register_secret,
)
from ._retry import RetryPolicy
from ._sandbox import SandboxCatalogue, SandboxControl, SandboxCredential, ScenarioUser
from ._sanitise import sanitise_text
from ._urls import normalise_base_url
from ._wire import ResponseTooLargeError
from .client import AccountDataClient
from .errors import (
    ERROR_CLASSES,
    AccountBlockedError,
    AccountDataError,
    ApiError,
    BalanceUnavailableForManualUserError,
    FiConnectionError,
    FiDataIncompleteError,
    FiSharingPausedError,
    IdentityUnavailableForManualUserError,
    IdentityVerificationFailedError,
    InvalidBaseUrlError,
    InvalidCredentialsError,
    InvalidIdentifierError,
    InvalidRequestError,
    JobConflictError,
    JobNotFoundError,
    JobWatchTimeout,
    MalformedResponseError,
    MfaSessionExpiredError,
    NotAuthorizedError,
    RefreshUnavailableForManualUserError,
    TransactionDataUnavailableForManualUserError,
    TransactionJobsUnavailableForManualUserError,
    TransportError,
    UserNotFoundError,
    error_class_for,
)
from .models import (
    TERMINAL_STATUSES,
    Account,
    Address,
    Balance,
    Identity,
    Job,
    JobError,
    JobKind,
    JobStatus,
    MfaChallenge,
    TokenGrant,
    Transaction,
    Transactions,
)

__all__ = [
    "ERROR_CLASSES",
    "MAX_RETRY_AFTER",
    "REDACTED",
    "TERMINAL_STATUSES",
    "Account",
    "AccountBlockedError",
    "AccountDataClient",
    "AccountDataError",
    "Address",
    "ApiError",
    "Balance",
    "BalanceUnavailableForManualUserError",
    "FiConnectionError",
    "FiDataIncompleteError",
    "FiSharingPausedError",
    "Identity",
    "IdentityUnavailableForManualUserError",
    "IdentityVerificationFailedError",
    "InvalidBaseUrlError",
    "InvalidCredentialsError",
    "InvalidIdentifierError",
    "InvalidRequestError",
    "Job",
    "JobConflictError",
    "JobError",
    "JobKind",
    "JobNotFoundError",
    "JobStatus",
    "JobWatchTimeout",
    "MalformedResponseError",
    "MfaChallenge",
    "MfaSessionExpiredError",
    "NotAuthorizedError",
    "RedactingFilter",
    "RefreshUnavailableForManualUserError",
    "ResponseTooLargeError",
    "RetryPolicy",
    "SandboxCatalogue",
    "SandboxControl",
    "SandboxCredential",
    "ScenarioUser",
    "SecretRegistry",
    "TokenGrant",
    "Transaction",
    "TransactionColumns",
    "TransactionDataUnavailableForManualUserError",
    "TransactionJobsUnavailableForManualUserError",
    "Transactions",
    "TransportError",
    "UserNotFoundError",
    "error_class_for",
    "exponential_backoff",
    "identifier_problem",
    "live_registries",
    "normalise_base_url",
    "parse_retry_after",
    "redact",
    "register_secret",
    "sanitise_text",
]
