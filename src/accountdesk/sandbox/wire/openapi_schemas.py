"""The wire format's bodies as JSON Schema (docs/developer/sandbox.md, "Wire format"), written once.

Data for :mod:`.openapi`: every schema the sandbox's answers and requests
follow, and the sandbox's rule for user ids spelt as a pattern. Standard
library only.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from accountdesk.contract import JobKind, JobStatus
from accountdesk.sandbox.blocks import MAX_MFA_ATTEMPTS, MFA_ATTEMPTS
from accountdesk.sandbox.clock import MAX_STEP

__all__ = ["SCHEMAS", "USER_ID", "ref"]

Json = dict[str, Any]


def ref(name: str) -> Json:
    return {"$ref": f"#/components/schemas/{name}"}


def _object(required: Iterable[str], **properties: Json) -> Json:
    return {
        "type": "object",
        "required": list(required),
        "properties": properties,
    }


def _nullable(schema: Json) -> Json:
    return {"oneOf": [schema, {"type": "null"}]}


_STRING: Json = {"type": "string"}
_TIME: Json = {"type": "string", "format": "date-time"}
_AMOUNT: Json = {"type": "string", "pattern": r"^-?[0-9]+\.[0-9]{2}$"}
_CODE: Json = {"type": "string", "pattern": "^AC-[0-9]{3}$"}
# The sandbox's user id rule (contract.identifiers): 1 to 64 of A-Z a-z 0-9 _ . -,
# not "." or "..". Spelt out without a lookahead, so that ECMA and Python
# regex engines (validators, test generators) read it alike.
_ID_CHAR = r"[A-Za-z0-9_.\-]"
_NOT_DOT = r"[A-Za-z0-9_\-]"
USER_ID: Json = {
    "type": "string",
    "minLength": 1,
    "maxLength": 64,
    "pattern": (
        rf"^({_NOT_DOT}{_ID_CHAR}{{0,63}}|\.{_NOT_DOT}{_ID_CHAR}{{0,62}}"
        rf"|\.\.{_ID_CHAR}{{1,62}})$"
    ),
}
#: A character Python's str.strip() keeps: JSON Schema's \s is narrower.
_NOT_BLANK = r"[^\s\x1c-\x1f\x85]"

#: The wire format's bodies (docs/developer/sandbox.md, "Wire format"), each written once.
SCHEMAS: dict[str, Json] = {
    "ErrorEnvelope": _object(
        ["error"], error=_object(["code", "message"], code=_CODE, message=_STRING)
    ),
    "TokenRequest": _object(
        ["api_key", "api_secret"],
        api_key={"type": "string", "minLength": 1},
        api_secret={"type": "string", "minLength": 1},
    ),
    "TokenGrant": _object(
        ["access_token", "token_type", "expires_in"],
        access_token=_STRING,
        token_type={"const": "Bearer"},
        expires_in={"type": "number", "exclusiveMinimum": 0},
    ),
    "Account": _object(
        [
            "user_id",
            "link_type",
            "institution_name",
            "account_name",
            "account_type",
            "account_number",
            "account_number_masked",
            "routing_number",
            "currency",
        ],
        user_id=_STRING,
        link_type={"enum": ["fi", "manual"]},
        institution_name=_STRING,
        account_name=_STRING,
        account_type=_STRING,
        account_number=_STRING,
        account_number_masked=_STRING,
        routing_number=_STRING,
        currency=_STRING,
    ),
    "Balance": _object(
        ["user_id", "currency", "available", "current", "as_of"],
        user_id=_STRING,
        currency=_STRING,
        available=_AMOUNT,
        current=_AMOUNT,
        as_of=_TIME,
    ),
    "MfaChallenge": _object(
        ["question", "expires_at", "attempts_remaining"],
        question=_STRING,
        expires_at=_TIME,
        attempts_remaining={
            "type": "integer",
            "minimum": 0,
            "maximum": MAX_MFA_ATTEMPTS,
            "description": f"wrong answers the user may still give, across all their jobs: "
            f"{MFA_ATTEMPTS} at first for the shipped users, up to {MAX_MFA_ATTEMPTS:,} for a "
            "scenario pack's",
        },
    ),
    "JobError": _object(
        ["code", "message"],
        code=_CODE,
        message=_STRING,
        blocked_until={**_TIME, "description": "With AC-108: when the user's block lifts."},
    ),
    "Job": _object(
        [
            "job_id",
            "user_id",
            "kind",
            "status",
            "created_at",
            "updated_at",
            "completed_at",
            "mfa",
            "error",
        ],
        job_id=_STRING,
        user_id=_STRING,
        kind={"enum": [kind.value for kind in JobKind]},
        status={"enum": [status.value for status in JobStatus]},
        created_at=_TIME,
        updated_at=_TIME,
        completed_at=_nullable(_TIME),
        mfa=_nullable(ref("MfaChallenge")),
        error=_nullable(ref("JobError")),
    ),
    "MfaAnswer": _object(
        ["answer"],
        answer={"type": "string", "minLength": 1, "maxLength": 256, "pattern": _NOT_BLANK},
    ),
    "Address": _object(
        ["street", "city", "region", "postal_code", "country"],
        street=_STRING,
        city=_STRING,
        region=_STRING,
        postal_code=_STRING,
        country=_STRING,
    ),
    "Identity": _object(
        ["user_id", "names", "emails", "phone_numbers", "addresses"],
        user_id=_STRING,
        names={"type": "array", "items": _STRING},
        emails={"type": "array", "items": _STRING},
        phone_numbers={"type": "array", "items": _STRING},
        addresses={"type": "array", "items": ref("Address")},
    ),
    "Transaction": _object(
        ["transaction_id", "date", "amount", "description", "category", "pending"],
        transaction_id=_STRING,
        date={"type": "string", "format": "date"},
        amount=_AMOUNT,
        description=_STRING,
        category=_STRING,
        pending={"type": "boolean"},
    ),
    "Transactions": _object(
        ["user_id", "currency", "transactions"],
        user_id=_STRING,
        currency=_STRING,
        transactions={"type": "array", "items": ref("Transaction")},
    ),
    "ClockStep": _object(
        ["seconds"],
        seconds={"type": "number", "minimum": 0, "maximum": MAX_STEP.total_seconds()},
    ),
    "ClockNow": _object(["now"], now=_TIME),
    "ResetDone": _object(["reset"], reset={"const": True}),
    "Trainees": _object(
        ["tenants", "max_trainees", "now", "trainees"],
        tenants={"type": "boolean", "description": "Whether this sandbox runs a training room."},
        max_trainees={"type": "integer", "minimum": 0},
        now={**_TIME, "description": "The sandbox's own clock (first and last requests)."},
        trainees={
            "type": "array",
            "items": _object(
                [
                    "name",
                    "api_key",
                    "first_request",
                    "last_request",
                    "clock",
                    "clock_ahead_seconds",
                    "jobs",
                    "open_jobs",
                    "waiting_for_mfa",
                    "blocks",
                ],
                name=_STRING,
                api_key=_STRING,
                first_request=_TIME,
                last_request=_TIME,
                clock={**_TIME, "description": "The trainee's own clock."},
                clock_ahead_seconds={"type": "number", "minimum": 0},
                jobs={"type": "integer", "minimum": 0},
                open_jobs={"type": "integer", "minimum": 0},
                waiting_for_mfa={"type": "integer", "minimum": 0},
                blocks={
                    "type": "array",
                    "items": _object(["user_id", "until"], user_id=_STRING, until=_TIME),
                },
            ),
        },
    ),
    "Scenarios": _object(
        ["users", "credentials"],
        users={
            "type": "array",
            "items": _object(["user_id", "summary"], user_id=_STRING, summary=_STRING),
        },
        credentials={
            "type": "array",
            "items": _object(
                ["api_key", "access"],
                api_key=_STRING,
                api_secret={
                    **_STRING,
                    "description": "Only for the shipped demo credentials (public values); "
                    "a scenario pack's own credentials are named without it.",
                },
                access=_STRING,
            ),
        },
    ),
}
