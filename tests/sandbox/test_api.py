"""The ASGI layer: wire format, status codes, envelopes and control endpoints."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime

import httpx
import pytest
from sandbox_helpers import BASE_URL, GOOD, LIMITED, START, assert_envelope, bearer
from starlette.applications import Starlette

from accountdesk.client.models import Account, Balance, Identity, Job, TokenGrant, Transactions
from accountdesk.contract import ERRORS
from accountdesk.contract import endpoints as ep
from accountdesk.sandbox import CREDENTIALS, SCENARIO_USERS, FrozenClock, create_app

pytestmark = pytest.mark.anyio

JOB_FIELDS = {
    "job_id",
    "user_id",
    "kind",
    "status",
    "created_at",
    "updated_at",
    "completed_at",
    "mfa",
    "error",
}


async def test_app_exposes_engine_and_clock(app: Starlette, clock: FrozenClock) -> None:
    assert app.state.clock is clock
    assert app.state.engine.clock is clock


async def test_token_grant(http: httpx.AsyncClient) -> None:
    answer = await http.post("/token", json={"api_key": GOOD[0], "api_secret": GOOD[1]})
    assert answer.status_code == 200
    assert set(answer.json()) == {"access_token", "token_type", "expires_in"}
    grant = TokenGrant.from_json(answer.content)
    assert (grant.token_type, grant.expires_in) == ("Bearer", 3600)


@pytest.mark.parametrize(
    "body",
    [
        b"",
        b"not json",
        b"[]",
        b'"x"',
        b'{"api_key": "sandbox_key"}',
        b'{"api_key": 1, "api_secret": 2}',
    ],
)
async def test_malformed_token_request(http: httpx.AsyncClient, body: bytes) -> None:
    error = assert_envelope(await http.post("/token", content=body), 400, "AC-100")
    assert error["message"] == ERRORS["AC-100"].message_for(ep.TOKEN)


async def test_wrong_credentials_and_bad_bearer(http: httpx.AsyncClient) -> None:
    answer = await http.post("/token", json={"api_key": GOOD[0], "api_secret": "nope"})
    assert_envelope(answer, 401, "AC-101")
    for authorization in ("", "Bearer", "Basic abc", "Bearer forged"):
        headers = {"Authorization": authorization} if authorization else {}
        assert_envelope(await http.get("/accounts/user_good", headers=headers), 403, "AC-001")
    limited = await bearer(http, LIMITED)
    assert (await http.get("/accounts/user_good", headers=limited)).status_code == 200
    assert_envelope(await http.get("/accounts/user_mfa", headers=limited), 403, "AC-001")


async def test_token_expires_on_the_sandbox_clock(
    http: httpx.AsyncClient, clock: FrozenClock
) -> None:
    headers = await bearer(http)
    clock.advance(3600)
    assert_envelope(await http.get("/accounts/user_good", headers=headers), 403, "AC-001")


async def test_read_endpoints_wire_format(http: httpx.AsyncClient) -> None:
    headers = await bearer(http)
    account = await http.get("/accounts/user_good", headers=headers)
    assert set(account.json()) == {
        "user_id",
        "link_type",
        "institution_name",
        "account_name",
        "account_type",
        "account_number",
        "account_number_masked",
        "routing_number",
        "currency",
    }
    record = Account.from_json(account.content)
    assert record.masked_account_number == "••••" + record.account_number.get_secret_value()[-4:]
    assert len(record.routing_number.get_secret_value()) == 9

    balance = await http.get("/accounts/user_good/balance", headers=headers)
    assert set(balance.json()) == {"user_id", "currency", "available", "current", "as_of"}
    assert isinstance(balance.json()["available"], str)  # decimal strings, never floats
    assert str(Balance.from_json(balance.content).available) == "1234.56"

    identity = await http.get("/accounts/user_good/identity", headers=headers)
    record = Identity.from_json(identity.content)
    assert record.names and record.emails and record.phone_numbers
    assert set(identity.json()["addresses"][0]) == {
        "street",
        "city",
        "region",
        "postal_code",
        "country",
    }

    transactions = await http.get("/accounts/user_good/transactions", headers=headers)
    rows = Transactions.from_json(transactions.content).transactions
    assert set(transactions.json()["transactions"][0]) == {
        "transaction_id",
        "date",
        "amount",
        "description",
        "category",
        "pending",
    }
    assert [row.date for row in rows] == sorted((row.date for row in rows), reverse=True)
    assert rows[0].pending and not rows[-1].pending

    manual = await http.get("/accounts/user_manual", headers=headers)
    assert manual.json()["link_type"] == "manual"


async def test_job_wire_format_and_lifecycle(http: httpx.AsyncClient, clock: FrozenClock) -> None:
    headers = await bearer(http)
    kinds = {"refresh": "balance_refresh", "identity": "identity", "transactions": "transactions"}
    for path, kind in kinds.items():
        answer = await http.post(f"/accounts/user_good/{path}", headers=headers)
        assert answer.status_code == 202
        assert set(answer.json()) == JOB_FIELDS
        job = Job.from_json(answer.content)
        assert (job.kind, job.status, job.user_id) == (kind, "pending", "user_good")
        assert job.created_at is not None and job.created_at.utcoffset() is not None
    clock.advance(2)
    answer = await http.get(f"/accounts/user_good/job/{job.job_id}", headers=headers)
    assert answer.status_code == 200
    assert Job.from_json(answer.content).is_terminal


async def test_mfa_over_the_wire(http: httpx.AsyncClient, clock: FrozenClock) -> None:
    headers = await bearer(http)
    job = (await http.post("/accounts/user_mfa/identity", headers=headers)).json()
    assert job["status"] == "mfa_required"
    assert set(job["mfa"]) == {"question", "expires_at", "attempts_remaining"}
    base = f"/accounts/user_mfa/mfa/{job['job_id']}"
    assert_envelope(await http.post(f"{base}/resolve", headers=headers), 400, "AC-100")
    for body in ({}, {"answer": 1234}, None):
        assert_envelope(await http.post(base, headers=headers, json=body), 400, "AC-100")
    assert_envelope(await http.post(base, headers=headers, content=b"{broken"), 400, "AC-100")
    answer = await http.post(base, headers=headers, json={"answer": "1234"})
    assert (answer.status_code, answer.json()["status"]) == (200, "mfa_required")
    answer = await http.post(f"{base}/resolve", headers=headers)
    assert (answer.status_code, answer.json()["status"]) == (200, "in_progress")
    assert_envelope(await http.get(base, headers=headers), 405, "AC-905")


async def test_block_answers_429_until_it_lifts(
    http: httpx.AsyncClient, clock: FrozenClock
) -> None:
    headers = await bearer(http)
    job_id = (await http.post("/accounts/user_mfa/refresh", headers=headers)).json()["job_id"]
    for _ in range(3):
        await http.post(
            f"/accounts/user_mfa/mfa/{job_id}", headers=headers, json={"answer": "4321"}
        )
        job = (await http.post(f"/accounts/user_mfa/mfa/{job_id}/resolve", headers=headers)).json()
    assert job["error"]["code"] == "AC-108"
    error = assert_envelope(
        await http.post("/accounts/user_mfa/refresh", headers=headers), 429, "AC-108"
    )
    assert "blockd" in error["message"]
    clock.advance(900)
    assert (await http.post("/accounts/user_mfa/refresh", headers=headers)).status_code == 202


async def test_expired_mfa_session_answers_405(http: httpx.AsyncClient) -> None:
    headers = await bearer(http)
    job_id = (await http.post("/accounts/user_mfa/refresh", headers=headers)).json()["job_id"]
    advance = await http.post("/_sandbox/clock/advance", json={"seconds": 301})
    assert advance.status_code == 200
    assert_envelope(
        await http.post(f"/accounts/user_mfa/mfa/{job_id}/resolve", headers=headers), 405, "AC-110"
    )
    job = (await http.get(f"/accounts/user_mfa/job/{job_id}", headers=headers)).json()
    assert job["status"] == "failed"
    assert job["error"] == ERRORS["AC-110"].body_for()["error"]


async def test_concurrent_identity_starts_give_exactly_one_job(http: httpx.AsyncClient) -> None:
    headers = await bearer(http)
    answers = await asyncio.gather(
        *(http.post("/accounts/user_good/identity", headers=headers) for _ in range(100))
    )
    statuses = sorted(answer.status_code for answer in answers)
    assert statuses.count(202) == 1 and statuses.count(409) == 99
    conflict = next(answer for answer in answers if answer.status_code == 409)
    assert_envelope(conflict, 409, "AC-112")


async def test_scenarios_endpoint(http: httpx.AsyncClient) -> None:
    answer = await http.get("/_sandbox/scenarios")  # no auth
    assert answer.status_code == 200
    body = answer.json()
    assert [user["user_id"] for user in body["users"]] == list(SCENARIO_USERS)
    assert [user["user_id"] for user in body["users"]] == [
        "user_good",
        "user_mfa",
        "user_manual",
        "user_fi_down",
        "user_fi_paused",
        "user_fi_incomplete",
        "user_identity_mismatch",
        "user_bulk",
    ]
    assert all(set(user) == {"user_id", "summary"} and user["summary"] for user in body["users"])
    assert body["credentials"] == [
        {"api_key": "sandbox_key", "api_secret": "sandbox_secret", "access": "every user"},
        {"api_key": "limited_key", "api_secret": "limited_secret", "access": "user_good only"},
    ]
    assert len(CREDENTIALS) == 2


async def test_reset_and_clock_advance(http: httpx.AsyncClient, clock: FrozenClock) -> None:
    headers = await bearer(http)
    job_id = (await http.post("/accounts/user_good/identity", headers=headers)).json()["job_id"]
    answer = await http.post("/_sandbox/reset")
    assert answer.status_code == 200
    assert_envelope(
        await http.get(f"/accounts/user_good/job/{job_id}", headers=headers), 404, "AC-109"
    )
    assert (
        await http.post("/accounts/user_good/identity", headers=headers)
    ).status_code == 202  # token kept

    before = clock.now()
    answer = await http.post("/_sandbox/clock/advance", json={"seconds": 90})
    assert answer.status_code == 200
    assert (clock.now() - before).total_seconds() == 90
    assert answer.json() == {"now": clock.now().isoformat(timespec="milliseconds")}
    for body in ({"seconds": -1}, {"seconds": "5"}, {}, [], None):
        error = assert_envelope(
            await http.post("/_sandbox/clock/advance", json=body), 400, "AC-100"
        )
        assert error["message"] == ERRORS["AC-100"].message_for(ep.TOKEN)


# 30,000 levels: far past the recursion limit, still under the 64 KiB body cap.
NESTED = b"[" * 30_000 + b"]" * 30_000
HOSTILE_BODIES = {
    "nested-30k": NESTED,
    "nested-in-object": b'{"api_key": ' + NESTED + b"}",
    "huge-int": b'{"seconds": ' + b"9" * 5000 + b"}",
    "huge-float": b'{"seconds": 1e999}',
    "not-utf8": b'{"api_key": "\xff\xfe", "api_secret": "\xc3"}',
    "array": b'[{"api_key": "sandbox_key", "api_secret": "sandbox_secret"}]',
    "lone-surrogate": b'{"api_key": "sandbox_key", "api_secret": "\\ud800", "seconds": "\\ud800"}',
}


@pytest.mark.parametrize("case", sorted(HOSTILE_BODIES))
async def test_hostile_bodies_answer_ac_100_never_a_crash(
    http: httpx.AsyncClient, case: str
) -> None:
    headers = await bearer(http)
    body = HOSTILE_BODIES[case]
    job_id = (await http.post("/accounts/user_mfa/refresh", headers=headers)).json()["job_id"]
    for path, endpoint, status in (
        ("/token", ep.TOKEN, 400 if case != "lone-surrogate" else 401),
        ("/_sandbox/clock/advance", ep.TOKEN, 400),
        (f"/accounts/user_mfa/mfa/{job_id}", ep.MFA_ANSWER, 400),
    ):
        answer = await http.post(path, headers=headers, content=body)
        code = "AC-100" if status == 400 else "AC-101"
        error = assert_envelope(answer, status, code)
        assert error["message"] == ERRORS[code].message_for(endpoint), path


async def test_body_is_read_whatever_its_content_type(http: httpx.AsyncClient) -> None:
    # The contract shows no content type; curl -d sends a form type by default.
    body = json.dumps({"api_key": GOOD[0], "api_secret": GOOD[1]})
    for content_type in ("text/plain", "application/x-www-form-urlencoded", "application/xml"):
        answer = await http.post("/token", content=body, headers={"Content-Type": content_type})
        assert answer.status_code == 200, content_type


@pytest.mark.parametrize(
    "seconds", [1e300, 10**12, 10**400], ids=["1e300", "1e12", "400-digit-int"]
)
async def test_clock_advance_past_the_calendar_is_refused(
    http: httpx.AsyncClient, clock: FrozenClock, seconds: float
) -> None:
    before = clock.now()
    answer = await http.post("/_sandbox/clock/advance", content=f'{{"seconds": {seconds}}}')
    assert_envelope(answer, 400, "AC-100")
    assert clock.now() == before
    assert (await http.post("/_sandbox/clock/advance", json={"seconds": 1})).status_code == 200


# -- answers the framework would make itself --------------------------------------


async def test_unknown_route_and_wrong_method(http: httpx.AsyncClient) -> None:
    headers = await bearer(http)
    for path in (
        "/",
        "/nope",
        "/docs/",
        "/redoc",
        "/openapi.json/",
        "/token/",
        "/accounts",
        "/accounts/user_good/nope",
    ):
        assert_envelope(await http.get(path, headers=headers), 404, "AC-904")
    answer = await http.delete("/accounts/user_good", headers=headers)
    assert_envelope(answer, 405, "AC-905")
    assert answer.headers["allow"] == "GET, HEAD"
    assert_envelope(await http.get("/token"), 405, "AC-905")
    assert_envelope(await http.put("/accounts/user_good/identity", headers=headers), 405, "AC-905")


async def test_crash_is_ac_950(
    app: Starlette, http: httpx.AsyncClient, caplog: pytest.LogCaptureFixture
) -> None:
    headers = await bearer(http)

    def explode(*args: object) -> None:
        raise RuntimeError("boom")

    app.state.engine.get_account = explode
    answer = await http.get("/accounts/user_good", headers=headers)
    assert_envelope(answer, 500, "AC-950")
    assert "boom" not in answer.text
    assert any("sandbox failed" in record.message for record in caplog.records)
    token = headers["Authorization"].split()[1]
    assert token not in caplog.text


async def test_no_answer_is_ever_a_framework_detail_or_422(http: httpx.AsyncClient) -> None:
    headers = await bearer(http)
    requests = [
        (method, path, body)
        for method in ("GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")
        for path in (
            "/token",
            "/accounts/user_good",
            "/accounts/user_good/balance",
            "/accounts/nobody/refresh",
            "/accounts/user_mfa/mfa/job_x",
            "/accounts/user_mfa/mfa/job_x/resolve",
            "/accounts/user_good/identity",
            "/accounts/user_good/transactions",
            "/accounts/user_good/job/job_x",
            "/_sandbox/clock/advance",
            "/_sandbox/reset?x=1",
            "/accounts/%20/balance",
            "/accounts/user_good/job/",
            "/x/y/z",
        )
        for body in (None, b"{", b'{"answer": []}')
    ]
    for method, path, body in requests:
        answer = await http.request(method, path, headers=headers, content=body)
        assert answer.status_code != 422, (method, path)
        if answer.status_code >= 400:
            assert_envelope(answer, answer.status_code, answer.json()["error"]["code"])
            assert "detail" not in answer.json()


# -- the clock cannot be pushed off the calendar -------------------------------------


def _seconds_to_the_end_of_time(now: datetime, margin: float) -> float:
    end = datetime.max.replace(tzinfo=UTC)
    return (end - now).total_seconds() - margin


@pytest.mark.parametrize("frozen", [True, False], ids=["frozen-clock", "system-clock"])
async def test_no_clock_step_breaks_the_sandbox(frozen: bool) -> None:
    # One unauthenticated step to a minute before the year 10000 used to be
    # accepted; every later token then overflowed (now + 3600 s): 500 AC-950
    # on /token until restart.
    app = create_app(clock=FrozenClock(START) if frozen else None, ids=1)
    transport = httpx.ASGITransport(app)
    async with httpx.AsyncClient(transport=transport, base_url=BASE_URL) as http:
        seconds = _seconds_to_the_end_of_time(app.state.clock.now(), margin=60)
        await http.post("/_sandbox/clock/advance", json={"seconds": seconds})
        headers = await bearer(http)
        assert (await http.post("/accounts/user_mfa/refresh", headers=headers)).status_code == 202
        assert (await http.get("/accounts/user_good/balance", headers=headers)).status_code == 200


async def test_clock_reads_the_sandbox_time(http: httpx.AsyncClient, clock: FrozenClock) -> None:
    answer = await http.get("/_sandbox/clock")  # no auth: a dashboard panel reads it
    assert answer.status_code == 200
    assert answer.json() == {"now": START.isoformat(timespec="milliseconds")}
    advanced = (await http.post("/_sandbox/clock/advance", json={"seconds": 61.5})).json()
    assert (await http.get("/_sandbox/clock")).json() == advanced
    assert advanced == {"now": "2026-03-02T12:01:01.500+00:00"}
    assert_envelope(await http.post("/_sandbox/clock"), 405, "AC-905")


async def test_retry_after_says_when_the_block_lifts(
    http: httpx.AsyncClient, clock: FrozenClock
) -> None:
    headers = await bearer(http)
    job_id = (await http.post("/accounts/user_mfa/refresh", headers=headers)).json()["job_id"]
    for _ in range(3):
        await http.post(f"/accounts/user_mfa/mfa/{job_id}", headers=headers, json={"answer": "0"})
        job = (await http.post(f"/accounts/user_mfa/mfa/{job_id}/resolve", headers=headers)).json()
    assert job["error"]["blocked_until"] == "2026-03-02T12:15:00.000+00:00"
    clock.advance(100.25)
    answer = await http.post("/accounts/user_mfa/refresh", headers=headers)
    assert_envelope(answer, 429, "AC-108")
    assert answer.headers["retry-after"] == "800"  # 799.75 s, in whole seconds rounded up
    assert "retry-after" not in (await http.get("/accounts/user_nobody", headers=headers)).headers
