"""Compact columns (cents, codes, joined ids, flags) give exactly what plain lists gave.

The oracle is the slow, obvious one: the body's rows as Python values
(``Decimal``, ``str``), sorted, filtered, summed and written to CSV with
the standard library. The data under test is read by the client's decode
(compact when NumPy is installed) and streamed in batches.
"""

from __future__ import annotations

import csv
import io
import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from accountdesk.client.transactions import fill as columns_module
from accountdesk.client.transactions.arrays import (
    CentsAmounts,
    CodedTexts,
    DayDates,
    Flags,
    JoinedIds,
)
from accountdesk.client.transactions.checked import fill_checked
from accountdesk.client.transactions.columns import ColumnsError
from accountdesk.client.transactions.stream import ColumnStream
from accountdesk.core.store import Store
from accountdesk.core.transactions.data import TransactionData
from accountdesk.core.transactions.view import TransactionView
from transaction_bodies import parse_body

# Plain cents, and every form that must take the exact path.
AMOUNTS = st.one_of(
    st.integers(-(10**15) + 1, 10**15 - 1).map(lambda c: str(Decimal(c).scaleb(-2))),
    st.sampled_from(
        [
            "7",
            "0.1",
            "-0.00",
            "0.00",
            "0.005",
            "-12.345",
            "99999999999999.99",
            "1" + "0" * 20,
            "123456789012345678.5",
            "00012.30",
            "-0.01",
            "12.5",
        ]
    ),
    # Written as JSON numbers (json.dumps writes a float's repr, as json.loads reads it).
    st.integers(-(10**6), 10**6),
    st.sampled_from([12.5, -0.0, 0.1, -3.25, 1e-05, 7.0, 99999999999999.98]),
)
DATES = st.sampled_from([None, "0001-01-01", "9999-12-31", "2024-02-29", "2026-03-01"])
TEXTS = st.sampled_from(["Coffee", "", "Café Ünï", "CORNER shop", "x" * 2100, "a\x1bb", "☕ 東京"])
IDS = st.sampled_from(["txn_1", "tx-ü", "t" * 250, "id.with.dots", "東京-7"])

ROWS = st.lists(
    st.tuples(IDS, DATES, TEXTS, st.one_of(st.none(), TEXTS), AMOUNTS, st.booleans()),
    max_size=12,
)


def _body(rows: list[tuple[Any, ...]]) -> bytes:
    return json.dumps(
        {
            "user_id": "u1",
            "currency": "USD",
            "transactions": [
                {
                    "transaction_id": f"{tid}{n}",
                    "date": day,
                    "description": text,
                    "category": category,
                    "amount": amount,
                    "pending": pending,
                }
                for n, (tid, day, text, category, amount, pending) in enumerate(rows)
            ],
        }
    ).encode()


def _row_by_row(content: bytes) -> columns_module.TransactionColumns:
    body = json.loads(content)
    columns = columns_module.TransactionColumns(user_id="u1", currency="USD")
    fill_checked(columns, body["transactions"])
    return columns


def _streamed(content: bytes) -> TransactionData:
    """The body fed in small pieces, its batches appended as a streamed read does."""
    data = TransactionData.streaming()
    stream = ColumnStream(first_batch_bytes=64, batch_bytes=256)
    for start in range(0, len(content), 97):
        for batch in stream.feed(content[start : start + 97]):
            data.append(batch)
    for batch in stream.finish():
        data.append(batch)
    data.complete = True
    return data


def _csv_reference(lists: columns_module.TransactionColumns, order: list[int]) -> str:
    out = io.StringIO(newline="")
    writer = csv.writer(out)
    writer.writerow(
        ["transaction_id", "date", "description", "category", "amount", "currency", "pending"]
    )
    safe = lambda t: "'" + t if t[:1] in ("=", "+", "-", "@", "\t", "\r") else t  # noqa: E731
    for i in order:
        writer.writerow(
            [
                lists.transaction_ids[i],
                lists.dates[i],
                safe(lists.descriptions[i]),
                safe(lists.categories[i]),
                str(lists.amounts[i]),
                "USD",
                "yes" if lists.pending[i] else "no",
            ]
        )
    return out.getvalue()


