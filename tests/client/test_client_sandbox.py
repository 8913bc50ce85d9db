"""The client against the sandbox through httpx.ASGITransport (no network).

The injected ``sleep`` advances the sandbox's frozen clock, so ``watch_job``
sees jobs progress without a real second passing.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
from collections.abc import AsyncIterator
from decimal import Decimal

import httpx
import pytest
from client_fakes import FakeMonotonic

from accountdesk.client import (
    AccountBlockedError,
    AccountDataClient,
    AccountDataError,
    InvalidCredentialsError,
    InvalidRequestError,
    JobConflictError,
    JobNotFoundError,
    MfaSessionExpiredError,
    NotAuthorizedError,
    UserNotFoundError,
)
from accountdesk.contract import ERRORS, endpoints
from accountdesk.sandbox import SCENARIO_USERS, FrozenClock, create_app
from transaction_bodies import collect

START = dt.datetime(2026, 3, 2, 12, 0, tzinfo=dt.UTC)


class Sandbox:
    """A sandbox app plus clients that share its clock."""

    def __init__(self, **options) -> None:
        self.clock = FrozenClock(START)
        self.app = create_app(clock=self.clock, ids=7, **options)
        self.monotonic = FakeMonotonic()
        self.sleeps: list[float] = []

    async def sleep(self, seconds: float) -> None:
        # Time passes for both sides at once: the sandbox's jobs and the client's deadlines.
        self.sleeps.append(seconds)
        self.clock.advance(seconds)
        self.monotonic.now += seconds

    def client(
        self,
        key: str = "sandbox_key",
        secret: str = "sandbox_secret",
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> AccountDataClient:
        return AccountDataClient(
            "http://sandbox",
            key,
            secret,
            transport=transport or httpx.ASGITransport(self.app),
            sleep=self.sleep,
            monotonic=self.monotonic,
        )


class CountingTransport(httpx.AsyncBaseTransport):
    """Records the path and Authorization of every request, then hands it to the sandbox."""

    def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
        self.inner = inner
        self.paths: list[str] = []
        self.authorizations: set[str] = set()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.paths.append(request.url.path)
        if "Authorization" in request.headers:
            self.authorizations.add(request.headers["Authorization"].split()[-1])
        return await self.inner.handle_async_request(request)


@pytest.fixture
def sandbox() -> Sandbox:
    return Sandbox()


@pytest.fixture
async def client(sandbox: Sandbox) -> AsyncIterator[AccountDataClient]:
    async with sandbox.client() as client:
        yield client


@pytest.mark.anyio
async def test_user_good_reads_and_refresh_completes(client: AccountDataClient) -> None:
    account = await client.get_account("user_good")
    assert account.user_id == "user_good" and not account.is_manually_linked
    assert account.account_number is not None
    assert account.account_number.get_secret_value() not in repr(account)
    balance = await client.get_balance("user_good")
    assert isinstance(balance.available, Decimal) and balance.as_of is not None

    job = await client.refresh_balance("user_good")
    assert job.kind == "balance_refresh" and job.status == "pending"
    watch = client.watch_job("user_good", job.job_id, interval=0.5)
    states = [state.status async for state in watch]
    assert states[0] == "pending" and states[-1] == "completed"
    assert "in_progress" in states
    final = await client.get_job("user_good", job.job_id)
    assert final.is_terminal and final.completed_at is not None


@pytest.mark.anyio
async def test_user_mfa_flow(sandbox: Sandbox, client: AccountDataClient) -> None:
    job = await client.refresh_balance("user_mfa")
    states = [state async for state in client.watch_job("user_mfa", job.job_id)]
    assert [state.status for state in states] == ["mfa_required"]
    challenge = states[-1].mfa
    assert challenge is not None and challenge.question and challenge.attempts_remaining == 3

    recorded = await client.submit_mfa("user_mfa", job.job_id, "1234")
    assert recorded.status == "mfa_required"  # recorded, not yet checked
    resumed = await client.resolve_mfa("user_mfa", job.job_id)
    assert resumed.status == "in_progress" and resumed.mfa is None
    states = [state.status async for state in client.watch_job("user_mfa", job.job_id)]
    assert states == ["in_progress", "completed"]


@pytest.mark.anyio
async def test_wrong_mfa_answers_block_refresh_until_the_block_lifts(
    sandbox: Sandbox, client: AccountDataClient
) -> None:
    job = await client.refresh_balance("user_mfa")
    for remaining in (2, 1):
        await client.submit_mfa("user_mfa", job.job_id, "0000")
        after = await client.resolve_mfa("user_mfa", job.job_id)
        assert after.status == "mfa_required" and after.mfa.attempts_remaining == remaining
    await client.submit_mfa("user_mfa", job.job_id, "0000")
    failed = await client.resolve_mfa("user_mfa", job.job_id)
    assert failed.status == "failed"

    with pytest.raises(AccountBlockedError) as caught:
        await client.refresh_balance("user_mfa")
    assert caught.value.status == 429 and "blockd" in caught.value.message
    sandbox.clock.advance(901)
    again = await client.refresh_balance("user_mfa")
    assert again.needs_mfa


@pytest.mark.anyio
async def test_expired_mfa_session(sandbox: Sandbox, client: AccountDataClient) -> None:
    job = await client.start_identity("user_mfa")
    sandbox.clock.advance(301)
    with pytest.raises(MfaSessionExpiredError) as caught:
        await client.resolve_mfa("user_mfa", job.job_id)
    assert caught.value.status == 405


@pytest.mark.anyio
async def test_identity_and_transactions_flows(sandbox: Sandbox, client: AccountDataClient) -> None:
    identity_job = await client.start_identity("user_good")
    with pytest.raises(JobConflictError):
        await client.start_identity("user_good")
    transactions_job = await client.start_transactions("user_good")
    async for _ in client.watch_job("user_good", identity_job.job_id):
        pass
    async for _ in client.watch_job("user_good", transactions_job.job_id):
        pass
    identity = await client.get_identity("user_good")
    assert identity.names and identity.addresses and identity.addresses[0].one_line()
    transactions = await client.get_transactions("user_good")
    assert len(transactions) > 0 and transactions.transactions[0].amount is not None


@pytest.mark.anyio
async def test_concurrent_identity_starts_give_one_job(client: AccountDataClient) -> None:
    results = await asyncio.gather(
        *(client.start_identity("user_good") for _ in range(100)), return_exceptions=True
    )
    started = [r for r in results if not isinstance(r, BaseException)]
    assert len(started) == 1
    assert all(isinstance(r, JobConflictError) for r in results if r not in started)


@pytest.mark.anyio
async def test_token_expired_on_the_sandbox_is_renewed_and_replayed(sandbox: Sandbox) -> None:
    # The client believes the token has an hour left; the sandbox clock jumps
    # past its expiry, so the next call is refused with AC-001 and replayed.
    async with sandbox.client() as client:
        await client.get_account("user_good")
        sandbox.clock.advance(3601)
        account = await client.get_account("user_good")
    assert account.user_id == "user_good"


@pytest.mark.anyio
async def test_two_hundred_concurrent_first_calls_one_token(sandbox: Sandbox) -> None:
    transport = CountingTransport(httpx.ASGITransport(sandbox.app))
    async with sandbox.client(transport=transport) as client:
        accounts = await asyncio.gather(*(client.get_account("user_good") for _ in range(200)))
    assert len(accounts) == 200
    assert transport.paths.count("/token") == 1
    assert transport.paths.count("/accounts/user_good") == 200


@pytest.mark.anyio
async def test_credentials_errors(sandbox: Sandbox) -> None:
    async with sandbox.client(secret="wrong") as client:
        with pytest.raises(InvalidCredentialsError):
            await client.sign_in()
    async with sandbox.client("limited_key", "limited_secret") as client:
        await client.sign_in()
        assert (await client.get_account("user_good")).user_id == "user_good"
        with pytest.raises(NotAuthorizedError):
            await client.get_account("user_mfa")


HOSTILE_IDS = [
    "../token",
    "a/b",
    "a?b",
    "%2F",
    "%252F",
    "user_good/balance",
    "..%2F",
    "a\x00b",
    "a\r\nb",
    "user_good\n",
    "ü",
    "a" * 65,
    "a#b",
]


@pytest.mark.anyio
async def test_hostile_ids_never_reach_another_endpoint(client: AccountDataClient) -> None:
    # Each is one (invalid) id for the sandbox, answered by the endpoint it was
    # sent to (its own AC-100 or AC-109 text), never by a different route.
    account_text = ERRORS["AC-100"].message_for(endpoints.ACCOUNT)
    for hostile in HOSTILE_IDS:
        with pytest.raises(InvalidRequestError) as caught:
            await client.get_account(hostile)
        assert caught.value.message == account_text, hostile
        with pytest.raises(JobNotFoundError) as job_caught:
            await client.get_job("user_good", hostile)
        expected = ERRORS["AC-109"].message_for(endpoints.JOB, user_id="user_good", job_id=hostile)
        assert job_caught.value.message == expected, hostile
    with pytest.raises(UserNotFoundError):
        await client.get_account("a" * 64)  # the longest valid id: merely unknown


@pytest.mark.anyio
async def test_no_secret_token_or_full_number_in_logs_or_reprs(
    sandbox: Sandbox, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)  # every logger: client, httpx, httpcore, sandbox
    transport = CountingTransport(httpx.ASGITransport(sandbox.app))
    shown: list[object] = []
    async with sandbox.client(transport=transport) as client:
        shown += [
            client,
            await client.get_account("user_good"),
            await client.get_balance("user_good"),
        ]
        job = await client.refresh_balance("user_mfa")
        shown.append(await client.submit_mfa("user_mfa", job.job_id, "1234"))
        for failing in (
            client.get_balance("user_manual"),
            client.get_account("user_nobody"),
            client.resolve_mfa("user_mfa", "job_nope"),
            client.get_account("."),
        ):
            try:
                await failing
            except AccountDataError as error:
                shown.append(error)
                logging.getLogger("test").exception("call failed: %s", error)
        sandbox.clock.advance(3601)  # stale token: refused, renewed, replayed
        shown.append(await client.get_account("user_good"))
    assert len(transport.authorizations) == 2
    secrets = {"sandbox_secret", *transport.authorizations}
    for scenario in SCENARIO_USERS.values():
        secrets |= {scenario.account.account_number, scenario.account.routing_number}
    text = caplog.text + "".join(f"{item!r} {item!s}" for item in shown)
    assert "GET /accounts/user_good -> 200" in caplog.text and "Traceback" in caplog.text
    leaked = [secret for secret in secrets if secret in text]
    assert leaked == []


@pytest.mark.anyio
async def test_bulk_transactions_parse(
    client: AccountDataClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    import threading

    from accountdesk.client import _responses
    from accountdesk.client import client as client_module

    parsed_on: dict[str, bool] = {}
    real_parse = _responses.parse_record

    def recording_parse(response, model, *args):
        parsed_on[model.__name__] = threading.current_thread() is threading.main_thread()
        return real_parse(response, model, *args)

    monkeypatch.setattr(client_module, "parse_record", recording_parse)
    monkeypatch.setattr(_responses, "parse_record", recording_parse)
    await client.get_account("user_good")
    transactions = await client.get_transactions("user_bulk")
    # The 14 MB list is parsed off the event loop; small records are not.
    assert parsed_on == {"TokenGrant": True, "Account": True, "Transactions": False}
    assert len(transactions) == 100_000
    dates = [t.date for t in transactions.transactions[:100]]
    assert dates == sorted(dates, reverse=True)  # newest first

    columns = await collect(client, "user_bulk")  # the stream, collected
    # The same rows, the same values, whichever way they were read.
    assert len(columns) == 100_000 and columns.user_id == "user_bulk"
    assert columns.currency == transactions.currency
    sample = range(0, 100_000, 997)
    for index in sample:
        row = transactions.transactions[index]
        assert columns.transaction_ids[index] == row.transaction_id
        assert columns.dates[index] == (row.date.isoformat() if row.date else "")
        assert columns.amounts[index] == row.amount
        assert columns.descriptions[index] == row.description
        assert columns.categories[index] == (row.category or "")
        assert columns.pending[index] is row.pending
    assert all(
        len(column) == 100_000
        for column in (columns.dates, columns.amounts, columns.descriptions, columns.pending)
    )
