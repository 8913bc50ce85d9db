"""An OpenAPI 3.1 document of the contract plus the sandbox's wire format.

Generated, not written: the operations come from
:mod:`accountdesk.contract.endpoints`, every error response from
:func:`~accountdesk.contract.codes_of` (table 7.2 and the rules of 7.3) and
the catalogue (exact status, exact message as an example), so the document
changes when the contract does. An error's code is any ``AC-nnn`` (contract
7.1 allows codes no table lists, such as ``AC-204``); the codes known for a
status are its examples, never a closed set. What the contract
leaves "not shown" and the sandbox decided (docs/developer/sandbox.md, "Wire format") is written
once below, as data: the schemas of the bodies, which body each operation
takes and answers, and the control endpoints. Links lead from each job start
to the job and its MFA answer and resolve, which is what stateful testing
(schemathesis) follows.

Standard library only: ``openapi_document()`` works without the web framework
(``accountdesk sandbox --openapi`` prints it for Postman or Posting).
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import Any

from accountdesk import __version__
from accountdesk.contract import codes_of
from accountdesk.contract import endpoints as ep
from accountdesk.contract.sandbox_codes import CONTROL_TOKEN_HEADER
from accountdesk.sandbox.errors import spec_of
from accountdesk.sandbox.scenarios import SCENARIO_USERS
from accountdesk.sandbox.wire.middleware import MAX_BODY_BYTES
from accountdesk.sandbox.wire.openapi_schemas import SCHEMAS, USER_ID
from accountdesk.sandbox.wire.openapi_schemas import ref as _ref

__all__ = ["CONTROL_TAG", "EVERY_OPERATION", "SANDBOX_EXTRAS", "openapi_document"]

Json = dict[str, Any]
CONTROL_TAG = "Sandbox control"
#: Values the error examples are filled with.
EXAMPLE_USER = "user_nobody"
EXAMPLE_JOB = "job_missing"


_TAG_OF = {
    ep.TOKEN.name: "Authentication",
    ep.ACCOUNT.name: "Accounts",
    ep.BALANCE.name: "Accounts",
    ep.IDENTITY_READ.name: "Accounts",
    ep.TRANSACTIONS_READ.name: "Accounts",
    ep.REFRESH.name: "Jobs",
    ep.IDENTITY_START.name: "Jobs",
    ep.TRANSACTIONS_START.name: "Jobs",
    ep.JOB.name: "Jobs",
    ep.MFA_ANSWER.name: "MFA",
    ep.MFA_RESOLVE.name: "MFA",
}
#: What each operation answers when it succeeds: (status, schema name).
_SUCCESS = {
    ep.TOKEN.name: (200, "TokenGrant"),
    ep.ACCOUNT.name: (200, "Account"),
    ep.BALANCE.name: (200, "Balance"),
    ep.REFRESH.name: (202, "Job"),
    ep.MFA_ANSWER.name: (200, "Job"),
    ep.MFA_RESOLVE.name: (200, "Job"),
    ep.IDENTITY_START.name: (202, "Job"),
    ep.IDENTITY_READ.name: (200, "Identity"),
    ep.TRANSACTIONS_START.name: (202, "Job"),
    ep.TRANSACTIONS_READ.name: (200, "Transactions"),
    ep.JOB.name: (200, "Job"),
}
_REQUEST_BODY = {ep.TOKEN.name: "TokenRequest", ep.MFA_ANSWER.name: "MfaAnswer"}
#: Codes an operation may answer beyond the contract: a full training room at
#: sign-in; and an unknown job on resolve, which the contract lists no code for
#: and the sandbox answers like the MFA answer endpoint does (docs/developer/sandbox.md, "Wire
#: format": AC-109 on either).
SANDBOX_EXTRAS: dict[str, tuple[str, ...]] = {
    ep.TOKEN.name: ("AC-929",),
    ep.MFA_RESOLVE.name: ("AC-109",),
}
#: What any request may meet: a body over the limit, a crash of the sandbox, a
#: connection beyond the served sandbox's cap.
EVERY_OPERATION = ("AC-913", "AC-950", "AC-953")
_JOB_PARAMETERS = {"user_id": "$request.path.user_id", "job_id": "$response.body#/job_id"}
#: A job object leads to the job and its MFA operations.
_JOB_LINKS: Json = {
    "GetJob": {"operationId": ep.JOB.name, "parameters": _JOB_PARAMETERS},
    "SubmitMfaAnswer": {"operationId": ep.MFA_ANSWER.name, "parameters": _JOB_PARAMETERS},
    "ResolveMfa": {"operationId": ep.MFA_RESOLVE.name, "parameters": _JOB_PARAMETERS},
}
#: The operations a scenario user is for: the catalogue links each user to them.
_STARTS = (ep.REFRESH, ep.IDENTITY_START, ep.TRANSACTIONS_START)
_BEARER: list[dict[str, list[str]]] = [{"bearerAuth": []}]
_CONTROL_SECURITY: list[dict[str, list[str]]] = [
    {},
    {"bearerAuth": []},
    {"controlToken": []},
    {"bearerAuth": [], "controlToken": []},
]


def _error_responses(codes: Iterable[str], endpoint: ep.Endpoint | None) -> Json:
    """One response per status, listing its codes, each with its exact text as an example."""
    by_status: dict[int, list[str]] = {}
    for code in dict.fromkeys((*codes, *EVERY_OPERATION)):
        by_status.setdefault(spec_of(code).status_for(endpoint), []).append(code)
    responses: Json = {}
    for status, status_codes in sorted(by_status.items()):
        examples = {}
        for code in status_codes:
            spec = spec_of(code)
            body = spec.body_for(endpoint, user_id=EXAMPLE_USER, job_id=EXAMPLE_JOB)
            examples[code] = {"summary": spec.condition, "value": body}
        # Any AC-nnn (ErrorEnvelope's pattern); the known ones as examples only.
        schema = {
            "allOf": [
                _ref("ErrorEnvelope"),
                {"properties": {"error": {"properties": {"code": {"examples": status_codes}}}}},
            ]
        }
        response: Json = {
            "description": "; ".join(
                f"{code}: {spec_of(code).template_for(endpoint)}" for code in status_codes
            ),
            "content": {"application/json": {"schema": schema, "examples": examples}},
        }
        if "AC-108" in status_codes:
            response["headers"] = {
                "Retry-After": {
                    "description": "Whole seconds until the block lifts.",
                    "required": True,
                    "schema": {"type": "integer", "minimum": 1},
                }
            }
        responses[str(status)] = response
    return responses


def _json_body(schema: str, *, required: bool = True) -> Json:
    return {"required": required, "content": {"application/json": {"schema": _ref(schema)}}}


def _path_parameters(endpoint: ep.Endpoint) -> list[Json]:
    return [
        {
            "name": name,
            "in": "path",
            "required": True,
            "schema": USER_ID if name == "user_id" else {"type": "string", "minLength": 1},
            "description": (
                "The sandbox's rule: 1 to 64 of A-Z a-z 0-9 _ . - (not . or ..); "
                "anything else is 400 AC-100."
                if name == "user_id"
                else "A job id from a job start."
            ),
        }
        for name in endpoint.path_parameters
    ]


def _operation(endpoint: ep.Endpoint) -> Json:
    status, schema = _SUCCESS[endpoint.name]
    success: Json = {
        "description": endpoint.summary,
        "content": {"application/json": {"schema": _ref(schema)}},
    }
    if schema == "Job":
        success["links"] = copy.deepcopy(_JOB_LINKS)
    operation: Json = {
        "operationId": endpoint.name,
        "summary": endpoint.summary,
        "tags": [_TAG_OF[endpoint.name]],
        "parameters": _path_parameters(endpoint),
        "responses": {
            str(status): success,
            **_error_responses(
                (*codes_of(endpoint), *SANDBOX_EXTRAS.get(endpoint.name, ())), endpoint
            ),
        },
    }
    if endpoint.name in _REQUEST_BODY:
        operation["requestBody"] = _json_body(_REQUEST_BODY[endpoint.name])
    if endpoint is ep.TOKEN:
        operation["security"] = []
    return operation


#: ``?trainee=NAME`` on a reset or clock move: the trainer acts on one trainee.
_TRAINEE_PARAMETER: Json = {
    "name": "trainee",
    "in": "query",
    "required": False,
    "schema": {"type": "string"},
    "description": "A trainee of the training room (alice or trainee_alice): the trainer's "
    "call, which needs the control token. Unknown: 404 AC-924.",
}


def _control(
    operation_id: str,
    summary: str,
    schema: str,
    codes: tuple[str, ...],
    body: str | None = None,
    *,
    trainee: bool = False,
) -> Json:
    operation: Json = {
        "operationId": operation_id,
        "summary": summary,
        "tags": [CONTROL_TAG],
        "security": _CONTROL_SECURITY,
        "parameters": [_TRAINEE_PARAMETER] if trainee else [],
        "responses": {
            "200": {
                "description": summary,
                "content": {"application/json": {"schema": _ref(schema)}},
            },
            **_error_responses(codes, None),
        },
    }
    if body is not None:
        operation["requestBody"] = _json_body(body)
    return operation


def _scenario_links() -> Json:
    """From the catalogue to each scenario user's job starts (where users come from)."""
    links: Json = {}
    for index, user_id in enumerate(SCENARIO_USERS):
        for start in _STARTS:
            name = "".join(part.title() for part in f"{start.name}_of_{user_id}".split("_"))
            links[name] = {
                "operationId": start.name,
                "parameters": {"user_id": f"$response.body#/users/{index}/user_id"},
                "description": f"{start.summary} ({user_id})",
            }
    return links


