"""What a scenario pack makes the sandbox do: forced answers, jobs, MFA, clock, credentials, rooms."""

from __future__ import annotations

import datetime as dt
import json
import textwrap
from pathlib import Path

import httpx
import pytest
from sandbox_helpers import BASE_URL, START, bearer

from accountdesk.sandbox import FrozenClock, create_app, load_scenarios
from accountdesk.sandbox.engine import SandboxEngine, SandboxError


def _engine(tmp_path: Path, text: str, **options: object) -> tuple[SandboxEngine, str]:
    path = tmp_path / "pack.toml"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    engine = SandboxEngine(FrozenClock(START), ids=1, scenarios=load_scenarios([path]), **options)
    return engine, engine.issue_token("sandbox_key", "sandbox_secret")["access_token"]


def _refused(call: object, *args: object) -> tuple[int, str, str]:
    with pytest.raises(SandboxError) as caught:
        call(*args)  # type: ignore[operator]
    error = caught.value
    return error.status, error.body["error"]["code"], error.body["error"]["message"]


FLAKY = """
[[users]]
id = "flaky"

[[users.answers]]
endpoint = "get_balance"
code = "AC-104"
from_call = 2
calls = 2

[[users.answers]]
endpoint = "get_account"
code = "AC-204"

[[users.answers]]
endpoint = "get_identity"
code = "AC-777"
status = 503
message = "Upstream {user_id} unavailable"

[[users.answers]]
endpoint = "refresh_balance"
code = "AC-102"
"""


def test_forced_answers_always_from_a_call_on_or_for_some_calls(tmp_path: Path) -> None:
    engine, token = _engine(tmp_path, FLAKY)
    balance = [engine.get_balance, token, "flaky"]
    assert engine.get_balance(token, "flaky")["available"] == "1000.00"  # call 1
    assert _refused(*balance)[:2] == (400, "AC-104")  # calls 2 and 3
    assert _refused(*balance)[:2] == (400, "AC-104")
    assert engine.get_balance(token, "flaky")["user_id"] == "flaky"  # call 4 on: data again
    # A code outside the tables (the contract's AC-204) with the catalogue's guess of a status.
    assert _refused(engine.get_account, token, "flaky") == (
        400,
        "AC-204",
        "No account information available, please select another bank.",
    )
    # A code nobody knows: the pack's status and message, verbatim (no placeholder filled).
    assert _refused(engine.get_identity, token, "flaky") == (
        503,
        "AC-777",
        "Upstream {user_id} unavailable",
    )
    # A catalogue code takes its status for that endpoint: AC-102 is 400 on refresh.
    assert _refused(engine.refresh_balance, token, "flaky") == (
        400,
        "AC-102",
        "User flaky not found",
    )
    # A reset forgets the counts: the first call reads again.
    engine.reset()
    assert engine.get_balance(token, "flaky")["available"] == "1000.00"
    assert _refused(*balance)[1] == "AC-104"


def test_every_endpoint_and_the_order_of_checks(tmp_path: Path) -> None:
    engine, token = _engine(
        tmp_path, '[[users]]\nid = "down"\n[[users.answers]]\nendpoint = "*"\ncode = "AC-104"\n'
    )
    for call in (engine.get_account, engine.get_transactions, engine.start_identity):
        assert _refused(call, token, "down")[:2] == (400, "AC-104")
    assert _refused(engine.get_job, token, "down", "job_x")[1] == "AC-104"  # before AC-109
    assert _refused(engine.get_account, "bad-token", "down")[1] == "AC-001"  # token first
    assert _refused(engine.submit_mfa, token, "down", "job_x", "")[1] == "AC-100"  # body next


@pytest.mark.anyio
async def test_retry_after_is_sent_as_a_pack_says(tmp_path: Path) -> None:
    path = tmp_path / "pack.toml"
    path.write_text(
        '[[users]]\nid = "blocked"\n[[users.answers]]\nendpoint = "refresh_balance"\n'
        'code = "AC-108"\nretry_after = 600\n',
        encoding="utf-8",
    )
    app = create_app(clock=FrozenClock(START), scenarios=[path])
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app), base_url=BASE_URL) as http:
        answer = await http.post("/accounts/blocked/refresh", headers=await bearer(http))
        users = (await http.get("/_sandbox/scenarios")).json()["users"]
    assert answer.status_code == 429 and answer.headers["retry-after"] == "600"
    assert answer.json()["error"]["code"] == "AC-108"
    assert users[-1] == {"user_id": "blocked", "summary": "linked; refresh_balance: 429 AC-108"}


