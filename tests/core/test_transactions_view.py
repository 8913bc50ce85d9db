"""The transactions view model: sort, filter, date range, totals and CSV."""

from __future__ import annotations

import csv
import stat
from decimal import Decimal
from pathlib import Path

import pytest

from accountdesk.core.store import Store
from accountdesk.core.transactions.columns import TransactionRow
from accountdesk.core.transactions.date_range import DateRangeProblem, parse_date_range
from accountdesk.core.transactions.view import TransactionView


def view() -> TransactionView:
    rows = [
        TransactionRow("t1", "2025-01-06", "Coffee", "Dining", Decimal("-4.50"), True),
        TransactionRow("t2", "2025-01-05", "Payroll", "Income", Decimal("2500.00"), False),
        TransactionRow("t3", "2025-01-04", "=HYPERLINK(x)", "Shopping", Decimal("-10.00"), False),
        TransactionRow("t4", "2025-01-04", "coffee beans", "Groceries", Decimal("-12.00"), False),
    ]
    return TransactionView.from_rows(rows, currency="USD")


def ids(v: TransactionView) -> list[str]:
    return [v.row(i).transaction_id for i in range(len(v))]


def test_sort_then_again_reverses_and_ties_keep_the_services_order() -> None:
    v = view()
    v.sort_by("amount")
    assert ids(v) == ["t4", "t3", "t1", "t2"]
    v.sort_by("amount")
    assert ids(v) == ["t2", "t1", "t3", "t4"]
    v.sort_by("date")
    assert ids(v) == ["t3", "t4", "t2", "t1"]  # t3 before t4: the service's order on a tie
    with pytest.raises(ValueError, match="unknown column"):
        v.sort_by("nope")


def test_filter_is_case_insensitive_on_description_and_category_and_keeps_the_sort() -> None:
    v = view()
    v.sort_by("amount")
    v.set_filter("COFFEE")
    assert ids(v) == ["t4", "t1"]
    v.set_filter("dining")
    assert ids(v) == ["t1"]


def test_date_range_and_totals_of_the_rows_shown() -> None:
    v = view()
    assert v.view_amount_total == Decimal("2473.50")
    v.set_date_range("2025-01-05", None)
    assert ids(v) == ["t1", "t2"] and v.view_amount_total == Decimal("2495.50")
    v.set_date_range(None, "2025-01-04")
    assert ids(v) == ["t3", "t4"]
    v.set_filter("coffee")
    assert ids(v) == ["t4"] and v.filtered


def test_csv_export_is_the_view_owner_only_and_formula_safe(tmp_path: Path) -> None:
    v = view()
    v.set_filter("o")
    path = tmp_path / "exports" / "t.csv"
    assert v.export_csv(Store(), path) == len(v)
    rows = list(csv.reader(path.open(encoding="utf-8")))
    assert rows[0][:2] == ["transaction_id", "date"]
    assert [r[0] for r in rows[1:]] == ids(v)
    assert "'=HYPERLINK(x)" in [r[2] for r in rows[1:]] or "t3" not in ids(v)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_views_of_one_data_are_independent_and_share_its_sort_orders() -> None:
    data = view().data
    first, second = TransactionView(data), TransactionView(data)
    first.sort_by("amount")
    first.set_filter("coffee")
    assert ids(second) == ["t1", "t2", "t3", "t4"] and second.sort_key is None
    second.sort_by("amount")
    assert ids(second) == ["t4", "t3", "t1", "t2"]
    index = data.index()
    assert index.order("amount", False) is index.order("amount", False)  # computed once


def test_content_widths_are_the_longest_text_of_each_column() -> None:
    data = view().data
    calls: list[str] = []

    def measure(text: str) -> int:
        calls.append(text)
        return len(text)

    widths = data.content_widths(measure)
    assert widths == {"date": 10, "description": 13, "category": 9, "amount": 8, "pending": 7}
    assert data.content_widths(measure) is widths and len(calls) == len(set(calls))
    empty = TransactionView.from_rows([]).data.content_widths(len)
    assert set(empty.values()) == {0}
    # Text beyond ASCII is measured by the terminal's rule (a CJK character is two cells).
    wide = TransactionView.from_rows(
        [TransactionRow("t", "2025-01-01", "東京 Café", "x", Decimal(1), False)]
    ).data.content_widths(lambda text: 2 * len(text))
    assert wide["description"] == 14  # seven characters, measured as two cells each


@pytest.mark.parametrize(
    ("typed", "start", "end"),
    [
        ("2026-11-01..2026-11-30", "2026-11-01", "2026-11-30"),
        (" 2026-11-01 .. 2026-11-30 ", "2026-11-01", "2026-11-30"),
        ("2026-11-01..", "2026-11-01", None),
        ("..2026-11-30", None, "2026-11-30"),
        ("2026-11-05", "2026-11-05", "2026-11-05"),
        ("", None, None),
        ("..", None, None),
    ],
)
def test_date_ranges_typed(typed: str, start: str | None, end: str | None) -> None:
    parsed = parse_date_range(typed)
    assert parsed.iso == (start, end)
    assert parse_date_range(str(parsed)) == parsed  # what the box shows back reads the same


@pytest.mark.parametrize(
    ("typed", "problem"),
    [
        ("2026-02-30", "“2026-02-30” is not a date: use YYYY-MM-DD"),
        ("20261101", "“20261101” is not a date: use YYYY-MM-DD"),
        ("2026-11-01..nov 30", "“nov 30” is not a date: use YYYY-MM-DD"),
        ("2026-11-01..2026-11-02..2026-11-03", "Use one “..” between the dates: FROM..TO"),
        ("2026-11-30..2026-11-01", "The range ends (2026-11-01) before it starts (2026-11-30)"),
    ],
)
def test_wrong_date_ranges_say_what_is_wrong(typed: str, problem: str) -> None:
    with pytest.raises(DateRangeProblem) as caught:
        parse_date_range(typed)
    assert str(caught.value) == problem