def _control_paths() -> Json:
    acting = ("AC-001", "AC-903")
    scenarios = _control("list_scenarios", "The scenario users and credentials.", "Scenarios", ())
    scenarios["responses"]["200"]["links"] = _scenario_links()
    return {
        "/_sandbox/scenarios": {"get": scenarios},
        "/_sandbox/trainees": {
            "get": _control(
                "list_trainees",
                "The training room: every trainee seen, their clock, open jobs and blocks.",
                "Trainees",
                ("AC-903",),
            )
        },
        "/_sandbox/reset": {
            "post": _control(
                "reset_sandbox",
                "Forget jobs, MFA sessions and blocks and rewind the clock; tokens stay. The "
                "shared world's reset resets every trainee too; ?trainee=NAME resets one.",
                "ResetDone",
                (*acting, "AC-924"),
                trainee=True,
            )
        },
        "/_sandbox/clock": {
            "get": _control("read_clock", "The time on the sandbox clock.", "ClockNow", ("AC-001",))
        },
        "/_sandbox/clock/advance": {
            "post": _control(
                "advance_clock",
                "Move the sandbox clock forward (at most 366 days a step, 100 years in all); "
                "?trainee=NAME moves one trainee's.",
                "ClockNow",
                ("AC-100", *acting, "AC-924"),
                body="ClockStep",
                trainee=True,
            )
        },
    }


