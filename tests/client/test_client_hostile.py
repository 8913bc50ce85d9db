"""Answers outside the contract's shape and failures without an answer."""

from __future__ import annotations

import httpx
import pytest
from client_fakes import API_SECRET, FakeService, envelope, job_body, make_client

from accountdesk.client import (
    AccountDataClient,
    AccountDataError,
    ApiError,
    InvalidBaseUrlError,
    JobConflictError,
    MalformedResponseError,
    TransportError,
)
from accountdesk.client._redact import SecretRegistry, excerpt

HTML = b"<html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1></body></html>"

HOSTILE_ERRORS = {
    "html-from-proxy": (502, HTML, "text/html"),
    "empty": (500, b"", None),
    "truncated-json": (400, b'{"error": {"code": "AC-102", "mess', "application/json"),
    "not-an-envelope": (400, b'{"error": "x"}', "application/json"),
    "code-not-ac": (400, b'{"error": {"code": "XYZ", "message": "nope"}}', "application/json"),
    "code-too-long": (400, b'{"error": {"code": "AC-1020", "message": "m"}}', "application/json"),
    "code-newline": (400, b'{"error": {"code": "AC-102\\n", "message": "m"}}', "application/json"),
    "code-other-digits": (
        400,
        '{"error": {"code": "AC-\u0661\u0660\u0662", "message": "m"}}'.encode(),
        "application/json",
    ),
    "message-null": (400, b'{"error": {"code": "AC-102", "message": null}}', "application/json"),
    "code-wrong-type": (400, b'{"error": {"code": 102, "message": "m"}}', "application/json"),
    "message-wrong-type": (400, b'{"error": {"code": "AC-102", "message": 5}}', "application/json"),
    "json-list": (404, b"[1, 2, 3]", "application/json"),
    "fastapi-detail": (422, b'{"detail": [{"msg": "field required"}]}', "application/json"),
    "redirect": (302, b"", None),
    "no-content": (204, b"", None),
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
@pytest.mark.parametrize("status", [200, 400, 403, 429, 503])
async def test_json_nested_too_deep_to_decode_is_malformed(status: int) -> None:
    nested = b"[" * 100_000 + b"]" * 100_000  # json.loads raises RecursionError on it
    service = FakeService(lambda request: httpx.Response(status, content=nested))
    async with make_client(service) as client:
        with pytest.raises(MalformedResponseError) as caught:
            await client.get_job("user_good", "job_1")  # GET: read by the retry rules too
    assert caught.value.status == status


@pytest.mark.anyio
async def test_envelope_with_extra_fields_is_still_the_service_speaking() -> None:
    body = {"error": {"code": "AC-112", "message": "busy", "trace": "x"}, "request_id": "r1"}
    service = FakeService(lambda request: httpx.Response(409, json=body))
    async with make_client(service) as client:
        with pytest.raises(JobConflictError) as caught:
            await client.start_identity("user_good")
    assert (caught.value.code, caught.value.message) == ("AC-112", "busy")


@pytest.mark.anyio
async def test_redirect_to_another_host_is_not_followed() -> None:
    service = FakeService()
    service.api = lambda request: httpx.Response(
        302, headers={"Location": "http://evil.test/steal"}
    )
    async with make_client(service) as client:
        with pytest.raises(MalformedResponseError) as caught:
            await client.get_account("user_good")
    assert caught.value.status == 302
    # One request, to the service; the token never travelled to evil.test.
    assert [request.url.host for request in service.requests] == ["service.test"] * 2
    assert "evil.test" not in str(caught.value)


@pytest.mark.anyio
async def test_twenty_megabyte_answer_gives_a_short_excerpt() -> None:
    huge = b'{"job_id": ' + b"9" * 20_000_000 + b"}"
    service = FakeService(lambda request: httpx.Response(200, content=huge))
    async with make_client(service) as client:
        with pytest.raises(MalformedResponseError) as caught:
            await client.get_job("user_good", "job_1")
    assert len(caught.value.excerpt) <= 200 and len(str(caught.value)) < 500


@pytest.mark.anyio
async def test_service_echoing_the_token_in_its_message_does_not_leak_it() -> None:
    def api(request: httpx.Request) -> httpx.Response:
        token = request.headers["Authorization"].split()[1]
        return httpx.Response(400, json=envelope("AC-204", f"token {token} / {API_SECRET}"))

    service = FakeService(api)
    async with make_client(service) as client:
        with pytest.raises(ApiError) as caught:
            await client.get_account("user_good")
    err = caught.value
    for text in (str(err), repr(err), err.message, err.detail, err.title):
        assert service.current_token not in text and API_SECRET not in text
    assert err.message.startswith("token [REDACTED]")


@pytest.mark.anyio
@pytest.mark.parametrize(
    "grant",
    [
        {"access_token": "tok-1\r\nX-Injected: yes"},
        {"access_token": "tök-ünïcode"},
        {"access_token": ""},
    ],
    ids=["crlf", "non-ascii", "empty"],
)
async def test_token_that_cannot_be_a_header_is_malformed(grant: dict) -> None:
    service = FakeService(token_handler=lambda request: httpx.Response(200, json=grant))
    async with make_client(service) as client:
        with pytest.raises(MalformedResponseError) as caught:
            await client.get_account("user_good")
    assert service.api_requests == []  # never sent in a header
    assert caught.value.excerpt == ""
    assert grant["access_token"] not in str(caught.value) or grant["access_token"] == ""


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


def test_excerpt_of_a_long_body_never_shows_half_a_secret() -> None:
    # 3,990 blanks collapse to one; the cut at 4,000 bytes halves the token,
    # which then no exact match would find.
    body = b"oops" + b" " * 3990 + b"tok-abcdef-0123456789 more text"
    text = excerpt(body, SecretRegistry("tok-abcdef-0123456789"))
    assert "tok-" not in text and text == "oops"


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
    [
        "service.test",
        "ftp://service.test",
        "http://",
        "http://u:p@service.test",
        "http://h/?q=1",
        "",
    ],
)
def test_bad_base_url_is_refused(url: str) -> None:
    with pytest.raises(InvalidBaseUrlError):
        AccountDataClient(url, "k", "s")


def test_base_url_is_normalised() -> None:
    client = make_client(FakeService())
    assert client.base_url == "http://service.test"
