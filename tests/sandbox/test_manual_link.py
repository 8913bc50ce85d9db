"""A pack user with ``link_type = "manual"`` is refused what the contract's rule 3 refuses.

Rule 3 (section 7.3): a manually linked user's balance, refresh, identity
start, transactions start and transactions read answer AC-105, AC-107,
AC-111, AC-114 and AC-115, each 405. The shipped ``user_manual`` gets them
from its forced answers; a pack's manual user gets them from its link type,
and a forced answer of the pack still wins (issue 33, item 4).
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from sandbox_helpers import START

from accountdesk.contract import ERRORS, ErrorFamily
from accountdesk.sandbox import FrozenClock, load_scenarios
from accountdesk.sandbox.engine import SandboxEngine, SandboxError
from accountdesk.sandbox.packs.summary import details

#: Rule 3, endpoint by endpoint, as the engine's operations name them.
RULE_3 = {
    "get_balance": "AC-105",
    "refresh_balance": "AC-107",
    "start_identity": "AC-111",
    "start_transactions": "AC-114",
    "get_transactions": "AC-115",
}


def _engine(tmp_path: Path, text: str) -> tuple[SandboxEngine, str]:
    path = tmp_path / "pack.toml"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    engine = SandboxEngine(FrozenClock(START), ids=1, scenarios=load_scenarios([path]))
    return engine, engine.issue_token("sandbox_key", "sandbox_secret")["access_token"]


def _answer(engine: SandboxEngine, token: str, operation: str, user_id: str) -> str:
    """The code ``operation`` answers, or "ok"."""
    call = getattr(engine, operation)
    try:
        result = call(token, user_id)
        if operation == "get_transactions":
            assert isinstance(result, bytes)
    except SandboxError as error:
        assert error.status == 405 or error.body["error"]["code"] not in RULE_3.values()
        return str(error.body["error"]["code"])
    return "ok"


def test_rule_3_is_the_catalogues_manual_user_codes() -> None:
    manual = {code for code, spec in ERRORS.items() if spec.family is ErrorFamily.MANUAL_USER}
    assert set(RULE_3.values()) == manual


def test_a_manual_pack_user_answers_rule_3_like_the_shipped_one(tmp_path: Path) -> None:
    engine, token = _engine(tmp_path, '[[users]]\nid = "by_hand"\nlink_type = "manual"\n')
    for operation, code in RULE_3.items():
        assert _answer(engine, token, operation, "by_hand") == code, operation
        assert _answer(engine, token, operation, "user_manual") == code, operation
    # What rule 3 leaves alone still answers: the account (it says "manual") and identity.
    assert engine.get_account(token, "by_hand")["link_type"] == "manual"
    assert engine.get_identity(token, "by_hand")["user_id"] == "by_hand"
    # scenarios check says so.
    assert details(engine.scenarios["by_hand"])[-1] == (
        "manually linked (rule 3, each 405 unless answered above): get_balance AC-105, "
        "refresh_balance AC-107, start_identity AC-111, start_transactions AC-114, "
        "get_transactions AC-115"
    )


def test_a_forced_answer_still_wins_over_rule_3(tmp_path: Path) -> None:
    engine, token = _engine(
        tmp_path,
        """
        [[users]]
        id = "by_hand"
        link_type = "manual"

        [[users.answers]]
        endpoint = "get_balance"
        code = "AC-104"

        [[users.answers]]
        endpoint = "refresh_balance"
        code = "AC-104"
        from_call = 2
        calls = 1
        """,
    )
    assert _answer(engine, token, "get_balance", "by_hand") == "AC-104"
    # Before and after the forced call: rule 3 again.
    assert [_answer(engine, token, "refresh_balance", "by_hand") for _ in range(3)] == [
        "AC-107",
        "AC-104",
        "AC-107",
    ]
    assert _answer(engine, token, "start_identity", "by_hand") == "AC-111"


@pytest.mark.parametrize("link_type", ["fi", None])
def test_a_linked_pack_user_answers(tmp_path: Path, link_type: str | None) -> None:
    line = f'link_type = "{link_type}"\n' if link_type else ""
    engine, token = _engine(tmp_path, f'[[users]]\nid = "linked"\n{line}')
    assert {op: _answer(engine, token, op, "linked") for op in RULE_3} == dict.fromkeys(
        RULE_3, "ok"
    )
