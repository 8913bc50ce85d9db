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

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from accountdesk.client._backoff import MAX_RETRY_AFTER, exponential_backoff, parse_retry_after
    from accountdesk.client._identifiers import identifier_problem
    from accountdesk.client._redact import (
        REDACTED,
        RedactingFilter,
        SecretRegistry,
        live_registries,
        redact,
        register_secret,
    )
    from accountdesk.client._retry import RetryPolicy
    from accountdesk.client._sandbox import (
        SandboxCatalogue,
        SandboxControl,
        SandboxCredential,
        ScenarioUser,
        Trainee,
        TraineeBlock,
        TrainingRoom,
    )
    from accountdesk.client._sanitise import sanitise_text
    from accountdesk.client._urls import normalise_base_url
    from accountdesk.client._wire import ResponseTooLargeError, StreamTooLargeError
    from accountdesk.client.client import AccountDataClient
    from accountdesk.client.errors import (
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
        StreamInterruptedError,
        TransactionDataUnavailableForManualUserError,
        TransactionJobsUnavailableForManualUserError,
        TransportError,
        UserNotFoundError,
        error_class_for,
    )
    from accountdesk.client.models import (
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
    from accountdesk.client.transactions.fill import TransactionColumns

# Names are loaded on first use: an app that only needs the log filter or the
# sanitiser (before its first frame) does not pay for httpx and the models.
_LAZY: dict[str, str] = {
    "MAX_RETRY_AFTER": "._backoff",
    "exponential_backoff": "._backoff",
    "parse_retry_after": "._backoff",
    "TransactionColumns": ".transactions.columns",
    "identifier_problem": "._identifiers",
    "REDACTED": "._redact",
    "RedactingFilter": "._redact",
    "SecretRegistry": "._redact",
    "live_registries": "._redact",
    "redact": "._redact",
    "register_secret": "._redact",
    "RetryPolicy": "._retry",
    "SandboxCatalogue": "._sandbox",
    "SandboxControl": "._sandbox",
    "SandboxCredential": "._sandbox",
    "ScenarioUser": "._sandbox",
    "Trainee": "._sandbox",
    "TraineeBlock": "._sandbox",
    "TrainingRoom": "._sandbox",
    "sanitise_text": "._sanitise",
    "normalise_base_url": "._urls",
    "ResponseTooLargeError": "._wire",
    "StreamTooLargeError": "._wire",
    "AccountDataClient": ".client",
    "ERROR_CLASSES": ".errors",
    "AccountBlockedError": ".errors",
    "AccountDataError": ".errors",
    "ApiError": ".errors",
    "BalanceUnavailableForManualUserError": ".errors",
    "FiConnectionError": ".errors",
    "FiDataIncompleteError": ".errors",
    "FiSharingPausedError": ".errors",
    "IdentityUnavailableForManualUserError": ".errors",
    "IdentityVerificationFailedError": ".errors",
    "InvalidBaseUrlError": ".errors",
    "InvalidCredentialsError": ".errors",
    "InvalidIdentifierError": ".errors",
    "InvalidRequestError": ".errors",
    "JobConflictError": ".errors",
    "JobNotFoundError": ".errors",
    "JobWatchTimeout": ".errors",
    "MalformedResponseError": ".errors",
    "MfaSessionExpiredError": ".errors",
    "NotAuthorizedError": ".errors",
    "RefreshUnavailableForManualUserError": ".errors",
    "StreamInterruptedError": ".errors",
    "TransactionDataUnavailableForManualUserError": ".errors",
    "TransactionJobsUnavailableForManualUserError": ".errors",
    "TransportError": ".errors",
    "UserNotFoundError": ".errors",
    "error_class_for": ".errors",
    "TERMINAL_STATUSES": ".models",
    "Account": ".models",
    "Address": ".models",
    "Balance": ".models",
    "Identity": ".models",
    "Job": ".models",
    "JobError": ".models",
    "JobKind": ".models",
    "JobStatus": ".models",
    "MfaChallenge": ".models",
    "TokenGrant": ".models",
    "Transaction": ".models",
    "Transactions": ".models",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(module, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


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
    "StreamInterruptedError",
    "StreamTooLargeError",
    "TokenGrant",
    "Trainee",
    "TraineeBlock",
    "TrainingRoom",
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
