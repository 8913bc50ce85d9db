"""The error catalogue of the Account Data Service (contract section 7) as data.

This module is the single source of truth for every ``AC-nnn`` code: its HTTP
status, its message text (verbatim, "blockd" included) and which endpoints may
answer it. The sandbox raises from it, the client maps from it and the tests
are generated from it; no message text is written anywhere else.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import Any

from . import endpoints as ep
from .endpoints import Endpoint

#: ``error.code`` always has this shape (section 2). ``[0-9]`` and ``\Z``, not
#: ``\d`` and ``$``: those would also accept non-ASCII digits and a trailing newline.
CODE_PATTERN = re.compile(r"^AC-[0-9]{3}\Z")

#: Stands for the support address inside the AC-104 message (section 7).
SUPPORT_EMAIL = "support@accountdesk.example"


class ErrorFamily(StrEnum):
    """Groups of codes that a person reads as one kind of trouble."""

    REQUEST = "request"
    AUTH = "auth"
    USER = "user"
    FI = "fi"
    MANUAL_USER = "manual-user"
    MFA = "mfa"
    JOB = "job"
    CONFLICT = "conflict"
    OTHER = "other"


@dataclass(frozen=True, slots=True)
class ErrorSpec:
    """One row of section 7.1.

    ``message`` may hold ``{user_id}``, ``{job_id}`` and ``{support_email}``
    placeholders. ``status_by_endpoint`` and ``message_by_endpoint`` carry the
    contract's per-endpoint exceptions, keyed by endpoint name.
    """

    code: str
    status: int
    message: str
    condition: str
    family: ErrorFamily
    status_by_endpoint: Mapping[str, int] = field(default_factory=dict)
    message_by_endpoint: Mapping[str, str] = field(default_factory=dict)

    def status_for(self, endpoint: Endpoint | None = None) -> int:
        """The HTTP status this code is answered with on ``endpoint``."""
        if endpoint is None:
            return self.status
        return self.status_by_endpoint.get(endpoint.name, self.status)

    def template_for(self, endpoint: Endpoint | None = None) -> str:
        """The unformatted message text used on ``endpoint``."""
        if endpoint is None:
            return self.message
        return self.message_by_endpoint.get(endpoint.name, self.message)

    def message_for(
        self, endpoint: Endpoint | None = None, *, user_id: str = "", job_id: str = ""
    ) -> str:
        """The message text as the service sends it, placeholders filled in."""
        return self.template_for(endpoint).format(
            user_id=user_id, job_id=job_id, support_email=SUPPORT_EMAIL
        )

    def body_for(
        self, endpoint: Endpoint | None = None, *, user_id: str = "", job_id: str = ""
    ) -> dict[str, dict[str, str]]:
        """The error envelope of section 2 for this code."""
        return {
            "error": {
                "code": self.code,
                "message": self.message_for(endpoint, user_id=user_id, job_id=job_id),
            }
        }


_FI_PAUSED = (
    "For security purposes, the FI has paused sharing account information for this user. "
    "To continue, the user can reconnect to the FI"
)
_ATTRIBUTES_INVALID = "Required attributes are missing or not in a valid format."
_USER_ID_MISSING = "Missing required request parameters: [user_id]"
_ON_TOKEN_AND_ACCOUNT = {ep.TOKEN.name: _ATTRIBUTES_INVALID, ep.ACCOUNT.name: _ATTRIBUTES_INVALID}


def _spec(
    code: str, status: int, message: str, condition: str, family: ErrorFamily, **kw: Any
) -> ErrorSpec:
    return ErrorSpec(code, status, message, condition, family, **kw)


_SPECS = (
    _spec(
        "AC-100",
        400,
        _USER_ID_MISSING,
        "The request has bad syntax or is incomplete.",
        ErrorFamily.REQUEST,
        message_by_endpoint=MappingProxyType(_ON_TOKEN_AND_ACCOUNT),
    ),
    _spec(
        "AC-101",
        401,
        "Invalid API key and secret.",
        "Credentials at POST /token are not authorized.",
        ErrorFamily.AUTH,
    ),
    _spec(
        "AC-001",
        403,
        "Invalid API key and secret.",
        "Credentials are not authorized for the resource.",
        ErrorFamily.AUTH,
    ),
    _spec(
        "AC-102",
        404,
        "User {user_id} not found",
        "The user_id in the path is invalid.",
        ErrorFamily.USER,
        status_by_endpoint=MappingProxyType({ep.REFRESH.name: 400}),
    ),
    _spec(
        "AC-103",
        400,
        "The FI failed to send account number, routing number, or balance",
        "Values are missing from the FI.",
        ErrorFamily.FI,
    ),
    _spec(
        "AC-104",
        400,
        "We are having issues connecting to your bank. Reconnect your bank or reach out to "
        "{support_email} to resolve the issue.",
        "The FI connection currently has problems.",
        ErrorFamily.FI,
    ),
    _spec(
        "AC-105",
        405,
        "Balance check not available for manually linked users",
        "Balance check for a manually linked user.",
        ErrorFamily.MANUAL_USER,
    ),
    _spec(
        "AC-106",
        400,
        _FI_PAUSED,
        "The FI connection was removed; the user must reconnect.",
        ErrorFamily.FI,
    ),
    _spec(
        "AC-107",
        405,
        "Balance refresh not available for manually linked users",
        "Refresh for a manually linked user.",
        ErrorFamily.MANUAL_USER,
    ),
    _spec(
        "AC-108",
        429,
        # The misspelling "blockd" is the service's own text; keep it.
        "Account has been temporarily blockd due to too many incorrect MFA attempts",
        "The user answered MFA incorrectly too many times.",
        ErrorFamily.MFA,
    ),
    _spec(
        "AC-109",
        404,
        "Job {job_id} not found",
        "The job_id in the path is invalid.",
        ErrorFamily.JOB,
        message_by_endpoint=MappingProxyType(
            {ep.JOB.name: "Balance refresh job for {user_id} not found"}
        ),
    ),
    _spec(
        "AC-110",
        405,
        "Your MFA session has expired. Please reauthenticate to continue",
        "The client took too long to answer MFA.",
        ErrorFamily.MFA,
    ),
    _spec(
        "AC-111",
        405,
        "Identity jobs are not available for manually linked users",
        "Identity job for a manually linked user.",
        ErrorFamily.MANUAL_USER,
    ),
    _spec(
        "AC-112",
        409,
        "Conflict - another job currently in progress",
        "A job of the same kind (identity or transaction) is already in progress.",
        ErrorFamily.CONFLICT,
    ),
    _spec(
        "AC-113",
        400,
        _FI_PAUSED,
        "Authentication has failed for the expected user.",
        ErrorFamily.FI,
    ),
    _spec(
        "AC-114",
        405,
        "Transaction jobs are not available for manually linked users",
        "Transaction job for a manually linked user.",
        ErrorFamily.MANUAL_USER,
    ),
    _spec(
        "AC-115",
        405,
        "Transaction data not available for manually linked users",
        "Reading transaction data for a manually linked user.",
        ErrorFamily.MANUAL_USER,
    ),
)

#: Every code of section 7.1, keyed by code.
ERRORS: Mapping[str, ErrorSpec] = MappingProxyType({spec.code: spec for spec in _SPECS})

#: Section 7.2: which codes each endpoint may answer, keyed by endpoint name.
ENDPOINT_ERRORS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        ep.TOKEN.name: ("AC-100", "AC-101"),
        ep.ACCOUNT.name: ("AC-100", "AC-001", "AC-102", "AC-103", "AC-104"),
        ep.BALANCE.name: ("AC-100", "AC-001", "AC-104", "AC-105", "AC-106"),
        ep.REFRESH.name: ("AC-100", "AC-001", "AC-102", "AC-104", "AC-107", "AC-108"),
        ep.MFA_ANSWER.name: ("AC-100", "AC-001", "AC-102", "AC-104", "AC-109"),
        ep.MFA_RESOLVE.name: ("AC-100", "AC-001", "AC-102", "AC-104", "AC-110"),
        ep.IDENTITY_START.name: ("AC-100", "AC-001", "AC-102", "AC-104", "AC-111", "AC-112"),
        ep.IDENTITY_READ.name: ("AC-100", "AC-001", "AC-102", "AC-104", "AC-113"),
        ep.TRANSACTIONS_START.name: ("AC-100", "AC-001", "AC-102", "AC-104", "AC-112", "AC-114"),
        ep.TRANSACTIONS_READ.name: ("AC-100", "AC-001", "AC-102", "AC-104", "AC-115"),
        ep.JOB.name: ("AC-100", "AC-001", "AC-102", "AC-104", "AC-109"),
    }
)

#: Codes the contract mentions outside its tables (section 7.1, last
#: paragraph). The client treats them like any unknown code: a plain ApiError.
UNLISTED_CODES: Mapping[str, str] = MappingProxyType(
    {"AC-204": "No account information available, please select another bank."}
)

#: Codes the sandbox uses for answers the contract does not cover: what a web
#: framework would otherwise answer on its own. They are ours, not the
#: service's; the client treats them as unknown codes.
SANDBOX_CODES: Mapping[str, ErrorSpec] = MappingProxyType(
    {
        spec.code: spec
        for spec in (
            _spec("AC-904", 404, "No such endpoint", "Unknown route.", ErrorFamily.OTHER),
            _spec(
                "AC-905",
                405,
                "Method not allowed on this endpoint",
                "Known route, wrong method.",
                ErrorFamily.OTHER,
            ),
            _spec(
                "AC-950",
                500,
                "The sandbox failed to answer this request",
                "Unexpected failure inside the sandbox.",
                ErrorFamily.OTHER,
            ),
            _spec(
                "AC-903",
                403,
                "Sandbox control needs the X-Sandbox-Control-Token header "
                "(the token is printed when the sandbox starts)",
                "A control call on the shared world, served on a non-loopback interface.",
                ErrorFamily.OTHER,
            ),
            _spec(
                "AC-913",
                413,
                "Request body too large",
                "The request body is over the sandbox's limit (64 KiB).",
                ErrorFamily.OTHER,
            ),
            _spec(
                "AC-929",
                429,
                "The training sandbox has no room for another trainee",
                "A new trainee_<name> key signed in when every tenant world was taken.",
                ErrorFamily.OTHER,
            ),
        )
    }
)


def spec_for(code: str) -> ErrorSpec | None:
    """The catalogue row of ``code``, or None for a code the contract does not list."""
    return ERRORS.get(code)


def endpoint_error_pairs() -> list[tuple[Endpoint, ErrorSpec]]:
    """Every (endpoint, error) pair of section 7.2, in table order."""
    return [
        (endpoint, ERRORS[code])
        for endpoint in ep.ALL_ENDPOINTS
        for code in ENDPOINT_ERRORS[endpoint.name]
    ]
