"""Answers outside the contract's shape and failures without an answer."""

from __future__ import annotations

import httpx
import pytest
from client_fakes import API_SECRET, FakeService, job_body, make_client

from accountdesk.client import (
    AccountDataClient,
    AccountDataError,
    ApiError,
    InvalidBaseUrlError,
    MalformedResponseError,
    TransportError,
)

HTML = b"<html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1></body></html>"

HOSTILE_ERRORS = {
    "html-from-proxy": (502, HTML, "text/html"),
    "empty": (500, b"", None),
    "truncated-json": (400, b'{"error": {"code": "AC-102", "mess', "application/json"),
    "not-an-envelope": (400, b'{"error": "x"}', "application/json"),
    "code-not-ac": (400, b'{"error": {"code": "XYZ", "message": "nope"}}', "application/json"),
    "code-too-long": (400, b'{"error": {"code": "AC-1020", "message": "m"}}', "application/json"),
    "code-wrong-type": (400, b'{"error": {"code": 102, "message": "m"}}', "application/json"),
    "message-wrong-type": (400, b'{"error": {"code": "AC-102", "message": 5}}', "application/json"),
    "json-list": (404, b"[1, 2, 3]", "application/json"),
    "fastapi-detail": (422, b'{"detail": [{"msg": "field required"}]}', "application/json"),
    "redirect": (302, b"", None),
}

HOSTILE_SUCCESSES = {
    "html": b"<html>maintenance</html>",
    "empty": b"",
    "truncated": b'{"job_id": "job_1", "status": "pend',
    "wrong-types": b'{"job_id": ["x"], "status": 3}',
    "missing-job-id": b'{"status": "pending"}',
    "list": b"[]",
    "null": b"null",
}


def _answer(status: int, body: bytes, content_type: str | None) -> httpx.Response:
    headers = {"Content-Type": content_type} if content_type else {}
    return httpx.Response(status, content=body, headers=headers)


@pytest.mark.anyio
@pytest.mark.parametrize("case", sorted(HOSTILE_ERRORS))
async def test_hostile_error_bodies_are_malformed_not_api_errors(case: str) -> None:
    status, body, content_type = HOSTILE_ERRORS[case]
    # POST so that a 5xx is not retried and the first answer is the one we see.
    service = FakeService(lambda request: _answer(status, body, content_type))
    async with make_client(service) as client:
        with pytest.raises(MalformedResponseError) as caught:
            await client.refresh_balance("user_good")
    err = caught.value
    assert not isinstance(err, ApiError)
    assert err.code is None and err.status == status
    assert len(err.excerpt) <= 200
    assert (err.method, err.path) == ("POST", "/accounts/user_good/refresh")
    assert err.title and "POST /accounts/user_good/refresh" in err.detail


@pytest.mark.anyio
@pytest.mark.parametrize("case", sorted(HOSTILE_SUCCESSES))
async def test_hostile_success_bodies_are_malformed(case: str) -> None:
    body = HOSTILE_SUCCESSES[case]
    service = FakeService(lambda request: httpx.Response(202, content=body))
    async with make_client(service) as client:
        with pytest.raises(MalformedResponseError) as caught:
            await client.refresh_balance("user_good")
    assert caught.value.status == 202 and caught.value.code is None


@pytest.mark.anyio
async def test_excerpt_is_short_and_never_echoes_credentials() -> None:
    service = FakeService()
    token_seen: list[str] = []

    def api(request: httpx.Request) -> httpx.Response:
        token = request.headers["Authorization"].split()[1]
        token_seen.append(token)
        page = (
            f"<html>debug: secret={API_SECRET} auth={token} "
            f"Authorization: Bearer {token} account 123456789012 routing 021000021 "
            + "x" * 500
            + "</html>"
        )
        return httpx.Response(503, text=page, headers={"Content-Type": "text/html"})

    service.api = api
    async with make_client(service) as client:
        with pytest.raises(MalformedResponseError) as caught:
            await client.start_identity("user_good")
    err = caught.value
    assert len(err.excerpt) <= 200
    for text in (err.excerpt, err.detail, str(err), repr(err)):
        assert API_SECRET not in text
        assert token_seen[0] not in text
        assert "123456789012" not in text and "021000021" not in text
    assert "debug" in err.excerpt


@pytest.mark.anyio
async def test_malformed_token_grant_does_not_echo_the_token() -> None:
    leaked = "tok-leaky-9f8e7d6c5b4a"
    service = FakeService(
        token_handler=lambda request: httpx.Response(
            200, content=b'{"access_token": "' + leaked.encode() + b'", "expires_in": "soon"'
        )
    )
    async with make_client(service) as client:
        with pytest.raises(MalformedResponseError) as caught:
            await client.sign_in()
    assert leaked not in caught.value.excerpt and leaked not in str(caught.value)
    assert caught.value.path == "/token"


@pytest.mark.anyio
async def test_empty_access_token_is_malformed() -> None:
    service = FakeService(token_handler=lambda r: httpx.Response(200, json={"access_token": " "}))
    async with make_client(service) as client:
        with pytest.raises(MalformedResponseError):
            await client.sign_in()


@pytest.mark.anyio
async def test_unknown_fields_are_kept_and_raw_is_available() -> None:
    body = job_body(status="in_progress", progress=0.5)
    service = FakeService(lambda request: httpx.Response(200, json=body))
    async with make_client(service) as client:
        job = await client.get_job("user_good", "job_1")
    assert job.model_extra == {"progress": 0.5}
    assert job.raw == body


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("failure", "reason"),
    [
        (httpx.ConnectError("[Errno 111] Connection refused"), "connect"),
        (httpx.ConnectError("[Errno -2] Name or service not known"), "connect"),
        (httpx.ConnectTimeout("timed out"), "timeout"),
        (httpx.ReadTimeout("timed out"), "timeout"),
        (httpx.RemoteProtocolError("Server disconnected without sending a response."), "network"),
        (httpx.ReadError("[Errno 104] Connection reset by peer"), "network"),
    ],
)
async def test_transport_failures_raise_transport_error(failure: Exception, reason: str) -> None:
    def api(request: httpx.Request) -> httpx.Response:
        raise failure

    service = FakeService(api)
    async with make_client(service) as client:
        with pytest.raises(TransportError) as caught:
            await client.get_balance("user_good")
    err = caught.value
    assert err.reason == reason and err.code is None
    assert not isinstance(err, ApiError) and isinstance(err, AccountDataError)
    assert isinstance(err.__cause__, httpx.TransportError)
    assert (err.method, err.path) == ("GET", "/accounts/user_good/balance")
    assert err.title


@pytest.mark.anyio
async def test_transport_failure_on_token_surfaces_from_sign_in() -> None:
    def refuse(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("refused")

    service = FakeService(token_handler=refuse)
    async with make_client(service) as client:
        with pytest.raises(TransportError) as caught:
            await client.sign_in()
    assert caught.value.reason == "connect" and caught.value.path == "/token"
    assert service.token_requests == 3  # connect failures are retried on POST too


@pytest.mark.parametrize(
    "url",
    ["service.test", "ftp://service.test", "http://", "http://u:p@service.test", "http://h/?q=1", ""],
)
def test_bad_base_url_is_refused(url: str) -> None:
    with pytest.raises(InvalidBaseUrlError):
        AccountDataClient(url, "k", "s")


def test_base_url_is_normalised() -> None:
    client = make_client(FakeService())
    assert client.base_url == "http://service.test"