_DESCRIPTION = f"""\
The Account Data Service's contract (endpoints and every error of its section 7,
with exact statuses and texts) plus the wire format the accountdesk sandbox
chose where the contract shows none.

Every error answer is `{{"error": {{"code": "AC-nnn", "message": "..."}}}}`.
Codes AC-9nn are the sandbox's own (framework answers, body limit, control).
Request bodies are at most {MAX_BODY_BYTES // 1024} KiB (413 AC-913).

Sign in with `POST /token`, then send `Authorization: Bearer <access_token>`.
The `/_sandbox/...` endpoints control the sandbox: they act on the world of the
bearer token given (a trainee's, with tenants) or on the shared world; served
beyond loopback or as a training room, acting on the shared world needs
`X-Sandbox-Control-Token`. So do the trainer's calls: `GET /_sandbox/trainees`,
and a reset or clock move with `?trainee=NAME`.
"""


def openapi_document() -> Json:
    """The OpenAPI 3.1 document, as a new JSON-ready dict on every call."""
    paths: Json = {}
    for endpoint in ep.ALL_ENDPOINTS:
        paths.setdefault(endpoint.path, {})[endpoint.method.lower()] = _operation(endpoint)
    paths.update(_control_paths())
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Account Data Service (accountdesk sandbox)",
            "version": __version__,
            "description": _DESCRIPTION,
        },
        "tags": [
            {"name": "Authentication"},
            {"name": "Accounts"},
            {"name": "Jobs"},
            {"name": "MFA"},
            {"name": CONTROL_TAG, "description": "Outside the contract: the sandbox's own."},
        ],
        "security": _BEARER,
        "paths": paths,
        "components": {
            "schemas": copy.deepcopy(SCHEMAS),
            "securitySchemes": {
                "bearerAuth": {"type": "http", "scheme": "bearer"},
                "controlToken": {
                    "type": "apiKey",
                    "in": "header",
                    "name": CONTROL_TOKEN_HEADER,
                },
            },
        },
    }
