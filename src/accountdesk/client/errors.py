"""Everything :class:`~accountdesk.client.AccountDataClient` raises.

One base class, :class:`AccountDataError`, with four kinds below it:

- :class:`ApiError`: the service answered with its error envelope and an
  ``AC-nnn`` code. One subclass per code of the contract's catalogue, named in
  the service's words; a code the catalogue does not list (``AC-204``) is a
  plain :class:`ApiError` that still carries its code.
- :class:`MalformedResponseError`: the answer is not in the contract's shape
  (HTML from a proxy, empty or truncated JSON, wrong types). No ``AC-`` code:
  the app must never invent one.
- :class:`TransportError`: no answer at all (refused, reset, timeout, DNS).
- :class:`InvalidIdentifierError` / :class:`InvalidBaseUrlError`: refused
  client-side before anything was sent.

:class:`JobWatchTimeout` ends :meth:`AccountDataClient.watch_job` when its
deadline passes.

Every error has a short ``title`` (a toast title) and a human ``detail``.
Text that came from the service (an error message, a body excerpt, an httpx
error text that may quote server bytes) is sanitised and bounded here, as it
enters: a toast can show it as it is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from accountdesk.client._sanitise import service_text
from accountdesk.contract import ERRORS, ErrorFamily

if TYPE_CHECKING:
    from accountdesk.client.models import Job


class AccountDataError(Exception):
    """Base of every error the client raises.

    ``method`` and ``path`` name the request (path parameters percent-encoded,
    never a secret); ``title`` is short enough for a toast title and
    ``detail`` says what happened in a sentence. ``code`` is the service's
    ``AC-nnn`` code, and None for every error the service did not answer
    with.
    """

    title: str = "Account Data Service error"
    code: str | None = None

    def __init__(
        self, detail: str, *, method: str = "", path: str = "", title: str | None = None
    ) -> None:
        super().__init__(detail)
        self.detail = detail
        self.method = method
        self.path = path
        if title is not None:
            self.title = title

    @property
    def request_line(self) -> str:
        """``"GET /accounts/user_good"``, or "" when no request was formed."""
        return f"{self.method} {self.path}".strip()

    def __str__(self) -> str:
        return self.detail


class ApiError(AccountDataError):
    """The service refused the request with an ``AC-nnn`` error envelope.

    ``message`` is the envelope's text; ``family`` groups the code
    (contract :class:`~accountdesk.contract.ErrorFamily`, ``OTHER`` for codes
    the catalogue does not list). ``retry_after`` is the answer's
    ``Retry-After`` in seconds (None without one, or when it is unreadable or
    more than a year away), so a UI can say when an ``AC-108`` block lifts;
    the client itself never retries a coded answer.
    """

    #: Short name of the trouble, in the service's words; subclasses set it.
    summary: ClassVar[str] = "Service error"

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        *,
        method: str = "",
        path: str = "",
        retry_after: float | None = None,
    ) -> None:
        self.status = status
        self.code = code
        self.message = service_text(message)
        self.retry_after = retry_after
        spec = ERRORS.get(code)
        self.family = spec.family if spec is not None else ErrorFamily.OTHER
        super().__init__(self.message, method=method, path=path, title=f"{code} {self.summary}")

    def __str__(self) -> str:  # "AC-112 (409) <the message>"
        return f"{self.code} ({self.status}) {self.message}"

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(status={self.status}, code={self.code!r}, "
            f"message={self.message!r}, method={self.method!r}, path={self.path!r})"
        )


# One class per catalogue code. ``code`` is a class attribute so callers can
# write ``except JobConflictError`` or compare ``err.code == JobConflictError.code``.


class InvalidRequestError(ApiError):
    """AC-100: the request has bad syntax or is incomplete."""

    code = "AC-100"
    summary = "Invalid request"


class InvalidCredentialsError(ApiError):
    """AC-101: the API key and secret were refused at ``POST /token``."""

    code = "AC-101"
    summary = "Invalid API key or secret"


class NotAuthorizedError(ApiError):
    """AC-001: the credentials are not authorized for the resource."""

    code = "AC-001"
    summary = "Not authorized"


class UserNotFoundError(ApiError):
    """AC-102: the ``user_id`` in the path is unknown."""

    code = "AC-102"
    summary = "User not found"


class FiDataIncompleteError(ApiError):
    """AC-103: the FI failed to send account number, routing number or balance."""

    code = "AC-103"
    summary = "Incomplete data from the bank"


class FiConnectionError(ApiError):
    """AC-104: the connection to the user's FI currently has problems."""

    code = "AC-104"
    summary = "Cannot reach the bank"


class BalanceUnavailableForManualUserError(ApiError):
    """AC-105: balance check for a manually linked user."""

    code = "AC-105"
    summary = "Balance unavailable for manual user"


class FiSharingPausedError(ApiError):
    """AC-106: the FI paused sharing; the user must reconnect."""

    code = "AC-106"
    summary = "Bank paused sharing"


class RefreshUnavailableForManualUserError(ApiError):
    """AC-107: balance refresh for a manually linked user."""

    code = "AC-107"
    summary = "Refresh unavailable for manual user"


class AccountBlockedError(ApiError):
    """AC-108: too many incorrect MFA answers; the account is blocked for a while.

    Final: the client never retries it, whatever ``Retry-After`` says.
    """

    code = "AC-108"
    summary = "Account temporarily blocked"


