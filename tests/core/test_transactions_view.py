"""The transactions view model: sort, filter, date range, totals and CSV."""

from __future__ import annotations

import csv
import stat
from decimal import Decimal
from pathlib import Path

import pytest

from accountdesk.core.store import Store
from accountdesk.core.transactions import TransactionRow, TransactionView


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
