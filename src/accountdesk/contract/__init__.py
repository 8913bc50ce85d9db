"""The Account Data Service contract as data: endpoints, the error catalogue (with our
guidance for support staff) and job vocabulary.

Imports nothing outside the standard library, so the client, the sandbox and
the tests can all lean on it.
"""

from accountdesk.contract import endpoints
from accountdesk.contract.endpoints import ALL_ENDPOINTS, Endpoint, endpoint_named
from accountdesk.contract.errors import (
    CODE_PATTERN,
    ENDPOINT_ERRORS,
    ERRORS,
    MANUAL_USER_CODES,
    SUPPORT_EMAIL,
    UNLISTED_CODES,
    ErrorFamily,
    ErrorSpec,
    Guidance,
    codes_of,
    endpoint_error_pairs,
    spec_for,
)
from accountdesk.contract.guidance import (
    FAILURE_GUIDANCE,
    FailureKind,
    guidance_for_code,
    known_spec,
)
from accountdesk.contract.jobs import TERMINAL_STATUSES, JobKind, JobStatus
from accountdesk.contract.sandbox_codes import SANDBOX_CODES

__all__ = [
    "ALL_ENDPOINTS",
    "CODE_PATTERN",
    "ENDPOINT_ERRORS",
    "ERRORS",
    "FAILURE_GUIDANCE",
    "MANUAL_USER_CODES",
    "SANDBOX_CODES",
    "SUPPORT_EMAIL",
    "TERMINAL_STATUSES",
    "UNLISTED_CODES",
    "Endpoint",
    "ErrorFamily",
    "ErrorSpec",
    "FailureKind",
    "Guidance",
    "JobKind",
    "JobStatus",
    "codes_of",
    "endpoint_error_pairs",
    "endpoint_named",
    "endpoints",
    "guidance_for_code",
    "known_spec",
    "spec_for",
]
