"""The Account Data Service contract as data: endpoints, the error catalogue and job vocabulary.

Imports nothing outside the standard library, so the client, the sandbox and
the tests can all lean on it.
"""

from . import endpoints
from .endpoints import ALL_ENDPOINTS, Endpoint, endpoint_named
from .errors import (
    CODE_PATTERN,
    ENDPOINT_ERRORS,
    ERRORS,
    SANDBOX_CODES,
    SUPPORT_EMAIL,
    UNLISTED_CODES,
    ErrorFamily,
    ErrorSpec,
    endpoint_error_pairs,
    spec_for,
)
from .jobs import TERMINAL_STATUSES, JobKind, JobStatus

__all__ = [
    "ALL_ENDPOINTS",
    "CODE_PATTERN",
    "ENDPOINT_ERRORS",
    "ERRORS",
    "SANDBOX_CODES",
    "SUPPORT_EMAIL",
    "TERMINAL_STATUSES",
    "UNLISTED_CODES",
    "Endpoint",
    "ErrorFamily",
    "ErrorSpec",
    "JobKind",
    "JobStatus",
    "endpoint_error_pairs",
    "endpoint_named",
    "endpoints",
    "spec_for",
]
