"""The OpenAPI 3.1 document: valid, generated from the catalogue, served with a page."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser

import httpx
import pytest
from openapi_spec_validator import validate

from accountdesk.contract import (
    ALL_ENDPOINTS,
    ENDPOINT_ERRORS,
    SANDBOX_CODES,
    codes_of,
    endpoint_error_pairs,
    endpoints,
)
from accountdesk.sandbox import openapi_document
from accountdesk.sandbox.wire.openapi import CONTROL_TAG, EXAMPLE_JOB, EXAMPLE_USER, SANDBOX_EXTRAS


@pytest.fixture(scope="module")
def document() -> dict:
    return openapi_document()


def _operation(document: dict, endpoint) -> dict:
    return document["paths"][endpoint.path][endpoint.method.lower()]


def test_the_document_is_valid_openapi_3_1(document: dict) -> None:
    assert document["openapi"] == "3.1.0"
    validate(document)


def test_every_contract_endpoint_is_an_operation_and_nothing_else_is_outside_control(
    document: dict,
) -> None:
    operations = {
        (method.upper(), path): operation
        for path, methods in document["paths"].items()
        for method, operation in methods.items()
    }
    contract = {(endpoint.method, endpoint.path) for endpoint in ALL_ENDPOINTS}
    assert contract <= set(operations)
    for key, operation in operations.items():
        is_control = key[1].startswith("/_sandbox/")
        assert is_control == (key not in contract), key
        assert (operation["tags"] == [CONTROL_TAG]) == is_control, key
    assert {key for key in operations if key not in contract} == {
        ("GET", "/_sandbox/scenarios"),
        ("GET", "/_sandbox/trainees"),
        ("POST", "/_sandbox/reset"),
        ("GET", "/_sandbox/clock"),
        ("POST", "/_sandbox/clock/advance"),
    }


@pytest.mark.parametrize(
    ("endpoint", "spec"),
    endpoint_error_pairs(),
    ids=[f"{e.name}-{s.code}" for e, s in endpoint_error_pairs()],
)
def test_every_error_of_section_7_2_has_its_exact_status_and_text(
    document: dict, endpoint, spec
) -> None:
    response = _operation(document, endpoint)["responses"][str(spec.status_for(endpoint))]
    content = response["content"]["application/json"]
    example = content["examples"][spec.code]["value"]
    assert example == spec.body_for(endpoint, user_id=EXAMPLE_USER, job_id=EXAMPLE_JOB)
    assert (
        spec.code
        in content["schema"]["allOf"][1]["properties"]["error"]["properties"]["code"]["examples"]
    )


def test_no_operation_lists_a_code_the_contract_does_not_give_it(document: dict) -> None:
    for endpoint in ALL_ENDPOINTS:
        listed = {
            code
            for status, response in _operation(document, endpoint)["responses"].items()
            if int(status) >= 400
            for code in response["content"]["application/json"]["examples"]
        }
        extra = listed - set(codes_of(endpoint))
        decided = set(SANDBOX_EXTRAS.get(endpoint.name, ()))
        assert extra - decided <= set(SANDBOX_CODES), (endpoint.name, extra)
        # Every operation may meet the body limit, a crash and the connection cap.
        assert {"AC-913", "AC-950", "AC-953"} <= extra
    # The one service code used beyond the contract, as the manual records (docs/developer/sandbox.md).
    assert SANDBOX_EXTRAS["resolve_mfa"] == ("AC-109",)
    # Rule 2 of 7.3 gives balance the AC-102 its row of 7.2 leaves out.
    assert set(codes_of(endpoints.BALANCE)) == {*ENDPOINT_ERRORS["get_balance"], "AC-102"}


def test_job_starts_link_to_the_job_and_its_mfa(document: dict) -> None:
    operation_ids = {
        operation["operationId"]
        for methods in document["paths"].values()
        for operation in methods.values()
    }
    for endpoint in ALL_ENDPOINTS:
        if endpoint.method == "POST" and endpoint.path.endswith(
            ("/refresh", "/identity", "/transactions")
        ):
            links = _operation(document, endpoint)["responses"]["202"]["links"]
            assert {link["operationId"] for link in links.values()} == {
                "get_job",
                "submit_mfa",
                "resolve_mfa",
            }
            assert {link["operationId"] for link in links.values()} <= operation_ids
            for link in links.values():
                assert link["parameters"] == {
                    "user_id": "$request.path.user_id",
                    "job_id": "$response.body#/job_id",
                }


def test_security_is_bearer_except_for_the_token(document: dict) -> None:
    schemes = document["components"]["securitySchemes"]
    assert schemes["bearerAuth"] == {"type": "http", "scheme": "bearer"}
    assert schemes["controlToken"]["name"] == "X-Sandbox-Control-Token"
    assert document["security"] == [{"bearerAuth": []}]
    assert document["paths"]["/token"]["post"]["security"] == []
    refresh = document["paths"]["/accounts/{user_id}/refresh"]["post"]["responses"]["429"]
    assert refresh["headers"]["Retry-After"]["required"] is True


def test_each_call_gives_a_fresh_document(document: dict) -> None:
    document["paths"].clear()
    assert openapi_document()["paths"]


class _Resources(HTMLParser):
    """Every URL an HTML page would load or link to, and every script tag."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []
        self.scripts = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.scripts += tag == "script"
        self.urls += [value or "" for name, value in attrs if name in {"src", "href", "srcset"}]


