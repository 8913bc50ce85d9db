"""The catalogue against the contract document itself.

When the spec is beside the repository (``../shared/spec``, as on developer
machines and in CI), its tables are parsed and compared with the catalogue, so
a typo in a message or a missing row fails here rather than in production.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from accountdesk.contract import (
    ALL_ENDPOINTS,
    CODE_PATTERN,
    ENDPOINT_ERRORS,
    ERRORS,
    SANDBOX_CODES,
    SUPPORT_EMAIL,
    UNLISTED_CODES,
    endpoint_error_pairs,
    endpoint_named,
    endpoints,
)

SPEC = Path(__file__).resolve().parents[2] / "shared" / "spec" / "account-data-service.md"
needs_spec = pytest.mark.skipif(
    not SPEC.is_file(), reason="contract document not beside the repository"
)


def _section(title_prefix: str) -> str:
    text = SPEC.read_text(encoding="utf-8")
    start = text.index(title_prefix)
    end = text.find("\n### ", start + len(title_prefix))
    return text[start : end if end != -1 else len(text)]


def _table_rows(section: str) -> list[list[str]]:
    rows = []
    for line in section.splitlines():
        if line.startswith("| `"):
            rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
    return rows


def _quoted(cell: str) -> set[str]:
    # Parenthesised remarks quote words too ("blockd"); they are not messages.
    without_remarks = re.sub(r"\s\([^)]*\)", "", cell)
    return set(re.findall(r'"([^"]+)"', without_remarks))


@needs_spec
def test_every_code_of_section_7_1_is_catalogued_with_its_status_and_text() -> None:
    rows = _table_rows(_section("### 7.1"))
    assert {row[0].strip("`") for row in rows} == set(ERRORS)
    for code_cell, status_cell, message_cell, _condition in rows:
        spec = ERRORS[code_cell.strip("`")]
        assert spec.status == int(status_cell.split()[0])
        texts = {
            template.replace("{support_email}", "<SUPPORT_EMAIL>")
            for template in (spec.message, *spec.message_by_endpoint.values())
        }
        expected = _quoted(message_cell)
        same_as = re.match(r"Same text as `(AC-\d{3})`", message_cell)
        if same_as:
            expected = {ERRORS[same_as.group(1)].message}
        assert texts == expected, spec.code


@needs_spec
def test_section_7_2_matches_endpoint_errors_including_per_endpoint_statuses() -> None:
    rows = _table_rows(_section("### 7.2"))
    assert len(rows) == len(ALL_ENDPOINTS)
    for endpoint_cell, errors_cell in rows:
        method, path = endpoint_cell.strip("`").split(" ", 1)
        endpoint = next(e for e in ALL_ENDPOINTS if (e.method, e.path) == (method, path))
        listed = re.findall(r"`(AC-\d{3})` (\d{3})", errors_cell)
        assert tuple(code for code, _ in listed) == ENDPOINT_ERRORS[endpoint.name]
        for code, status in listed:
            assert ERRORS[code].status_for(endpoint) == int(status), (endpoint.name, code)


@needs_spec
def test_section_4_lists_exactly_our_endpoints() -> None:
    rows = [line for line in _section("## 4.").splitlines() if re.match(r"\| (GET|POST) \|", line)]
    listed = {
        tuple(cell.strip().strip("`") for cell in row.strip("|").split("|")[:2]) for row in rows
    }
    assert listed == {(e.method, e.path) for e in ALL_ENDPOINTS}


def test_every_code_has_the_contract_shape() -> None:
    for code in [*ERRORS, *UNLISTED_CODES, *SANDBOX_CODES]:
        assert CODE_PATTERN.match(code), code
    for near_miss in ("AC-1000", "AC-10", "AC-100\n", "ac-100", "AC-\u0661\u0660\u0660", " AC-100"):
        assert not CODE_PATTERN.match(near_miss), repr(near_miss)
    assert not set(SANDBOX_CODES) & set(ERRORS), "sandbox codes must not shadow service codes"


def test_exceptions_of_the_contract_are_kept() -> None:
    refresh, balance = endpoints.REFRESH, endpoints.BALANCE
    assert ERRORS["AC-102"].status_for(refresh) == 400
    assert ERRORS["AC-102"].status_for(endpoints.ACCOUNT) == 404
    assert "blockd" in ERRORS["AC-108"].message
    assert ERRORS["AC-100"].message_for(endpoints.TOKEN) != ERRORS["AC-100"].message_for(balance)
    # AC-109 names the user on the job endpoint and the job elsewhere.
    on_job = ERRORS["AC-109"].message_for(endpoints.JOB, user_id="u1", job_id="j1")
    on_mfa = ERRORS["AC-109"].message_for(endpoints.MFA_ANSWER, user_id="u1", job_id="j1")
    assert "u1" in on_job and "j1" not in on_job
    assert "j1" in on_mfa and "u1" not in on_mfa
    assert SUPPORT_EMAIL in ERRORS["AC-104"].message_for(balance)
    assert ERRORS["AC-113"].message == ERRORS["AC-106"].message


def test_body_is_the_section_2_envelope() -> None:
    spec = ERRORS["AC-102"]
    body = spec.body_for(endpoints.ACCOUNT, user_id="user_x")
    assert body == {"error": {"code": "AC-102", "message": spec.message.format(user_id="user_x")}}
    assert "user_x" in body["error"]["message"]


def test_pairs_cover_every_row_once() -> None:
    pairs = endpoint_error_pairs()
    assert len(pairs) == sum(len(codes) for codes in ENDPOINT_ERRORS.values()) == 55
    assert len({(e.name, s.code) for e, s in pairs}) == len(pairs)
    assert endpoint_named("get_job") is endpoints.JOB
