"""Secrets never reach reprs or log records; the client imports no UI or web framework."""

from __future__ import annotations

import json
import logging
import subprocess
import sys

import httpx
import pytest
from client_fakes import API_KEY, API_SECRET, FakeService, job_body, make_client

from accountdesk.client import (
    REDACTED,
    AccountDataClient,
    MalformedResponseError,
    NotAuthorizedError,
    RedactingFilter,
    redact,
)
from accountdesk.contract import ERRORS


def _full_service() -> FakeService:
    def api(request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/balance"):
            return httpx.Response(503, text="busy")  # retried, then logged as failures
        if request.method == "POST":
            return httpx.Response(202, json=job_body())
        return httpx.Response(200, json={"user_id": "user_good", "account_number": "123456789012"})

    return FakeService(api)


@pytest.mark.anyio
async def test_debug_logs_of_a_full_session_never_show_secret_or_token(caplog) -> None:
    caplog.set_level(logging.DEBUG)
    service = _full_service()
    async with make_client(service) as client:
        await client.sign_in()
        await client.get_account("user_good")
        await client.refresh_balance("user_good")
        await client.submit_mfa("user_good", "job_1", "1234")
        with pytest.raises(MalformedResponseError):
            await client.get_balance("user_good")
        # the service revokes the token; the renewal is logged too
        service.token_requests += 1
        service.api = lambda request: httpx.Response(403, json=ERRORS["AC-001"].body_for())
        with pytest.raises(NotAuthorizedError):
            await client.get_account("user_good")
    tokens = [f"tok-abcdef-0123456789-{n}" for n in range(1, service.token_requests + 1)]
    assert caplog.records, "the client logs each request at DEBUG"
    text = "\n".join(record.getMessage() for record in caplog.records)
    assert "GET /accounts/user_good -> 200" in text
    assert "POST /token -> 200" in text
    assert API_SECRET not in text
    for token in tokens:
        assert token not in text
    assert "123456789012" not in text  # nor the account number of an answer
    assert "1234" not in text  # nor the MFA answer
    client_records = [r for r in caplog.records if r.name == "accountdesk.client"]
    assert all(r.levelno == logging.DEBUG for r in client_records)


def test_filter_redacts_authorization_headers_and_token_fields() -> None:
    record = logging.LogRecord(
        "accountdesk.client",
        logging.DEBUG,
        __file__,
        1,
        "sent %s with %s",
        ("Authorization: Bearer abc", '{"access_token": "tok-xyz", "api_secret": "pw"}'),
        None,
    )
    assert RedactingFilter().filter(record) is True  # never drops a record
    message = record.getMessage()
    assert "abc" not in message and "tok-xyz" not in message and '"pw"' not in message
    assert message.count(REDACTED) == 3
    assert message.startswith("sent Authorization: ")


def test_filter_hides_client_and_extra_secrets_and_exception_text() -> None:
    client = AccountDataClient("http://service.test", API_KEY, "registered-secret-42")
    try:
        raise RuntimeError("boom registered-secret-42 and extra-secret-77")
    except RuntimeError:
        record = logging.LogRecord(
            "app", logging.ERROR, __file__, 1, "failed: registered-secret-42", None, sys.exc_info()
        )
    RedactingFilter(secrets=["extra-secret-77"], registries=[client.secret_registry]).filter(record)
    assert "registered-secret-42" not in record.getMessage()
    assert "registered-secret-42" not in record.exc_text
    assert "extra-secret-77" not in record.exc_text
    assert "RuntimeError" in record.exc_text


def _record(message: str) -> logging.LogRecord:
    return logging.LogRecord("app", logging.INFO, __file__, 1, message, None, None)


def test_default_filter_covers_every_live_client() -> None:
    client = AccountDataClient("http://service.test", API_KEY, "live-client-secret-1")
    record = _record("echo live-client-secret-1")
    RedactingFilter().filter(record)
    assert record.getMessage() == f"echo {REDACTED}"
    assert client.secret_registry  # kept alive until here


def test_each_client_owns_its_registry() -> None:
    first = AccountDataClient("http://service.test", API_KEY, "first-client-secret")
    second = AccountDataClient("http://service.test", API_KEY, "second-client-secret")
    record = _record("first-client-secret second-client-secret")
    RedactingFilter(registries=[first.secret_registry]).filter(record)
    assert record.getMessage() == f"{REDACTED} second-client-secret"
    watching = RedactingFilter(registries=[])
    watching.watch(second.secret_registry)
    record = _record("first-client-secret second-client-secret")
    watching.filter(record)
    assert record.getMessage() == f"first-client-secret {REDACTED}"
    assert "second-client-secret" not in repr(second.secret_registry)


@pytest.mark.anyio
async def test_registry_keeps_only_the_current_and_previous_token() -> None:
    service = FakeService()
    async with make_client(service) as client:
        for _ in range(3):
            await client.sign_in()
    registry = client.secret_registry
    tokens = [f"tok-abcdef-0123456789-{n}" for n in (1, 2, 3)]
    assert registry.hide(tokens[0]) == tokens[0]  # dropped out after two renewals
    assert registry.hide(tokens[1]) == REDACTED and registry.hide(tokens[2]) == REDACTED
    assert registry.hide(API_SECRET) == REDACTED
    assert len(registry) == 3  # the secret and two tokens, however long the session


@pytest.mark.anyio
async def test_short_secrets_do_not_mangle_messages() -> None:
    # Issue: a one-character secret turned "attempt" into "attemp[REDACTED]".
    record = _record("retry attempt 2 of 3")
    RedactingFilter(secrets=["t"]).filter(record)
    assert record.getMessage() == "retry attempt 2 of 3"

    def api(request: httpx.Request) -> httpx.Response:
        return httpx.Response(400, json={"error": {"code": "AC-204", "message": "attempt"}})

    service = FakeService(api)
    transport = service.transport()
    async with AccountDataClient(
        "http://service.test", API_KEY, "t", transport=transport
    ) as client:
        with pytest.raises(Exception) as caught:
            await client.get_account("user_good")
    assert caught.value.message == "attempt"
    assert client.secret_registry.hide("attempt") == "attempt"


@pytest.mark.anyio
async def test_short_secret_in_a_body_drops_the_excerpt() -> None:
    service = FakeService(lambda request: httpx.Response(502, text="<html>key xyz</html>"))
    async with AccountDataClient(
        "http://service.test", API_KEY, "xyz", transport=service.transport(), max_attempts=1
    ) as client:
        with pytest.raises(MalformedResponseError) as caught:
            await client.get_account("user_good")
    assert caught.value.excerpt == "" and "xyz" not in str(caught.value)


def test_filter_masks_account_numbers_in_messages_and_tracebacks() -> None:
    try:
        raise ValueError("account 4820193756 refused")
    except ValueError:
        record = logging.LogRecord(
            "app", logging.ERROR, __file__, 1, "lookup %s", ("021000021",), sys.exc_info()
        )
    RedactingFilter(registries=[]).filter(record)
    assert record.getMessage() == "lookup ••••21"
    assert "4820193756" not in record.exc_text and "••••56" in record.exc_text
    short = _record("job_12345 took 250 ms")
    RedactingFilter(registries=[]).filter(short)
    assert short.getMessage() == "job_12345 took 250 ms"  # five digits: not a number to hide


@pytest.mark.parametrize(
    "kept",
    [
        "job job_407dd850b1234518 (transactions) started for user_good",  # the sandbox's ids
        "AC-109: Job job_1234567957a3a03f not found",
        "trace 9a123456789b0c1d0e2f",
    ],
)
def test_filter_leaves_hex_ids_whole(kept: str) -> None:
    # A job id is what a support person quotes to the service: digits inside a
    # hex id are not an account number, and a masked id cannot be found.
    record = _record(kept)
    RedactingFilter(registries=[]).filter(record)
    assert record.getMessage() == kept


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("iban GB29NWBK60161331926819 refused", "iban GB29NWBK••••19 refused"),
        ("ref 4820193756xyz", "ref ••••56xyz"),  # letters, but not a hex id
        ("number 482019375612", "number ••••12"),  # hex-shaped but digits only
    ],
)
def test_filter_still_masks_numbers_next_to_ids(text: str, shown: str) -> None:
    record = _record(text)
    RedactingFilter(registries=[]).filter(record)
    assert record.getMessage() == shown


