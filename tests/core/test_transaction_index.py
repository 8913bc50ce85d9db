"""The NumPy index behind sort, filter, date range and totals, against a plain-Python reference."""

from __future__ import annotations

import random
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from accountdesk.core.transactions.columns import TransactionRow
from accountdesk.core.transactions.view import TransactionView

MERCHANTS = ["Café Noir", "ATM", "Payroll", "corner shop", "CORNER SHOP", "Ünïcode Ltd", ""]
CATEGORIES = ["Dining", "Cash", "Income", "", "Groceries"]


def random_rows(count: int, seed: int) -> list[TransactionRow]:
    rng = random.Random(seed)
    return [
        TransactionRow(
            f"t{i}",
            ""
            if rng.random() < 0.05
            else f"2026-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
            rng.choice(MERCHANTS),
            rng.choice(CATEGORIES),
            Decimal(rng.randint(-5000, 5000)).scaleb(-2),
            rng.random() < 0.1,
        )
        for i in range(count)
    ]


def reference(
    rows: list[TransactionRow],
    needle: str,
    date_from: str | None,
    date_to: str | None,
    key: str | None,
    reverse: bool,
) -> list[str]:
    """What the view must show, computed the slow, obvious way."""
    positions = list(range(len(rows)))
    if key is not None:

        def sort_key(i: int) -> object:
            value = getattr(rows[i], key)
            return value.casefold() if isinstance(value, str) and key != "date" else value

        positions.sort(key=sort_key, reverse=reverse)  # stable: ties in the service's order
    elif reverse:
        positions.reverse()
    needle = needle.strip().casefold()
    kept = []
    for i in positions:
        row = rows[i]
        if (
            needle
            and needle not in row.description.casefold()
            and needle not in row.category.casefold()
        ):
            continue
        if (date_from or date_to) and not row.date:
            continue
        if (date_from and row.date < date_from) or (date_to and row.date > date_to):
            continue
        kept.append(row.transaction_id)
    return kept


@pytest.mark.parametrize("seed", range(6))
def test_the_view_matches_the_plain_python_reference(seed: int) -> None:
    rows = random_rows(400, seed)
    rng = random.Random(seed)
    view = TransactionView.from_rows(rows, currency="EUR")
    for _ in range(25):
        key = rng.choice([None, "date", "description", "category", "amount", "pending"])
        reverse = rng.random() < 0.5
        needle = rng.choice(["", "corner", "CAFÉ", "ü", "in", " cash "])
        date_from = rng.choice([None, "2026-03-01", "2026-06-15"])
        date_to = rng.choice([None, "2026-09-30", "2026-06-15"])
        view.sort_by(key, reverse=reverse)
        view.set_filter(needle)
        view.set_date_range(date_from, date_to)
        shown = [view.row(i).transaction_id for i in range(len(view))]
        assert shown == reference(rows, needle, date_from, date_to, key, reverse)
        expected_total = sum((rows[int(t[1:])].amount for t in shown), Decimal(0))
        assert view.view_amount_total == expected_total


def test_totals_stay_exact_beyond_cents() -> None:
    rows = [
        TransactionRow("a", "2026-01-01", "x", "", Decimal("0.001"), False),
        TransactionRow("b", "2026-01-02", "y", "", Decimal("1.10"), False),
        TransactionRow("c", "2026-01-03", "z", "", Decimal("-0.0005"), False),
    ]
    view = TransactionView.from_rows(rows)
    assert view.data.index().cents is None  # not whole cents: Decimal arithmetic
    assert view.view_amount_total == Decimal("1.1005")
    view.set_filter("y")
    assert view.view_amount_total == Decimal("1.10")


def test_totals_in_cents_are_exact_where_floats_are_not() -> None:
    rows = [
        TransactionRow(f"t{i}", "2026-01-01", "x", "", Decimal("0.10"), False) for i in range(10)
    ]
    view = TransactionView.from_rows(rows)
    assert view.data.index().cents is not None
    assert view.view_amount_total == Decimal("1.00")  # ten 0.1 floats add to 0.9999999999999999


def test_an_empty_list_sorts_filters_and_totals() -> None:
    view = TransactionView.from_rows([], currency="USD")
    view.sort_by("amount")
    view.set_filter("x")
    view.set_date_range("2026-01-01", None)
    assert len(view) == 0 and view.view_amount_total == 0


def test_totals_of_amounts_past_64_bits_add_decimals() -> None:
    huge = Decimal("12345678901234567890.12")  # 2**63 cents is about 9.2e16 units
    rows = [TransactionRow(f"t{i}", "2026-01-01", "x", "", huge, False) for i in range(3)]
    view = TransactionView.from_rows(rows)
    assert view.data.index().cents is None
    assert view.view_amount_total == huge * 3


#: Amounts: sub-cent, one or two decimals, -0.00, and magnitudes either side of
#: where floats stop giving cents exactly (2**50 cents) and past 64 bits.
_AMOUNTS = st.one_of(
    st.decimals(min_value=-(10**6), max_value=10**6, places=2),
    st.decimals(min_value=-10, max_value=10, places=4),
    st.sampled_from(
        [
            Decimal("-0.00"),
            Decimal("0.1"),
            Decimal("11258999068426.23"),  # just under 2**50 cents
            Decimal("11258999068426.24"),
            Decimal("90071992547409.93"),  # 2**53 cents, where floats skip cents
            Decimal("90071992547409.935"),
            Decimal("92233720368547758.07"),  # 2**63 - 1 cents
            Decimal("12345678901234567890.12"),
        ]
    ),
)


@settings(max_examples=60, derandomize=True, deadline=None)
@given(st.lists(_AMOUNTS, max_size=8))
def test_cents_are_exact_or_absent_and_totals_exact(amounts: list[Decimal]) -> None:
    rows = [TransactionRow(f"t{i}", "2026-01-01", "x", "", a, False) for i, a in enumerate(amounts)]
    view = TransactionView.from_rows(rows)
    scaled = [amount.scaleb(2) for amount in amounts]
    whole = all(value == int(value) and abs(int(value)) < 2**63 for value in scaled)
    cents = view.data.index().cents
    if whole and cents is not None:
        assert cents.tolist() == [int(value) for value in scaled]
    # Cents only when every amount is whole cents (sums may still need Decimals).
    assert cents is None or whole
    if whole and max((abs(int(v)) for v in scaled), default=0) < 2**50 // max(len(rows), 1):
        assert cents is not None
    assert view.view_amount_total == sum(amounts, Decimal(0))
    view.sort_by("amount")
    shown = [rows[int(i)].amount for i in view.view]
    assert shown == sorted(amounts, key=float)
