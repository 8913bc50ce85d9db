"""Trainee tenants: each trainee_<name> key has a world of its own."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sandbox_helpers import GOOD, START

from accountdesk.sandbox import FrozenClock
from accountdesk.sandbox.engine import SandboxEngine, SandboxError

ALICE = ("trainee_alice", "sandbox_secret")
BOB = ("trainee_bob", "sandbox_secret")


def _raises(code: str, call, *args) -> SandboxError:
    with pytest.raises(SandboxError) as caught:
        call(*args)
    assert caught.value.code == code, caught.value
    return caught.value


@pytest.fixture
def tenants(clock: FrozenClock) -> SandboxEngine:
    return SandboxEngine(clock, ids=1, tenants=True)


def _token(engine: SandboxEngine, credentials: tuple[str, str]) -> str:
    return engine.issue_token(*credentials)["access_token"]


def _block_user_mfa(engine: SandboxEngine, token: str) -> None:
    job_id = engine.refresh_balance(token, "user_mfa")["job_id"]
    for _ in range(3):
        engine.submit_mfa(token, "user_mfa", job_id, "0000")
        engine.resolve_mfa(token, "user_mfa", job_id)


def test_without_tenants_a_trainee_key_is_an_unknown_key(engine: SandboxEngine) -> None:
    _raises("AC-101", engine.issue_token, *ALICE)


@pytest.mark.parametrize(
    "api_key",
    ["trainee_", "trainee_Alice", "trainee_a b", "trainee_" + "a" * 33, "trainee_é", "Trainee_a"],
)
def test_trainee_names_follow_the_rule(tenants: SandboxEngine, api_key: str) -> None:
    _raises("AC-101", tenants.issue_token, api_key, "sandbox_secret")


def test_a_trainee_needs_the_sandbox_secret(tenants: SandboxEngine) -> None:
    _raises("AC-101", tenants.issue_token, "trainee_alice", "wrong")
    assert tenants.tenants is not None and len(tenants.tenants) == 0  # no world for a failure
    for name in ("a", "a" * 32, "team-7_b", "0"):
        assert _token(tenants, (f"trainee_{name}", "sandbox_secret"))


def test_a_trainees_block_and_jobs_stay_in_their_world(tenants: SandboxEngine) -> None:
    alice, bob, shared = _token(tenants, ALICE), _token(tenants, BOB), _token(tenants, GOOD)
    _block_user_mfa(tenants, alice)
    _raises("AC-108", tenants.refresh_balance, alice, "user_mfa")
    assert tenants.refresh_balance(bob, "user_mfa")["status"] == "mfa_required"
    assert tenants.refresh_balance(shared, "user_mfa")["status"] == "mfa_required"

    job_id = tenants.start_identity(alice, "user_good")["job_id"]
    _raises("AC-112", tenants.start_identity, alice, "user_good")
    assert tenants.start_identity(bob, "user_good")["status"] == "pending"
    # Alice's job id means nothing in Bob's world.
    _raises("AC-109", tenants.get_job, bob, "user_good", job_id)
    _raises("AC-109", tenants.get_job, shared, "user_good", job_id)
    assert tenants.get_job(_token(tenants, ALICE), "user_good", job_id)["job_id"] == job_id


def test_each_trainee_has_a_clock_of_their_own(tenants: SandboxEngine, clock: FrozenClock) -> None:
    alice, bob = _token(tenants, ALICE), _token(tenants, BOB)
    assert tenants.advance_clock(600, alice) == START + timedelta(seconds=600)
    assert tenants.clock_now(bob) == START
    assert tenants.clock_now() == START  # the shared world
    clock.advance(5)  # the app's clock moves every world
    assert tenants.clock_now(alice) == START + timedelta(seconds=605)
    assert tenants.clock_now(bob) == START + timedelta(seconds=5)
    # Tokens expire on their world's clock.
    tenants.advance_clock(3000, alice)
    _raises("AC-001", tenants.get_account, alice, "user_good")
    assert tenants.get_account(bob, "user_good")["user_id"] == "user_good"


def test_a_trainees_reset_touches_only_their_world(
    tenants: SandboxEngine, clock: FrozenClock
) -> None:
    alice, bob = _token(tenants, ALICE), _token(tenants, BOB)
    _block_user_mfa(tenants, alice)
    _block_user_mfa(tenants, bob)
    tenants.advance_clock(60, alice)
    tenants.advance_clock(60, bob)
    assert tenants.reset(alice) == START
    assert tenants.refresh_balance(alice, "user_mfa")["status"] == "mfa_required"
    _raises("AC-108", tenants.refresh_balance, bob, "user_mfa")
    assert tenants.clock_now(bob) == START + timedelta(seconds=60)


def test_control_without_a_token_acts_on_the_shared_world(tenants: SandboxEngine) -> None:
    alice, shared = _token(tenants, ALICE), _token(tenants, GOOD)
    tenants.advance_clock(30)
    assert tenants.clock_now(shared) == START + timedelta(seconds=30)
    assert tenants.clock_now(alice) == START
    _raises("AC-001", tenants.advance_clock, 30, "forged")


def test_the_room_has_a_size(clock: FrozenClock) -> None:
    engine = SandboxEngine(clock, tenants=True, max_tenants=2)
    _token(engine, ALICE)
    _token(engine, BOB)
    error = _raises("AC-929", engine.issue_token, "trainee_carol", "sandbox_secret")
    assert error.status == 429
    assert _token(engine, ALICE)  # trainees already in keep signing in
    assert _token(engine, GOOD)
    with pytest.raises(ValueError):
        SandboxEngine(clock, tenants=True, max_tenants=0)
