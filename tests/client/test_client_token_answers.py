"""Odd token answers: sign in with whatever can be used, refuse only what no header can carry.

The contract shows neither the token's format nor its lifetime. A lifetime
that cannot be used (0, missing, negative, not a number, absurd) is taken as
unknown: the token is kept until the service refuses it (401, or 403
``AC-001``), then renewed once and the request replayed. A token is refused
only when it cannot go into an ``Authorization`` header as sent: empty,
a control character, a non-ASCII character, longer than 8,192 characters.
Each case is named in the log, never with the token.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from client_fakes import FakeMonotonic, FakeService, make_client

from accountdesk.client import MalformedResponseError
from accountdesk.contract import ERRORS

pytestmark = pytest.mark.anyio

TOKEN = "tok-odd-answer-0123456789"
MISSING = object()


class ClientLog(logging.Handler):
    """The client logger's records (attached to it: other tests may stop propagation)."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(f"{record.levelname} {record.getMessage()}")

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


@pytest.fixture
def client_log() -> Iterator[ClientLog]:
    logger = logging.getLogger("accountdesk.client")
    handler, level = ClientLog(), logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    try:
        yield handler
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)


def granting(**fields: Any) -> FakeService:
    """A service whose token answer is ``fields`` (MISSING leaves one out); the API accepts it."""
    grant = {"access_token": TOKEN, "token_type": "Bearer", "expires_in": 3600}
    grant.update(fields)
    body = {name: value for name, value in grant.items() if value is not MISSING}
    return FakeService(token_handler=lambda request: httpx.Response(200, json=body))


@pytest.mark.parametrize(
    ("lifetime", "named"),
    [
        (0, "expires_in is 0"),
        (MISSING, "no expires_in"),
        (None, "expires_in is null"),
        (-5, "expires_in is negative (-5)"),
        ("soon", "expires_in is not a number ('soon')"),
        (True, "expires_in is not a number (True)"),
        ([3600], "expires_in is not a number ([3600])"),
        ("NaN", "expires_in is not a finite number ('NaN')"),
        (1e300, "expires_in is over a year (1e+300 s)"),
        (10**30, "expires_in is over a year (1e+30 s)"),
    ],
    ids=["zero", "missing", "null", "negative", "text", "bool", "list", "nan", "1e300", "10**30"],
)
async def test_an_unusable_lifetime_signs_in_and_keeps_the_token_until_refused(
    lifetime: Any, named: str, client_log: ClientLog
) -> None:
    clock = FakeMonotonic()
    service = granting(expires_in=lifetime)
    async with make_client(service, monotonic=clock) as client:
        await client.sign_in()
        clock.now += 10**7  # longer than any lifetime a service could mean
        await client.get_account("user_good")
    assert service.token_requests == 1  # kept: nothing said when it ends
    assert service.api_requests[0].headers["Authorization"] == f"Bearer {TOKEN}"
    assert named in client_log.text
    assert "renewed when the service refuses it" in client_log.text
    assert TOKEN not in client_log.text


async def test_a_lifetime_sent_as_text_is_used() -> None:
    clock = FakeMonotonic()
    service = granting(expires_in="300")
    async with make_client(service, monotonic=clock) as client:
        await client.sign_in()
        clock.now += 271  # past 300 s less its 30 s margin: renewed before use
        await client.get_account("user_good")
    assert service.token_requests == 2