def test_filter_is_attached_to_the_client_logger_and_works_on_handlers(caplog) -> None:
    logger = logging.getLogger("accountdesk.client")
    assert any(isinstance(f, RedactingFilter) for f in logger.filters)
    caplog.set_level(logging.DEBUG)
    logger.debug("header Authorization: Bearer abc")
    assert caplog.records[-1].getMessage() == f"header Authorization: {REDACTED}"
    # A handler filter covers other loggers too (the app's file handler).
    handler = logging.Handler()
    handler.addFilter(RedactingFilter())
    other = logging.LogRecord("textual", logging.INFO, __file__, 1, "bearer eyJabc.def", None, None)
    assert handler.filter(other) and other.getMessage() == f"bearer {REDACTED}"


@pytest.mark.parametrize(
    "text",
    [
        "Authorization: Bearer abc",
        "{'authorization': 'Bearer abc'}",
        '"access_token":"abc"',
        "api_secret=abc&x=1",
        "Bearer abc",
    ],
)
def test_redact_patterns(text: str) -> None:
    assert "abc" not in redact(text)


def test_repr_masks_key_and_hides_secret() -> None:
    client = AccountDataClient("http://service.test/", API_KEY, API_SECRET)
    text = repr(client)
    assert text == "AccountDataClient(base_url='http://service.test', api_key='test***')"
    assert API_SECRET not in text and API_KEY not in text
    assert API_SECRET not in str(vars(client))  # stored as SecretStr


@pytest.mark.anyio
async def test_repr_hides_the_token_after_sign_in() -> None:
    service = FakeService()
    async with make_client(service) as client:
        await client.sign_in()
        assert "tok-" not in repr(client)
        assert "tok-" not in str(vars(client))


def test_importing_the_client_pulls_in_no_ui_or_web_framework() -> None:
    # rich is not checked: httpx itself imports it (for its CLI) when installed.
    code = (
        "import json, sys\n"
        "import accountdesk.client\n"
        "print(json.dumps(sorted(m for m in sys.modules "
        "if m.split('.')[0] in {'textual', 'fastapi', 'starlette', 'uvicorn', 'accountdesk'})))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    loaded = json.loads(result.stdout)
    allowed = ("accountdesk.client", "accountdesk.contract")
    assert [name for name in loaded if not name.startswith(allowed)] == ["accountdesk"]
