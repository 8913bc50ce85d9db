"""Methods the sandbox answers: HEAD as GET without a body (RFC 9110 9.3.2), and honest Allow headers.

A 405 names every method of the path, whichever route of it the request
met first: ``/accounts/{user_id}/identity`` is both GET (read) and POST
(start).
"""

from __future__ import annotations

import httpx
import pytest
from sandbox_helpers import START, assert_envelope, bearer

from accountdesk.sandbox import FrozenClock, create_app
from accountdesk.sandbox.wire.serving import server_options
from loopback_server import serve_app

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize("path", ["/accounts/user_good", "/accounts/user_good/balance"])
async def test_head_answers_as_get_without_a_body(http: httpx.AsyncClient, path: str) -> None:
    headers = await bearer(http)
    got = await http.get(path, headers=headers)
    head = await http.head(path, headers=headers)
    assert (head.status_code, got.status_code) == (200, 200)
    assert head.content == b""
    assert head.headers["content-type"] == got.headers["content-type"]
    assert head.headers["content-length"] == str(len(got.content))


async def test_head_of_an_error_has_no_body_either(http: httpx.AsyncClient) -> None:
    head = await http.head("/accounts/user_good")  # no token: 403 AC-001
    assert head.status_code == 403 and head.content == b""
    assert int(head.headers["content-length"]) > 0


@pytest.mark.parametrize(
    ("method", "path", "allow"),
    [
        ("OPTIONS", "/accounts/user_good/identity", "GET, HEAD, POST"),
        ("DELETE", "/accounts/user_good/identity", "GET, HEAD, POST"),
        ("PUT", "/accounts/user_good/transactions", "GET, HEAD, POST"),
        ("DELETE", "/accounts/user_good", "GET, HEAD"),
        ("GET", "/token", "POST"),
        ("HEAD", "/accounts/user_good/refresh", "POST"),
        ("POST", "/_sandbox/clock", "GET, HEAD"),
    ],
)
async def test_a_405_allows_every_method_of_the_path(
    http: httpx.AsyncClient, method: str, path: str, allow: str
) -> None:
    answer = await http.request(method, path, headers=await bearer(http))
    if method == "HEAD":
        assert answer.status_code == 405 and answer.content == b""
    else:
        assert_envelope(answer, 405, "AC-905")
    assert answer.headers["allow"] == allow


@pytest.mark.loopback
async def test_head_over_a_real_socket() -> None:
    app = create_app(clock=FrozenClock(START), ids=1)
    with serve_app(app, **server_options("127.0.0.1", 0)) as url:
        async with httpx.AsyncClient(base_url=url) as http:
            headers = await bearer(http)
            got = await http.get("/accounts/user_good", headers=headers)
            head = await http.head("/accounts/user_good", headers=headers)
    assert head.status_code == 200 and head.content == b""
    assert head.headers["content-length"] == str(len(got.content))
