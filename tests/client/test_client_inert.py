"""Service data made inert and bounded at the boundary: the sanitiser, text, ids, numbers."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

import httpx
import pytest
from client_fakes import FakeService, envelope, job_body, make_client

from accountdesk.client import (
    ApiError,
    Balance,
    Identity,
    Job,
    MalformedResponseError,
    MfaChallenge,
    TokenGrant,
    Transactions,
    TransportError,
    sanitise_text,
)

# -- sanitise_text ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("\x1b]52;c;aGk=\x1b\\", "␛]52;c;aGk=␛\\"),
        ("\x1b]0;title\x07", "␛]0;title␇"),
        ("\x1b[2J", "␛[2J"),
        ("a\nb\tc\rd\x00", "a␊b␉c␍d␀"),
        ("del\x7f", "del␡"),
        ("\x9b31m", "‹U+009B›31m"),
        ("\x80\x9f", "‹U+0080›‹U+009F›"),
        ("\u202eevil", "‹U+202E›evil"),
        ("\u2066\u2069\u200e\u200f\u061c", "‹U+2066›‹U+2069›‹U+200E›‹U+200F›‹U+061C›"),
        ("\u202a\u202b\u202c\u202d", "‹U+202A›‹U+202B›‹U+202C›‹U+202D›"),
        ("lone \ud800 surrogate", "lone \ufffd surrogate"),
    ],
)
def test_sanitise_text_makes_controls_visible(raw: str, shown: str) -> None:
    assert sanitise_text(raw) == shown
    assert sanitise_text(shown) == shown  # idempotent


def test_clean_text_is_returned_as_is() -> None:
    text = "Café — ünïcode, emoji 🙂, 中文, Ελληνικά, עברית (RTL letters are fine)" * 10
    assert sanitise_text(text) is text


# -- text fields ------------------------------------------------------------------


def test_every_text_field_is_sanitised_and_lists_too() -> None:
    evil = "x\x1b[2J\u202e"
    identity = Identity.model_validate(
        {
            "user_id": "u1",
            "names": [evil, "ok"],
            "emails": [evil],
            "phone_numbers": [evil],
            "addresses": [{"street": evil, "city": evil, "country": evil}],
        }
    )
    assert identity.names == ["x␛[2J‹U+202E›", "ok"]
    assert identity.addresses[0].one_line() == ", ".join(["x␛[2J‹U+202E›"] * 3)
    challenge = MfaChallenge.model_validate({"question": evil})
    assert challenge.question == "x␛[2J‹U+202E›"


def test_text_fields_are_bounded() -> None:
    job = Job.model_validate(job_body(status="x" * 1_000_000))
    assert isinstance(job.status, str) and len(job.status) == 2000 and job.status.endswith("…")


def test_lists_of_identity_fields_are_bounded() -> None:
    with pytest.raises(ValueError, match="names"):
        Identity.model_validate({"names": ["n"] * 101})
    assert len(Identity.model_validate({"names": ["n"] * 100}).names) == 100


@pytest.mark.anyio
async def test_api_error_message_is_inert_and_bounded() -> None:
    message = "\x1b]52;c;aGk=\x07" + "m" * 1_000_000
    service = FakeService(lambda request: httpx.Response(400, json=envelope("AC-204", message)))
    async with make_client(service) as client:
        with pytest.raises(ApiError) as caught:
            await client.get_account("user_good")
    assert caught.value.message.startswith("␛]52;c;aGk=␇mmm")
    assert len(caught.value.message) == 2000 and len(str(caught.value)) < 2100


@pytest.mark.anyio
async def test_malformed_excerpt_and_transport_detail_are_inert() -> None:
    service = FakeService(lambda request: httpx.Response(502, text="<b>\x1b]0;owned\x07\x9b</b>"))
    async with make_client(service, max_attempts=1) as client:
        with pytest.raises(MalformedResponseError) as malformed:
            await client.get_account("user_good")

    def refuse(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("peer said \x1b[2J\x1b]0;title\x07")

    async with make_client(FakeService(refuse), max_attempts=1) as client:
        with pytest.raises(TransportError) as transport:
            await client.get_account("user_good")
    for text in (malformed.value.excerpt, str(malformed.value), str(transport.value)):
        assert "\x1b" not in text and "\x07" not in text and "\x9b" not in text
    assert "␛]0;owned␇" in malformed.value.excerpt and "␛[2J" in str(transport.value)


# -- identifiers ------------------------------------------------------------------


@pytest.mark.parametrize(
    "bad",
    ["", "j" * 257, "job\x1b[2J", "job\u202e1", "job\n1", "..", " ", "job\x9b"],
    ids=["empty", "257", "esc", "bidi", "newline", "dots", "blank", "c1"],
)
def test_unusable_ids_from_the_service_are_refused_not_altered(bad: str) -> None:
    with pytest.raises(ValueError, match="job_id"):
        Job.model_validate(job_body(job_id=bad))
    with pytest.raises(ValueError, match="transaction_id"):
        Transactions.model_validate({"transactions": [{"transaction_id": bad, "amount": "1"}]})


def test_usable_ids_are_kept_exactly() -> None:
    for good in ("j" * 256, "job 1", "user@bank.example", "ü-ß"):
        assert Job.model_validate(job_body(job_id=good)).job_id == good


@pytest.mark.anyio
async def test_refused_id_names_the_field() -> None:
    body = job_body(job_id="j" * 5000)
    async with make_client(FakeService(lambda r: httpx.Response(202, json=body))) as client:
        with pytest.raises(MalformedResponseError) as caught:
            await client.refresh_balance("user_good")
    assert "job.job_id: identifier longer than 256 characters (5000)" in str(caught.value)


# -- numbers ------------------------------------------------------------------------

HUGE = ["1e3000000", "NaN", "Infinity", "-Infinity", "sNaN", "1" * 25, "1e-25", "1e25", "9" * 70]


@pytest.mark.parametrize("wire", HUGE)
def test_amount_text_out_of_range_is_refused(wire: str) -> None:
    with pytest.raises(ValueError, match="available"):
        Balance.model_validate_json(json.dumps({"available": wire}))


@pytest.mark.parametrize(
    "number",
    [b"1e300", b"NaN", b"Infinity", b"1" + b"0" * 400, b"1e-300", b"true"],
)
def test_amount_json_numbers_out_of_range_are_refused(number: bytes) -> None:
    with pytest.raises(ValueError, match="current"):
        Balance.model_validate_json(b'{"current": ' + number + b"}")


@pytest.mark.parametrize(
    ("wire", "expected"),
    [
        ('"1234.56"', Decimal("1234.56")),
        ('"-0.01"', Decimal("-0.01")),
        ("12", Decimal(12)),
        ("12.5", Decimal("12.5")),
        ("0.1", Decimal("0.1")),  # not the float's 55 binary digits
        ('"1e24"', Decimal("1e24")),
        ('"123456789012345678901234"', Decimal("123456789012345678901234")),
    ],
)
def test_amounts_in_range_are_exact(wire: str, expected: Decimal) -> None:
    balance = Balance.model_validate_json(f'{{"available": {wire}}}')
    assert balance.available == expected
    assert len(f"{balance.available:,.2f}") < 80


@pytest.mark.parametrize("attempts", [-1, 1001, 10**30])
def test_attempts_remaining_is_bounded(attempts: int) -> None:
    with pytest.raises(ValueError, match="attempts_remaining"):
        MfaChallenge.model_validate({"attempts_remaining": attempts})


@pytest.mark.parametrize("lifetime", [0, -5, 1e10, "NaN", 31_536_001])
def test_a_token_lifetime_out_of_bounds_is_unknown(lifetime: Any) -> None:
    # Not believed, and not a reason to refuse a usable token (test_client_token_answers).
    grant = TokenGrant.model_validate({"access_token": "tok-0123456789", "expires_in": lifetime})
    assert grant.expires_in is None and grant.notes
    year = TokenGrant.model_validate({"access_token": "t", "expires_in": 31_536_000})
    assert year.expires_in == 31_536_000 and not year.notes