JOBS = """
[[users]]
id = "slow"

[users.jobs]
seconds = 10

[users.jobs.identity]
seconds = 4
fail = { code = "AC-104", at = "pending" }

[users.jobs.transactions.fail]
code = "AC-204"
message = "No account information available, please select another bank."
"""


def test_jobs_run_as_long_as_a_pack_says_and_fail_where_it_says(tmp_path: Path) -> None:
    engine, token = _engine(tmp_path, JOBS)
    clock = engine.clock
    refresh = engine.refresh_balance(token, "slow")["job_id"]
    identity = engine.start_identity(token, "slow")["job_id"]
    transactions = engine.start_transactions(token, "slow")["job_id"]
    clock.advance(1)  # identity's pending quarter of 4 s has ended: it fails there
    job = engine.get_job(token, "slow", identity)
    assert (job["status"], job["error"]) == ("failed", {
        "code": "AC-104",
        "message": "We are having issues connecting to your bank. Reconnect your bank or reach "
        "out to support@accountdesk.example to resolve the issue.",
    })  # fmt: skip
    assert job["updated_at"] == (START + dt.timedelta(seconds=1)).isoformat(timespec="milliseconds")
    clock.advance(2)  # 3 s: past the pack's 10 s job's pending quarter
    assert engine.get_job(token, "slow", transactions)["status"] == "in_progress"
    clock.advance(7)  # 10 s: the refresh completes, the transactions job fails as it would
    assert engine.get_job(token, "slow", refresh)["status"] == "completed"
    failed = engine.get_job(token, "slow", transactions)
    assert failed["status"] == "failed" and failed["error"]["code"] == "AC-204"
    # A failed job is not active: the next identity job starts (no AC-112).
    assert engine.start_identity(token, "slow")["status"] == "pending"


MFA = """
[[users]]
id = "locks"

[users.identity]
phone_numbers = ["+1 303 555 0196"]

[users.mfa]
answer = "2468"
attempts = 2
session_seconds = 60
block_seconds = 120
kinds = ["balance_refresh"]
"""


def test_mfa_as_a_pack_says_question_attempts_session_block_kinds(tmp_path: Path) -> None:
    engine, token = _engine(tmp_path, MFA)
    assert engine.start_identity(token, "locks")["status"] == "pending"  # not an MFA kind
    job = engine.refresh_balance(token, "locks")
    assert job["mfa"] == {
        "question": "Enter the 4-digit code sent to the phone ending 0196",
        "expires_at": (START + dt.timedelta(seconds=60)).isoformat(timespec="milliseconds"),
        "attempts_remaining": 2,
    }
    for _ in range(2):  # two wrong answers: the pack's budget
        engine.submit_mfa(token, "locks", job["job_id"], "0000")
        engine.resolve_mfa(token, "locks", job["job_id"])
    failed = engine.get_job(token, "locks", job["job_id"])
    assert failed["error"]["code"] == "AC-108"
    assert failed["error"]["blocked_until"] == (START + dt.timedelta(seconds=120)).isoformat(
        timespec="milliseconds"
    )
    status, code, _ = _refused(engine.refresh_balance, token, "locks")
    assert (status, code) == (429, "AC-108")
    engine.clock.advance(120)  # the pack's block lifts, then its session runs out after 60 s
    second = engine.refresh_balance(token, "locks")
    assert second["mfa"]["attempts_remaining"] == 2
    engine.clock.advance(60)
    assert _refused(engine.resolve_mfa, token, "locks", second["job_id"])[1] == "AC-110"