@pytest.mark.parametrize("refusal", [401, 403])
async def test_a_token_of_unknown_lifetime_is_renewed_when_refused(refusal: int) -> None:
    tokens = iter(["tok-first-000000", "tok-second-00000"])

    def token(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json={"access_token": next(tokens), "expires_in": 0})

    def api(request: httpx.Request) -> httpx.Response:
        if request.headers["Authorization"] == "Bearer tok-second-00000":
            return httpx.Response(200, json={"user_id": "user_good"})
        if refusal == 401:  # a gateway's answer to an expired token: no envelope
            return httpx.Response(401, headers={"WWW-Authenticate": 'Bearer error="invalid_token"'})
        return httpx.Response(403, json=ERRORS["AC-001"].body_for())

    service = FakeService(api, token_handler=token)
    async with make_client(service) as client:
        account = await client.get_account("user_good")
    assert account.user_id == "user_good"
    assert service.token_requests == 2
    assert [r.headers["Authorization"] for r in service.api_requests] == [
        "Bearer tok-first-000000",
        "Bearer tok-second-00000",
    ]


async def test_a_token_with_spaces_is_sent_as_given(client_log: ClientLog) -> None:
    service = granting(access_token="tok with spaces")
    async with make_client(service) as client:
        await client.get_account("user_good")
    assert service.api_requests[0].headers["Authorization"] == "Bearer tok with spaces"
    assert "access_token holds spaces; sent as given" in client_log.text
    assert "tok with spaces" not in client_log.text


async def test_outer_whitespace_of_a_token_is_dropped(client_log: ClientLog) -> None:
    # A receiver strips a header value's outer whitespace anyway (RFC 9110 OWS).
    service = granting(access_token="  tok-padded-0123  \n")
    async with make_client(service) as client:
        await client.get_account("user_good")
    assert service.api_requests[0].headers["Authorization"] == "Bearer tok-padded-0123"
    assert "outer whitespace" in client_log.text and "tok-padded" not in client_log.text


async def test_a_long_token_is_accepted_up_to_the_bound() -> None:
    service = granting(access_token="t" * 8192)
    async with make_client(service) as client:
        await client.get_account("user_good")
    assert service.api_requests[0].headers["Authorization"] == "Bearer " + "t" * 8192


@pytest.mark.parametrize(
    ("token", "problem"),
    [
        ("", "access_token is empty"),
        ("   ", "access_token is empty"),
        ("tok-1\r\nX-Injected: yes", "access_token holds a control character"),
        ("tok\x00nul", "access_token holds a control character"),
        ("tok\ttab", "access_token holds a control character"),
        ("tok\x7fdel", "access_token holds a control character"),
        ("tök-ünïcode", "access_token holds a non-ASCII character"),
        ("t" * 8193, "access_token is longer than 8,192 characters"),
    ],
    ids=["empty", "blank", "crlf", "nul", "tab", "del", "non-ascii", "too-long"],
)
async def test_a_token_no_header_can_carry_is_refused(token: str, problem: str) -> None:
    service = granting(access_token=token)
    async with make_client(service) as client:
        with pytest.raises(MalformedResponseError) as caught:
            await client.sign_in()
    assert service.api_requests == []
    assert problem in str(caught.value)
    assert caught.value.excerpt == ""  # the body holds the token
    assert token.strip() == "" or token not in str(caught.value)


@pytest.mark.parametrize(
    ("token_type", "scheme", "named"),
    [
        ("bearer", "Bearer", None),
        (MISSING, "Bearer", None),
        ("MAC", "MAC", None),
        ("", "Bearer", "token_type is empty"),
        ("Bearer\r\nX-Injected: yes", "Bearer", "token_type is not a scheme"),
        (42, "Bearer", "token_type is not a scheme"),
    ],
    ids=["lower-case", "missing", "other-scheme", "empty", "crlf", "number"],
)
async def test_the_scheme_is_the_token_type_when_it_is_one(
    token_type: Any, scheme: str, named: str | None, client_log: ClientLog
) -> None:
    service = granting(token_type=token_type)
    async with make_client(service) as client:
        await client.get_account("user_good")
    assert service.api_requests[0].headers["Authorization"] == f"{scheme} {TOKEN}"
    if named is not None:
        [line] = [line for line in client_log.lines if named in line]
        assert line.startswith("WARNING token answer:") and line.endswith("sent as Bearer")
    assert "X-Injected" not in service.api_requests[0].headers
