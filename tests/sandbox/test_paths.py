"""Hostile path segments: an id never escapes its segment or reaches other data.

Requests go both through httpx (ids encoded the way the client encodes them,
``quote(id, safe="")``) and straight into the ASGI app with a hand-made
``raw_path``, which is what a server passes on for ``curl --path-as-is``.
"""

from __future__ import annotations

import json
from urllib.parse import quote, unquote

import httpx
import pytest
from sandbox_helpers import assert_envelope, bearer
from starlette.applications import Starlette

from accountdesk.contract import ERRORS
from accountdesk.contract import endpoints as ep
from accountdesk.sandbox.wire.middleware import routing_path, segment_value

HOSTILE_IDS = [
    "../x",
    "a/b",
    "a?b",
    "%2F",
    " ",
    "user_good/balance",
    "user_good?x=1",
    "user_good#x",
    "..%2Fuser_good",
    "user good",
    "ü",
    "a" * 65,
    "\t",
    "user_good\n",
    "%00",
]
USER_ENDPOINTS = [endpoint for endpoint in ep.ALL_ENDPOINTS if endpoint is not ep.TOKEN]


def _path(endpoint: ep.Endpoint, user_id: str, job_id: str = "job_x") -> str:
    return endpoint.path.format(user_id=quote(user_id, safe=""), job_id=quote(job_id, safe=""))


@pytest.mark.anyio
@pytest.mark.parametrize("user_id", HOSTILE_IDS)
async def test_hostile_user_ids_answer_ac_100_on_every_endpoint(
    http: httpx.AsyncClient, user_id: str
) -> None:
    headers = await bearer(http)
    for endpoint in USER_ENDPOINTS:
        answer = await http.request(
            endpoint.method, _path(endpoint, user_id), headers=headers, json={"answer": "1234"}
        )
        error = assert_envelope(answer, 400, "AC-100")
        assert error["message"] == ERRORS["AC-100"].message_for(endpoint), endpoint


@pytest.mark.anyio
@pytest.mark.parametrize("user_id", [".", ".."])
async def test_dot_segments_never_reach_data(http: httpx.AsyncClient, user_id: str) -> None:
    # httpx itself folds "." and ".." away (the client refuses them before
    # that); whatever reaches the sandbox must be an error envelope.
    headers = await bearer(http)
    for endpoint in USER_ENDPOINTS:
        answer = await http.request(endpoint.method, _path(endpoint, user_id), headers=headers)
        assert answer.status_code >= 400
        assert_envelope(answer, answer.status_code, answer.json()["error"]["code"])


@pytest.mark.anyio
@pytest.mark.parametrize("job_id", ["../../token", "a/b", "job_0001/resolve", "%2F", " "])
async def test_hostile_job_ids_are_just_unknown_jobs(http: httpx.AsyncClient, job_id: str) -> None:
    headers = await bearer(http)
    assert (
        await http.post("/accounts/user_mfa/refresh", headers=headers)
    ).status_code == 202  # job_0001
    for endpoint in (ep.MFA_ANSWER, ep.MFA_RESOLVE, ep.JOB):
        answer = await http.request(
            endpoint.method,
            _path(endpoint, "user_mfa", job_id),
            headers=headers,
            json={"answer": "1"},
        )
        error = assert_envelope(answer, 404, "AC-109")
        assert error["message"] == ERRORS["AC-109"].message_for(
            endpoint, user_id="user_mfa", job_id=job_id
        )


async def _raw_asgi(
    app: Starlette, method: str, raw_path: bytes, headers: dict[str, str]
) -> tuple[int, dict]:
    """Call the app the way a server would: ``path`` decoded, ``raw_path`` as sent."""
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": unquote(raw_path.decode("ascii")),
        "raw_path": raw_path,
        "query_string": b"",
        "root_path": "",
        "headers": [(k.lower().encode(), v.encode()) for k, v in headers.items()],
        "client": ("127.0.0.1", 1),
        "server": ("sandbox", 80),
    }
    sent: list[dict] = []

    async def receive() -> dict:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict) -> None:
        sent.append(message)

    await app(scope, receive, send)
    status = sent[0]["status"]
    body = b"".join(message.get("body", b"") for message in sent[1:])
    return status, json.loads(body)


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("raw_path", "code"),
    [
        (b"/accounts/../balance", "AC-100"),
        (b"/accounts/./balance", "AC-100"),
        (b"/accounts/%2E%2E/balance", "AC-100"),
        (b"/accounts/..%2Fuser_good/balance", "AC-100"),
        (b"/accounts/user_good%2Fbalance", "AC-100"),
        (b"/accounts/user_mfa%2Fidentity", "AC-100"),
        (b"/accounts//balance", "AC-100"),
        (b"/accounts/", "AC-100"),
        (b"/accounts%2Fuser_good", "AC-904"),
        (b"/accounts/user_good/job/..%2F..%2Ftoken", "AC-109"),
        (b"/accounts/user_good/balance%0A", "AC-904"),
        (b"/accounts/user_good%0A/balance", "AC-100"),
        (b"/accounts/user_good/job/job_x%0A", "AC-109"),
    ],
)
async def test_raw_paths_from_a_server(app: Starlette, raw_path: bytes, code: str) -> None:
    transport = httpx.ASGITransport(app)
    async with httpx.AsyncClient(transport=transport, base_url="http://sandbox") as http:
        headers = await bearer(http)
    status, body = await _raw_asgi(app, "GET", raw_path, headers)
    assert body["error"]["code"] == code, body
    assert status in (400, 404)


def test_routing_path_keeps_every_segment_in_place() -> None:
    assert routing_path(b"/accounts/user_good/balance") == "/accounts/user_good/balance"
    assert routing_path(b"/accounts/a%2Fb/balance") == "/accounts/a%2Fb/balance"
    assert routing_path(b"/accounts/100%25/balance") == "/accounts/100%25/balance"
    assert routing_path(b"/accounts/%61bc") == "/accounts/abc"
    assert routing_path(b"/accounts//balance") == "/accounts/%00/balance"
    assert routing_path(b"/token") == "/token"
    assert routing_path(b"/token%0A") == "/token%0A"  # "$" in a route would match before "\n"
    pairs = {
        "a%2Fb": "a/b",
        "100%25": "100%",
        "%00": "",
        "%2500": "%00",
        "abc": "abc",
        "x%0A": "x\n",
    }
    for routed, value in pairs.items():
        assert segment_value(routed) == value
