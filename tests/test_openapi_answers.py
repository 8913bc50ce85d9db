"""Everything the sandbox answers is in its OpenAPI document, found by asking it, not by a list.

For every operation of the contract and every code of the catalogue (the
service's, the unlisted ones and the sandbox's own), the sandbox is driven
the way that code is provoked (:mod:`provoke`) and whatever error comes back
must be documented for that operation: its status as a response, its code
allowed by that response's schema and shown among its examples. A code the
sandbox can answer where the contract's table 7.2 does not list it (the
404 ``AC-102`` of ``GET /accounts/{user_id}/balance``, rule 2 of 7.3) is found
this way; a generated client reads nothing for an undocumented status.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from accountdesk.contract import (
    ALL_ENDPOINTS,
    CODE_PATTERN,
    ERRORS,
    SANDBOX_CODES,
    UNLISTED_CODES,
    Endpoint,
    codes_of,
)
from accountdesk.sandbox import openapi_document
from provoke import NOT_PROVOKED, answer_to, provocation

pytestmark = pytest.mark.anyio

CATALOGUE = sorted({*ERRORS, *UNLISTED_CODES, *SANDBOX_CODES})
DOCUMENT = openapi_document()


def _resolve(schema: dict[str, Any]) -> dict[str, Any]:
    ref = schema.get("$ref")
    if ref is None:
        return schema
    name = ref.removeprefix("#/components/schemas/")
    return _resolve(DOCUMENT["components"]["schemas"][name])


def _code_schemas(schema: dict[str, Any]) -> list[dict[str, Any]]:
    """Every schema that constrains ``error.code`` in a response schema (allOf walked)."""
    schema = _resolve(schema)
    found = []
    for part in schema.get("allOf", []):
        found += _code_schemas(part)
    code = schema.get("properties", {}).get("error", {})
    code = _resolve(code).get("properties", {}).get("code")
    if code is not None:
        found.append(_resolve(code))
    return found


def code_is_allowed(schema: dict[str, Any], code: str) -> bool:
    constraints = _code_schemas(schema)
    return bool(constraints) and all(
        code in constraint.get("enum", [code])
        and re.search(constraint.get("pattern", ""), code) is not None
        for constraint in constraints
    )


def documented(endpoint: Endpoint, status: int, code: str) -> str | None:
    """Why ``status`` + ``code`` is not documented for ``endpoint``, or None."""
    operation = DOCUMENT["paths"][endpoint.path][endpoint.method.lower()]
    response = operation["responses"].get(str(status))
    if response is None:
        return f"no {status} response"
    content = response["content"]["application/json"]
    if not code_is_allowed(content["schema"], code):
        return f"{status}'s schema refuses {code}"
    if code not in content.get("examples", {}):
        return f"{code} is not among the {status} examples"
    return None


@pytest.mark.parametrize("endpoint", ALL_ENDPOINTS, ids=[e.name for e in ALL_ENDPOINTS])
async def test_every_answer_of_the_sandbox_is_documented(endpoint: Endpoint) -> None:
    answered: dict[tuple[int, str], str] = {}
    for code in CATALOGUE:
        if code in NOT_PROVOKED:
            continue
        answer = await answer_to(endpoint, provocation(code, endpoint))
        if answer.status_code >= 400:
            got = answer.json()["error"]["code"]
            answered.setdefault((answer.status_code, got), code)
    missing = [
        f"{status} {code} (provoking {tried}): {why}"
        for (status, code), tried in sorted(answered.items())
        if (why := documented(endpoint, status, code)) is not None
    ]
    assert not missing, "\n".join(missing)
    # The provocations reach what the contract's table lists for this endpoint.
    assert {code for _, code in answered} >= set(codes_of(endpoint))


def test_every_catalogue_code_is_provoked_or_says_why_not() -> None:
    for code in CATALOGUE:
        if code not in NOT_PROVOKED:
            provocation(code, ALL_ENDPOINTS[0])


def test_error_codes_are_a_pattern_with_examples_not_a_closed_set() -> None:
    # Contract 7.1: other AC-nnn codes may come (AC-204 is named); a client
    # generated from the document must not refuse them.
    for path, methods in DOCUMENT["paths"].items():
        for method, operation in methods.items():
            for status, response in operation["responses"].items():
                if int(status) < 400:
                    continue
                content = response["content"]["application/json"]
                where = f"{method.upper()} {path} {status}"
                for code in ("AC-204", "AC-999"):
                    assert code_is_allowed(content["schema"], code), where
                assert not code_is_allowed(content["schema"], "AC-1000"), where
                assert not code_is_allowed(content["schema"], "XX-100"), where
                assert content["examples"], where
                assert all(CODE_PATTERN.match(code) for code in content["examples"]), where
