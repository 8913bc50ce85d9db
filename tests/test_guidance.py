"""Guidance beside every code, and the one-source rule for the catalogue's texts.

Every code the app can show (the service's catalogue, its unlisted codes, the
sandbox's own codes) and every failure without a code has a meaning and a
one-line next step. No message or guidance text of the catalogue is written
anywhere else in ``src/``: the toast, the error log, the exports and
``accountdesk explain`` all read it from the contract.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest

from accountdesk.contract import (
    ERRORS,
    FAILURE_GUIDANCE,
    SANDBOX_CODES,
    SUPPORT_EMAIL,
    UNLISTED_CODES,
    FailureKind,
    Guidance,
    endpoints,
    guidance_for_code,
    known_spec,
)

SRC = Path(__file__).resolve().parents[1] / "src" / "accountdesk"
#: Where the catalogue's texts are written, once each.
HOMES = {
    SRC / "contract" / "errors.py",
    SRC / "contract" / "sandbox_codes.py",
    SRC / "contract" / "guidance.py",
}
ALL_SPECS = {**ERRORS, **UNLISTED_CODES, **SANDBOX_CODES}
#: Longest next step: it is the last line of a toast.
MAX_NEXT_STEP = 100


def _all_guidance() -> list[tuple[str, Guidance]]:
    return [(code, spec.guidance) for code, spec in ALL_SPECS.items()] + [
        (str(kind), guidance) for kind, guidance in FAILURE_GUIDANCE.items()
    ]


@pytest.mark.parametrize(("name", "guidance"), _all_guidance(), ids=lambda v: str(v)[:14])
def test_every_failure_has_a_meaning_and_one_short_next_step(name, guidance: Guidance) -> None:
    assert len(guidance.meaning) >= 40, name
    assert 20 <= len(guidance.next_step) <= MAX_NEXT_STEP, name
    assert "\n" not in guidance.next_step + guidance.meaning, name
    assert guidance.next_step.endswith("."), name
    assert guidance.meaning.endswith("."), name


def test_every_failure_kind_has_guidance() -> None:
    assert set(FAILURE_GUIDANCE) == set(FailureKind)


def test_the_unlisted_code_of_the_contract_is_guided() -> None:
    assert "AC-204" in UNLISTED_CODES
    assert known_spec("AC-204") is UNLISTED_CODES["AC-204"]
    assert guidance_for_code("AC-204").next_step == UNLISTED_CODES["AC-204"].next_step


def test_an_uncatalogued_code_gets_the_unknown_code_guidance() -> None:
    assert known_spec("AC-999") is None
    assert guidance_for_code("AC-999") == FAILURE_GUIDANCE[FailureKind.UNKNOWN_CODE]
    assert guidance_for_code("AC-904") == SANDBOX_CODES["AC-904"].guidance


def test_ac106_and_ac113_share_a_message_but_say_which_endpoint_answered() -> None:
    paused, mismatch = ERRORS["AC-106"], ERRORS["AC-113"]
    assert paused.message == mismatch.message
    assert paused.meaning != mismatch.meaning
    # Each names its own endpoint and not the other's, and points at its twin.
    assert "/balance" in paused.meaning and "/identity" not in paused.meaning
    assert "/identity" in mismatch.meaning and "/balance" not in mismatch.meaning
    assert "AC-113" in paused.meaning and "AC-106" in mismatch.meaning
    assert endpoints.BALANCE.name != endpoints.IDENTITY_READ.name


def test_ac101_and_ac001_share_a_message_but_not_a_meaning() -> None:
    assert ERRORS["AC-101"].message == ERRORS["AC-001"].message
    assert "AC-001" in ERRORS["AC-101"].meaning and "AC-101" in ERRORS["AC-001"].meaning


def test_ac104_says_reconnect_or_write_to_support() -> None:
    step = ERRORS["AC-104"].next_step
    assert "reconnect" in step and SUPPORT_EMAIL in step


def test_ac108_says_the_block_lifts_by_itself_and_where_the_time_comes_from() -> None:
    meaning = ERRORS["AC-108"].meaning
    assert "lifts by itself" in meaning
    assert "Retry-After" in meaning and "blocked_until" in meaning


# -- the one-source rule -----------------------------------------------------------

#: A shorter run of shared words is a coincidence, not a copy.
MIN_FRAGMENT = 20
_PLACEHOLDER = re.compile(r"\{[a-z_]*\}")


def _fragments(text: str) -> list[str]:
    """The runs of ``text`` between placeholders (and the support address), long enough to matter."""
    parts = _PLACEHOLDER.split(text.replace(SUPPORT_EMAIL, "{}"))
    return [part for part in parts if len(part) >= MIN_FRAGMENT]


def catalogue_texts() -> list[str]:
    """Every text the catalogue owns: the service's messages and our guidance."""
    texts: list[str] = []
    for spec in ALL_SPECS.values():
        texts += [spec.message, *spec.message_by_endpoint.values(), spec.meaning, spec.next_step]
    for guidance in FAILURE_GUIDANCE.values():
        texts += [guidance.meaning, guidance.next_step]
    return texts


def string_literals(source: str) -> Iterator[tuple[int, str]]:
    """``(line, text)`` of every string literal; an f-string's fields read ``{}``."""
    parts: set[int] = set()  # an f-string's pieces are read with it, not alone
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.JoinedStr):
            parts.update(id(part) for part in node.values)
            text = "".join(
                part.value if isinstance(part, ast.Constant) else "{}" for part in node.values
            )
            yield node.lineno, text
        elif (
            isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in parts
        ):
            yield node.lineno, node.value


def copies(literals: Iterable[tuple[int, str]], texts: list[str]) -> list[tuple[int, str]]:
    """Literals that hold a catalogue text, or a long enough piece of one."""
    wanted = [fragment for text in texts for fragment in _fragments(text)]
    found = []
    for line, literal in literals:
        own = _fragments(literal)
        if any(fragment in literal for fragment in wanted) or any(
            piece in text for piece in own for text in texts
        ):
            found.append((line, literal[:60]))
    return found


def test_no_catalogue_text_is_written_outside_the_contract() -> None:
    texts = catalogue_texts()
    found = {}
    for path in sorted(SRC.rglob("*.py")):
        if path in HOMES:
            continue
        hits = copies(string_literals(path.read_text(encoding="utf-8")), texts)
        if hits:
            found[str(path.relative_to(SRC))] = hits
    assert found == {}


def test_each_service_message_is_written_once_in_the_catalogue() -> None:
    literals = [
        (f"{path.name}:{line}", text)
        for path in sorted(HOMES)
        for line, text in string_literals(path.read_text(encoding="utf-8"))
    ]
    messages = {
        template for spec in ALL_SPECS.values()
        for template in (spec.message, *spec.message_by_endpoint.values())
    }  # fmt: skip
    for message in messages:
        wanted = _PLACEHOLDER.sub("{}", message)
        holders = [where for where, text in literals if wanted in _PLACEHOLDER.sub("{}", text)]
        assert len(holders) == 1, (message, holders)


def test_the_one_source_check_can_fail() -> None:
    texts = [ERRORS["AC-104"].message, ERRORS["AC-108"].next_step]
    source = (
        f"A = {ERRORS['AC-108'].message!r}\n"  # not among these texts: no
        "B = f'reach out to {x} to resolve the issue.'\n"  # a piece of AC-104's message
        f"C = {ERRORS['AC-108'].next_step[:30]!r}\n"  # a piece of AC-108's next step
        "D = 'Nothing to do with the catalogue at all, surely'\n"
    )
    assert [line for line, _ in copies(string_literals(source), texts)] == [2, 3]
