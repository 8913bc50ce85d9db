"""Packs written as TOML: any text survives, tables land where the format reads them."""

from __future__ import annotations

import datetime as dt
import tomllib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from accountdesk.core.cases.pack_toml import pack_text, toml_string, toml_value


@settings(max_examples=200, derandomize=True, deadline=None)
@given(st.text(st.characters(exclude_categories=("Cs",))))
def test_any_text_reads_back_as_written(text: str) -> None:
    assert tomllib.loads(f"x = {toml_string(text)}")["x"] == text


def test_a_lone_surrogate_becomes_a_replacement_character() -> None:
    written = toml_string("a\ud800b")
    assert tomllib.loads(f"x = {written}")["x"] == "a\ufffdb"


def test_values_and_what_a_pack_cannot_hold() -> None:
    moment = dt.datetime(2026, 3, 2, 12, 0, 0, 123000, tzinfo=dt.UTC)
    document = tomllib.loads(
        "v = " + toml_value({"a": [1, 2.5, True], "b": moment, "c": dt.date(2026, 3, 2)})
    )
    assert document["v"] == {"a": [1, 2.5, True], "b": moment, "c": dt.date(2026, 3, 2)}
    for bad in (float("nan"), dt.datetime(2026, 1, 1), object()):
        with pytest.raises((ValueError, TypeError)):
            toml_value(bad)


def test_a_pack_reads_back_table_by_table() -> None:
    user = {
        "id": "u",
        "account": {"institution_name": 'Bank "Quoted"', "nulls": ["currency"]},
        "identity": {"names": ["A"], "addresses": [{"street": "1 Main"}, {"city": "X"}]},
        "transactions": {"rows": [{"transaction_id": "t1", "amount": "1.00"}] * 3},
        "answers": [{"endpoint": "*", "code": "AC-104"}, {"endpoint": "get_job", "code": "AC-109"}],
        "jobs": {"identity": {"fail": {"code": "AC-104", "at": "pending"}}},
    }
    text = pack_text({"title": "T", "users": [user, {"id": "v"}]}, ["first line", "second"])
    assert text.startswith('# first line\n# second\n\ntitle = "T"\n')
    assert '\n  { transaction_id = "t1", amount = "1.00" },\n' in text  # a row a line
    assert 'fail = { code = "AC-104", at = "pending" }' in text
    assert tomllib.loads(text) == {"title": "T", "users": [user, {"id": "v"}]}