@settings(
    max_examples=25,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(rows=ROWS, key=st.sampled_from([None, "amount", "date", "description", "pending"]))
def test_compact_data_gives_the_rows_totals_sort_filter_and_csv_of_plain_lists(
    rows: list[tuple[Any, ...]], key: str | None, tmp_path: Path
) -> None:
    content = _body(rows)
    lists = _row_by_row(content)  # the row-by-row path: plain lists, Decimals
    compact = parse_body(content)
    assert compact == lists  # every column, value by value
    for data in (TransactionData.from_columns(compact), _streamed(content)):
        assert [data.row(i) for i in range(len(data))] == [
            (
                lists.transaction_ids[i],
                lists.dates[i],
                lists.descriptions[i],
                lists.categories[i],
                lists.amounts[i],
                lists.pending[i],
            )
            for i in range(len(lists))
        ]
        view = TransactionView(data)
        assert view.view_amount_total == sum(lists.amounts, Decimal(0))
        view.sort_by(key)
        # Stable: ties in the service's order; ISO dates sort as their text ("" first).
        oracle = {
            "amount": lambda i: float(lists.amounts[i]),
            "date": lambda i: lists.dates[i],
            "pending": lambda i: lists.pending[i],
        }
        if key in oracle:
            assert view.view.tolist() == sorted(range(len(lists)), key=oracle[key])
            view.sort_by(key, reverse=True)
            if key == "amount":  # reversed: the negated key, still stable
                expected = sorted(range(len(lists)), key=lambda i: -float(lists.amounts[i]))
                assert view.view.tolist() == expected
        view.set_filter("shop")
        shown = view.view.tolist()
        assert sorted(shown) == [
            i
            for i in range(len(lists))
            if "shop" in lists.descriptions[i].casefold()
            or "shop" in lists.categories[i].casefold()
        ]
        assert view.view_amount_total == sum((lists.amounts[i] for i in shown), Decimal(0))
        path = tmp_path / "out.csv"
        view.export_csv(Store(), path)
        assert path.read_bytes() == _csv_reference(lists, shown).encode()


def test_the_usual_body_is_held_as_arrays_not_python_objects() -> None:
    content = _body([("txn_", "2026-03-01", "Coffee", "food", "-12.34", False)] * 3)
    columns = parse_body(content)
    assert isinstance(columns.transaction_ids, JoinedIds)
    assert isinstance(columns.dates, DayDates) and isinstance(columns.descriptions, CodedTexts)
    assert columns.dates == ["2026-03-01"] * 3
    assert isinstance(columns.pending, Flags)
    assert isinstance(columns.amounts, CentsAmounts) and not columns.amounts.exact
    assert columns.amounts.cents.tolist() == [-1234] * 3
    assert columns.transaction_ids[-1] == "txn_2" and columns.transaction_ids[1:] == [
        "txn_1",
        "txn_2",
    ]
    with pytest.raises(IndexError):
        columns.dates[3]


@pytest.mark.parametrize(
    ("amount", "text"),
    [
        ("-0.00", "-0.00"),
        ("7", "7"),
        ("0.125", "0.125"),
        ("12345678901234.56", "12345678901234.56"),
    ],
)
def test_amounts_that_are_not_plain_cents_keep_their_exact_form(amount: str, text: str) -> None:
    data = TransactionData.from_columns(parse_body(_body([("t", None, "", None, amount, False)])))
    assert str(data.amounts[0]) == text
    assert TransactionView(data).view_amount_total == Decimal(amount)


@pytest.mark.parametrize(
    ("field", "value"), [("amount", "1.2.3"), ("date", "2026-02-30"), ("amount", "1" * 30)]
)
def test_a_bad_row_in_the_middle_of_a_batch_is_named_by_its_place(field: str, value: str) -> None:
    rows = [("t", "2026-03-01", "x", None, "1.00", False)] * 6
    body = json.loads(_body(rows))
    body["transactions"][3][field] = value
    content = json.dumps(body).encode()
    with pytest.raises(ColumnsError) as caught:
        parse_body(content)
    assert caught.value.where == f"transactions.3.{field}"
    stream = ColumnStream(first_batch_bytes=10**6)  # one batch holds every row
    with pytest.raises(ColumnsError) as caught:
        stream.feed(content)
        stream.finish()
    assert caught.value.where == f"transactions.3.{field}"


@pytest.mark.parametrize(
    "day", ["0000-01-01", "2025-02-29", "2026-13-01", "\uff12026-03-01", "2026-03-1", "20260301"]
)
def test_a_date_that_is_not_a_real_iso_date_is_named(day: str) -> None:
    rows = [("t", "2026-03-01", "x", None, "1.00", False)] * 3
    body = json.loads(_body(rows))
    body["transactions"][1]["date"] = day
    with pytest.raises(ColumnsError) as caught:
        parse_body(json.dumps(body).encode())
    assert caught.value.where == "transactions.1.date"