def test_data_a_pack_gives_is_served_as_written(tmp_path: Path) -> None:
    engine, token = _engine(
        tmp_path,
        """
        [[users]]
        id = "written"
        [users.account]
        institution_name = "Harbor Point Bank"
        account_number = "12-3456-7"
        currency = "EUR"
        nulls = ["routing_number"]
        [users.balance]
        available = "-12.5"
        as_of = 2026-02-27T08:15:00Z
        nulls = ["current"]
        [users.transactions]
        rows = [
          { transaction_id = "t2", days_ago = 1, amount = "-3.10", description = "Café", category = "Dining" },
          { transaction_id = "t1", date = 2025-12-24, amount = "100", pending = true },
        ]
        """,
    )
    account = engine.get_account(token, "written")
    assert account["routing_number"] is None and account["account_number_masked"] == "••••56-7"
    assert (account["account_number"], account["currency"]) == ("12-3456-7", "EUR")
    balance = engine.get_balance(token, "written")
    assert (balance["available"], balance["current"], balance["currency"]) == ("-12.5", None, "EUR")
    assert balance["as_of"] == "2026-02-27T08:15:00.000+00:00"  # until a refresh completes
    engine.refresh_balance(token, "written")
    engine.clock.advance(2)
    assert engine.get_balance(token, "written")["as_of"] == "2026-03-02T12:00:02.000+00:00"
    rows = json.loads(engine.get_transactions(token, "written"))
    assert rows["currency"] == "EUR"
    assert rows["transactions"] == [
        {"transaction_id": "t2", "date": "2026-03-01", "amount": "-3.10", "description": "Café",
         "category": "Dining", "pending": False},
        {"transaction_id": "t1", "date": "2025-12-24", "amount": "100", "description": "",
         "category": None, "pending": True},
    ]  # fmt: skip


def test_generated_transactions_follow_the_options(tmp_path: Path) -> None:
    engine, token = _engine(
        tmp_path,
        """
        [[users]]
        id = "groceries"
        [users.transactions]
        count = 40
        days = 10
        seed = 7
        categories = ["Groceries"]
        amounts = ["5.00", "6.00"]
        """,
    )
    rows = json.loads(engine.get_transactions(token, "groceries"))["transactions"]
    assert len(rows) == 40 and {row["category"] for row in rows} == {"Groceries"}
    assert all(-600 <= float(row["amount"]) * 100 <= -500 for row in rows)
    assert rows[-1]["date"] == "2026-02-21"  # 10 days: the sandbox's first day and 9 before
    again, token = _engine(tmp_path, (tmp_path / "pack.toml").read_text(encoding="utf-8"))
    assert json.loads(again.get_transactions(token, "groceries"))["transactions"] == rows


def test_a_pack_credential_reaches_only_its_users(tmp_path: Path) -> None:
    engine, _ = _engine(
        tmp_path,
        '[[credentials]]\napi_key = "desk_key"\napi_secret = "desk-secret"\nusers = ["mine"]\n'
        '[[users]]\nid = "mine"\n',
    )
    token = engine.issue_token("desk_key", "desk-secret")["access_token"]
    assert engine.get_account(token, "mine")["user_id"] == "mine"
    assert _refused(engine.get_account, token, "user_good")[1] == "AC-001"
    assert _refused(engine.issue_token, "desk_key", "wrong")[1] == "AC-101"


@pytest.mark.anyio
async def test_a_pack_starts_the_clock_and_a_reset_rewinds_to_it(tmp_path: Path) -> None:
    path = tmp_path / "pack.toml"
    path.write_text("[clock]\nstart = 2030-01-02T03:04:05+02:00\n", encoding="utf-8")
    frozen = create_app(scenarios=[path], frozen_at=START)
    assert frozen.state.clock.now() == dt.datetime(2030, 1, 2, 1, 4, 5, tzinfo=dt.UTC)
    running = create_app(scenarios=[path])
    async with httpx.AsyncClient(transport=httpx.ASGITransport(running), base_url=BASE_URL) as http:
        await http.post("/_sandbox/clock/advance", json={"seconds": 86_400})
        await http.post("/_sandbox/reset")
        now = dt.datetime.fromisoformat((await http.get("/_sandbox/clock")).json()["now"])
    assert (
        dt.timedelta(0)
        <= now - dt.datetime(2030, 1, 2, 1, 4, 5, tzinfo=dt.UTC)
        < dt.timedelta(minutes=1)
    )
    # A clock handed in wins (tests drive their own).
    assert create_app(clock=FrozenClock(START), scenarios=[path]).state.clock.now() == START


def test_every_trainee_world_is_built_from_the_packs_and_counts_its_own_calls(
    tmp_path: Path,
) -> None:
    engine, _ = _engine(tmp_path, FLAKY, tenants=True)
    alice = engine.issue_token("trainee_alice", "sandbox_secret")["access_token"]
    bob = engine.issue_token("trainee_bob", "sandbox_secret")["access_token"]
    engine.get_balance(alice, "flaky")
    assert _refused(engine.get_balance, alice, "flaky")[1] == "AC-104"  # alice's 2nd call
    assert engine.get_balance(bob, "flaky")["user_id"] == "flaky"  # bob's 1st
    assert _refused(engine.get_account, bob, "flaky")[1] == "AC-204"
