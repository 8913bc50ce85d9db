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


def test_filter_hides_registered_and_extra_secrets_and_exception_text() -> None:
    AccountDataClient("http://service.test", API_KEY, "registered-secret-42")
    try:
        raise RuntimeError("boom registered-secret-42 and extra-secret-77")
    except RuntimeError:
        record = logging.LogRecord(
            "app", logging.ERROR, __file__, 1, "failed: registered-secret-42", None, sys.exc_info()
        )
    RedactingFilter(secrets=["extra-secret-77"]).filter(record)
    assert "registered-secret-42" not in record.getMessage()
    assert "registered-secret-42" not in record.exc_text
    assert "extra-secret-77" not in record.exc_text
    assert "RuntimeError" in record.exc_text


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
