"""The error catalogue of the Account Data Service (contract section 7) as data.

This module is the single source of truth for every ``AC-nnn`` code: its HTTP
status, its message text (verbatim, "blockd" included), which endpoints may
answer it, and what it means for support staff and what they should do next
(our guidance, beside the service's words). The sandbox raises from it, the
client maps from it, the app explains from it and the tests are generated
from it; no message text is written anywhere else (a test checks).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import Any

from accountdesk.contract import endpoints as ep
from accountdesk.contract.endpoints import Endpoint

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
class Guidance:
    """What a failure means and what support should do next, in a support person's words.

    ``meaning`` explains (a few sentences: what happened, whose side it is
    on, when to escalate); ``next_step`` is one short line of what to do or
    tell the user (it ends the error's toast).
    """

    meaning: str
    next_step: str


@dataclass(frozen=True, slots=True)
class ErrorSpec:
    """One row of section 7.1, and our guidance for it.

    ``message`` may hold ``{user_id}``, ``{job_id}`` and ``{support_email}``
    placeholders. ``status_by_endpoint`` and ``message_by_endpoint`` carry the
    contract's per-endpoint exceptions, keyed by endpoint name. ``meaning``
    and ``next_step`` are ours, not the service's (see :class:`Guidance`).
    """

    code: str
    status: int
    message: str
    condition: str
    family: ErrorFamily
    status_by_endpoint: Mapping[str, int] = field(default_factory=dict)
    message_by_endpoint: Mapping[str, str] = field(default_factory=dict)
    meaning: str = ""
    next_step: str = ""

    @property
    def guidance(self) -> Guidance:
        return Guidance(self.meaning, self.next_step)

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
_CREDENTIALS_INVALID = "Invalid API key and secret."  # AC-101 and AC-001
_ATTRIBUTES_INVALID = "Required attributes are missing or not in a valid format."
_USER_ID_MISSING = "Missing required request parameters: [user_id]"
_ON_TOKEN_AND_ACCOUNT = {ep.TOKEN.name: _ATTRIBUTES_INVALID, ep.ACCOUNT.name: _ATTRIBUTES_INVALID}


def _spec(
    code: str, status: int, message: str, condition: str, family: ErrorFamily, **kw: Any
) -> ErrorSpec:
    return ErrorSpec(code, status, message, condition, family, **kw)


# Guidance (``meaning``, ``next_step``) is ours, written for support staff:
# what happened in plain words, what to tell the user, when to escalate.
# ``next_step`` is one short line (it ends every error toast).
_SPECS = (
    _spec(
        "AC-100",
        400,
        _USER_ID_MISSING,
        "The request has bad syntax or is incomplete.",
        ErrorFamily.REQUEST,
        message_by_endpoint=MappingProxyType(_ON_TOKEN_AND_ACCOUNT),
        meaning="The service could not read the request: the user id (or, at sign-in, the key "
        "or secret) was missing or not in a valid format. The user's account is not at fault.",
        next_step="Check the user id for typos and spaces; if it is right, report it to the "
        "accountdesk maintainers.",
    ),
    _spec(
        "AC-101",
        401,
        _CREDENTIALS_INVALID,
        "Credentials at POST /token are not authorized.",
        ErrorFamily.AUTH,
        meaning="Sign-in refused: this API key and secret do not match (POST /token). It says "
        "nothing about any end user; same text as AC-001, which comes after sign-in.",
        next_step="Check the key and secret for this service; if they are right, ask your key "
        "administrator.",
    ),
    _spec(
        "AC-001",
        403,
        _CREDENTIALS_INVALID,
        "Credentials are not authorized for the resource.",
        ErrorFamily.AUTH,
        meaning="Signed in, but this API key may not read this user (or its access token "
        "lapsed and could not be renewed). Same text as AC-101, which is a failed sign-in.",
        next_step="Sign in with the key for this user's program, or ask your key administrator "
        "for access.",
    ),
    _spec(
        "AC-102",
        404,
        "User {user_id} not found",
        "The user_id in the path is invalid.",
        ErrorFamily.USER,
        status_by_endpoint=MappingProxyType({ep.REFRESH.name: 400}),
        meaning="The service has no user with this id: a typo, or the user never linked a bank "
        "(or was removed). Ids are case-sensitive.",
        next_step="Confirm the user id with the user; if it is right, they must link their bank "
        "first.",
    ),
    _spec(
        "AC-103",
        400,
        "The FI failed to send account number, routing number, or balance",
        "Values are missing from the FI.",
        ErrorFamily.FI,
        meaning="The bank answered but left out the account number, routing number or balance, "
        "so the account cannot be shown. A fault on the bank's side, usually temporary; the "
        "user cannot fix it.",
        next_step="Try again in a few hours; if it lasts over a day, escalate to support with "
        "this report.",
    ),
    _spec(
        "AC-104",
        400,
        "We are having issues connecting to your bank. Reconnect your bank or reach out to "
        "{support_email} to resolve the issue.",
        "The FI connection currently has problems.",
        ErrorFamily.FI,
        meaning="The service cannot reach the user's bank: the bank is down or the link's login "
        "no longer works. Every call for this user answers it until the link is repaired.",
        next_step=f"Ask the user to reconnect their bank; if that fails, write to {SUPPORT_EMAIL}.",
    ),
    _spec(
        "AC-105",
        405,
        "Balance check not available for manually linked users",
        "Balance check for a manually linked user.",
        ErrorFamily.MANUAL_USER,
        meaning="This user linked the account by hand (numbers typed in, no bank connection), so "
        "there is no balance to read. Not a fault: account details still work.",
        next_step="Tell the user a balance needs a bank connection (relink through their bank).",
    ),
    _spec(
        "AC-106",
        400,
        _FI_PAUSED,
        "The FI connection was removed; the user must reconnect.",
        ErrorFamily.FI,
        meaning="From the balance read (GET .../balance): the bank paused sharing this user's "
        "data for security reasons until the user reconnects. Routine. AC-113 has the same "
        "text but comes from the identity read and is not routine.",
        next_step="Ask the user to reconnect to their bank; nothing on our side resumes sharing.",
    ),
    _spec(
        "AC-107",
        405,
        "Balance refresh not available for manually linked users",
        "Refresh for a manually linked user.",
        ErrorFamily.MANUAL_USER,
        meaning="This user linked the account by hand, so there is no bank to refresh the "
        "balance from. Not a fault.",
        next_step="Tell the user refreshes need a bank connection; they can relink through "
        "their bank.",
    ),
    _spec(
        "AC-108",
        429,
        # The misspelling "blockd" is the service's own text; keep it.
        "Account has been temporarily blockd due to too many incorrect MFA attempts",
        "The user answered MFA incorrectly too many times.",
        ErrorFamily.MFA,
        meaning="Too many wrong MFA answers: the service refuses balance refreshes for this "
        "user for a while. The block lifts by itself; the service may say when (Retry-After "
        "on the refused refresh, blocked_until on the failed job).",
        next_step="Refresh again after the block lifts; retrying sooner does not shorten it.",
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
        meaning="The service does not know this job for this user: it expired, was started on "
        "another service, or belongs to another user. Nothing is wrong with the account.",
        next_step="Start the job again if its result is still needed; remove the stale job.",
    ),
    _spec(
        "AC-110",
        405,
        "Your MFA session has expired. Please reauthenticate to continue",
        "The client took too long to answer MFA.",
        ErrorFamily.MFA,
        meaning="The MFA question was not answered before its session ran out, so the job "
        "stopped. No attempt was used up and the account is not blocked.",
        next_step="Start the job again and answer the new MFA question before the countdown ends.",
    ),
    _spec(
        "AC-111",
        405,
        "Identity jobs are not available for manually linked users",
        "Identity job for a manually linked user.",
        ErrorFamily.MANUAL_USER,
        meaning="This user linked the account by hand, so there is no bank to confirm their "
        "identity. Not a fault.",
        next_step="Verify identity another way, or ask the user to relink through their bank.",
    ),
    _spec(
        "AC-112",
        409,
        "Conflict - another job currently in progress",
        "A job of the same kind (identity or transactions) is already in progress.",
        ErrorFamily.CONFLICT,
        meaning="A job of the same kind (identity or transactions) is still running for this "
        "user; the service runs one of each kind at a time. Nothing failed.",
        next_step="Wait for the running job (jobs screen) and use its result; retry only if it "
        "fails.",
    ),
    _spec(
        "AC-113",
        400,
        _FI_PAUSED,
        "Authentication has failed for the expected user.",
        ErrorFamily.FI,
        meaning="From the identity read (GET .../identity): the bank could not confirm that the "
        "linked login belongs to this user. AC-106 has the same text but comes from the "
        "balance read (a routine pause); here the link may be someone else's.",
        next_step="Do not rely on this identity; ask the user to reconnect with their own login.",
    ),
    _spec(
        "AC-114",
        405,
        "Transaction jobs are not available for manually linked users",
        "Transaction job for a manually linked user.",
        ErrorFamily.MANUAL_USER,
        meaning="This user linked the account by hand, so there is no bank to fetch "
        "transactions from. Not a fault.",
        next_step="Ask the user for statements instead, or to relink through their bank.",
    ),
    _spec(
        "AC-115",
        405,
        "Transaction data not available for manually linked users",
        "Reading transaction data for a manually linked user.",
        ErrorFamily.MANUAL_USER,
        meaning="This user linked the account by hand, so the service holds no transactions "
        "for it. Not a fault.",
        next_step="Tell the user transaction history needs a bank connection (relink).",
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

#: Rule 3 of section 7.3: what each endpoint answers a manually linked user
#: (AC-105, AC-107, AC-111, AC-114, AC-115, each 405), keyed by endpoint name:
#: the codes of the ``manual-user`` family, where table 7.2 lists them.
MANUAL_USER_CODES: Mapping[str, str] = MappingProxyType(
    {
        name: code
        for name, codes in ENDPOINT_ERRORS.items()
        for code in codes
        if ERRORS[code].family is ErrorFamily.MANUAL_USER
    }
)

#: Codes the contract mentions outside its tables (section 7.1, last
#: paragraph). The client treats them like any unknown code: a plain ApiError.
#: Their status is not shown; 400, as for the other bank answers, is a guess
#: nothing relies on (the client keeps the status it receives).
UNLISTED_CODES: Mapping[str, ErrorSpec] = MappingProxyType(
    {
        "AC-204": _spec(
            "AC-204",
            400,
            "No account information available, please select another bank.",
            "Named below the contract's code table, in no endpoint table.",
            ErrorFamily.FI,
            meaning="The bank returned no account information for this user's link. A code "
            "outside the service's tables: the message is our only description.",
            next_step="Ask the user to link another bank or account, as the message says.",
        )
    }
)


def spec_for(code: str) -> ErrorSpec | None:
    """The catalogue row of ``code``, or None for a code the contract does not list."""
    return ERRORS.get(code)


def codes_of(endpoint: Endpoint) -> tuple[str, ...]:
    """Every code ``endpoint`` may answer by the contract: its row of 7.2, then what 7.3 adds.

    Rule 2 of 7.3: an unknown ``user_id`` on any user endpoint is ``AC-102``
    (404; 400 on refresh). Table 7.2 leaves it out of the balance row; the
    rule puts it back, so a client (or a document) that trusted the table
    alone would have no answer for it.
    """
    codes = ENDPOINT_ERRORS[endpoint.name]
    if "user_id" in endpoint.path_parameters and "AC-102" not in codes:
        codes = (*codes, "AC-102")
    return codes


def endpoint_error_pairs() -> list[tuple[Endpoint, ErrorSpec]]:
    """Every (endpoint, error) pair of section 7.2, in table order."""
    return [
        (endpoint, ERRORS[code])
        for endpoint in ep.ALL_ENDPOINTS
        for code in ENDPOINT_ERRORS[endpoint.name]
    ]