class JobNotFoundError(ApiError):
    """AC-109: the ``job_id`` in the path is unknown."""

    code = "AC-109"
    summary = "Job not found"


class MfaSessionExpiredError(ApiError):
    """AC-110: the MFA session expired before it was resolved."""

    code = "AC-110"
    summary = "MFA session expired"


class IdentityUnavailableForManualUserError(ApiError):
    """AC-111: identity job for a manually linked user."""

    code = "AC-111"
    summary = "Identity unavailable for manual user"


class JobConflictError(ApiError):
    """AC-112: a job of the same kind is already in progress. Final, never retried."""

    code = "AC-112"
    summary = "Job already in progress"


class IdentityVerificationFailedError(ApiError):
    """AC-113: authentication failed for the expected user."""

    code = "AC-113"
    summary = "Identity verification failed"


class TransactionJobsUnavailableForManualUserError(ApiError):
    """AC-114: transaction job for a manually linked user."""

    code = "AC-114"
    summary = "Transaction jobs unavailable for manual user"


class TransactionDataUnavailableForManualUserError(ApiError):
    """AC-115: reading transaction data of a manually linked user."""

    code = "AC-115"
    summary = "Transaction data unavailable for manual user"


def _build_registry() -> dict[str, type[ApiError]]:
    registry: dict[str, type[ApiError]] = {}
    for cls in ApiError.__subclasses__():
        code = cls.__dict__.get("code")
        if not isinstance(code, str):
            continue
        if code in registry:  # a typo in a class above would silently shadow a code
            raise RuntimeError(f"two error classes for {code}: {registry[code]} and {cls}")
        registry[code] = cls
    return registry


#: Catalogue code -> its exception class.
ERROR_CLASSES: dict[str, type[ApiError]] = _build_registry()


def error_class_for(code: str) -> type[ApiError]:
    """The class raised for ``code``; plain :class:`ApiError` for unlisted codes."""
    return ERROR_CLASSES.get(code, ApiError)


class MalformedResponseError(AccountDataError):
    """The answer is not in the contract's shape; it carries no ``AC-`` code.

    ``status`` is the HTTP status (None when the body could not be decoded at
    transport level) and ``excerpt`` at most 200 characters of the body with
    credentials and account-number-like runs redacted, made inert.
    """

    title = "Unexpected answer from the service"

    def __init__(
        self, status: int | None, excerpt: str, *, problem: str, method: str = "", path: str = ""
    ) -> None:
        self.status = status
        self.excerpt = service_text(excerpt, 200)
        self.problem = service_text(problem, 500)
        excerpt, problem = self.excerpt, self.problem
        where = f"{method} {path}".strip() or "The request"
        status_text = f"HTTP {status}" if status is not None else "an unreadable answer"
        detail = f"{where} got {status_text}: {problem}."
        if excerpt:
            detail += f" Body starts: {excerpt}"
        super().__init__(detail, method=method, path=path)


class TransportError(AccountDataError):
    """No answer from the service: refused, reset, timed out, name not resolved.

    ``reason`` is ``"connect"``, ``"timeout"`` or ``"network"``. The detail
    may quote httpx's text, hence server bytes: it is sanitised and bounded.
    """

    _TITLES: ClassVar[dict[str, str]] = {
        "connect": "Cannot connect to the service",
        "timeout": "The service did not answer in time",
        "network": "Connection to the service failed",
    }

    def __init__(self, reason: str, detail: str, *, method: str = "", path: str = "") -> None:
        self.reason = reason
        super().__init__(
            service_text(detail, 1000),
            method=method,
            path=path,
            title=self._TITLES.get(reason, "Connection to the service failed"),
        )


class StreamInterruptedError(TransportError):
    """A streamed answer stopped part way: dropped, timed out, or past the size cap.

    The batches before it were handed out and stay good; ``rows`` says how
    many, ``received`` how many bytes of the body arrived.
    """

    def __init__(
        self,
        reason: str,
        detail: str,
        *,
        rows: int,
        received: int,
        method: str = "",
        path: str = "",
    ) -> None:
        super().__init__(reason, detail, method=method, path=path)
        self.rows = rows
        self.received = received


class InvalidIdentifierError(AccountDataError, ValueError):
    """A path parameter was refused client-side (empty, blank, ``.`` or ``..``).

    Nothing was sent. ``parameter`` names the parameter (``user_id``, ``job_id``).
    """

    title = "Invalid identifier"

    def __init__(self, parameter: str, detail: str, *, method: str = "", path: str = "") -> None:
        self.parameter = parameter
        super().__init__(detail, method=method, path=path)


class InvalidBaseUrlError(AccountDataError, ValueError):
    """The base URL is not an absolute http(s) URL without credentials."""

    title = "Invalid service URL"


class JobWatchTimeout(AccountDataError):
    """``watch_job`` gave up: the job was still running at its deadline.

    ``job`` is the last state seen.
    """

    title = "Job still running"

    def __init__(self, job: Job, timeout: float, *, method: str = "", path: str = "") -> None:
        self.job = job
        self.timeout = timeout
        detail = (
            f"Job {job.job_id} was still {job.status} after {timeout:g} s; "
            "it may finish later, check it again."
        )
        super().__init__(detail, method=method, path=path)