@pytest.mark.anyio
async def test_served_document_and_self_contained_page(http: httpx.AsyncClient) -> None:
    schema = await http.get("/openapi.json")
    assert schema.status_code == 200 and schema.headers["content-type"] == "application/json"
    assert schema.json() == json.loads(json.dumps(openapi_document()))
    page = await http.get("/docs")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert page.headers["content-security-policy"].startswith("default-src 'none'")
    found = _Resources()
    found.feed(page.text)
    assert found.scripts == 0
    assert all(url.startswith(("/", "#")) for url in found.urls), found.urls
    assert not re.search(r"(?i)(https?:)?//[a-z0-9]", page.text.replace("'/openapi.json'", ""))
    for endpoint in ALL_ENDPOINTS:
        assert f"id='{endpoint.name}'" in page.text
    assert "blockd" in page.text  # the examples carry the exact texts


def test_the_trainers_calls_are_documented() -> None:
    document = openapi_document()  # the shared one had its paths cleared above
    trainees = document["paths"]["/_sandbox/trainees"]["get"]
    assert {"controlToken": []} in trainees["security"]
    assert "AC-903" in trainees["responses"]["403"]["content"]["application/json"]["examples"]
    schema = document["components"]["schemas"]["Trainees"]
    row = schema["properties"]["trainees"]["items"]
    assert {"name", "first_request", "last_request", "clock", "open_jobs", "blocks"} <= set(
        row["required"]
    )
    for path in ("/_sandbox/reset", "/_sandbox/clock/advance"):
        operation = document["paths"][path]["post"]
        [parameter] = [p for p in operation["parameters"] if p["name"] == "trainee"]
        assert parameter["in"] == "query" and parameter["required"] is False
        examples = operation["responses"]["404"]["content"]["application/json"]["examples"]
        assert examples["AC-924"]["value"] == SANDBOX_CODES["AC-924"].body_for(None)


@pytest.mark.anyio
async def test_the_trainees_answer_follows_its_schema() -> None:
    from accountdesk.sandbox import FrozenClock, create_app

    app = create_app(clock=FrozenClock(), tenants=True, job_seconds=600)
    transport = httpx.ASGITransport(app)
    async with httpx.AsyncClient(transport=transport, base_url="http://sandbox") as http:
        grant = await http.post(
            "/token", json={"api_key": "trainee_alice", "api_secret": "sandbox_secret"}
        )
        headers = {"Authorization": f"Bearer {grant.json()['access_token']}"}
        job_id = (await http.post("/accounts/user_mfa/refresh", headers=headers)).json()["job_id"]
        for _ in range(3):
            await http.post(
                f"/accounts/user_mfa/mfa/{job_id}", headers=headers, json={"answer": "0"}
            )
            await http.post(f"/accounts/user_mfa/mfa/{job_id}/resolve", headers=headers)
        body = (await http.get("/_sandbox/trainees")).json()
    assert body["trainees"][0]["blocks"]
    schema = openapi_document()["components"]["schemas"]["Trainees"]
    assert set(body) == set(schema["required"]) == set(schema["properties"])
    row_schema = schema["properties"]["trainees"]["items"]
    [row] = body["trainees"]
    assert set(row) == set(row_schema["required"]) == set(row_schema["properties"])
    block_schema = row_schema["properties"]["blocks"]["items"]
    assert set(row["blocks"][0]) == set(block_schema["required"])
