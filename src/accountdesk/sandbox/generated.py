"""Generated transactions: the rows of a user whose pack asks for ``count`` of them.

Deterministic: the draws of ``random.Random`` seeded by the pack's seed or
the user id, so the same user on the same day always gets the same list
(snapshot tests rely on it), and the same bytes as the generator always
gave. Standard library only: the build process (:mod:`.build_process`) runs
this file by itself, without the package (see :func:`generated_pieces`).
"""

from __future__ import annotations

import datetime as dt
import json
import random
import sys
import zlib
from collections.abc import Iterator
from itertools import islice
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # not imported when it runs: the build process loads this file alone
    from accountdesk.sandbox.scenario import GeneratedTransactions

__all__ = [
    "CATEGORIES",
    "ROWS_PER_PIECE",
    "Merchant",
    "generated_fields",
    "generated_json",
    "generated_pieces",
    "transactions_opening",
]

#: Rows drawn and written per piece of an answer (see :func:`generated_pieces`).
ROWS_PER_PIECE = 1_000

#: (description, category, smallest and largest amount in cents).
Merchant = tuple[str, str, int, int]

# Debits.
_SPENDING: tuple[Merchant, ...] = (
    ("Whole Harvest Market", "Groceries", 1_850, 18_400),
    ("Corner Bodega", "Groceries", 420, 3_150),
    ("Blue Bottle Coffee", "Dining", 450, 1_400),
    ("Trattoria Roma", "Dining", 2_800, 11_900),
    ("City Transit Card", "Transport", 2_000, 10_000),
    ("Shell Station 4471", "Fuel", 2_500, 7_800),
    ("Northstar Electric", "Utilities", 6_500, 18_900),
    ("Clearwave Internet", "Utilities", 5_999, 8_999),
    ("Streamly Subscription", "Entertainment", 1_099, 2_299),
    ("Paperback Books & Co", "Shopping", 1_200, 6_400),
    ("Hometown Hardware", "Home", 900, 24_500),
    ("Riverside Pharmacy", "Health", 650, 7_300),
    ("Online Marketplace", "Shopping", 1_500, 32_000),
    ("Parkside Gym", "Health", 3_900, 3_900),
    ("ATM Withdrawal", "Cash", 2_000, 20_000),
)
# Credits; rarer than debits.
_INCOME: tuple[Merchant, ...] = (
    ("Payroll Deposit - Acme Corp", "Income", 180_000, 320_000),
    ("Interest Payment", "Interest", 12, 1_900),
    ("Refund - Online Marketplace", "Refund", 1_500, 12_000),
    ("Transfer from Savings", "Transfer", 10_000, 80_000),
)


def _cents(cents: int) -> str:
    sign = "-" if cents < 0 else ""
    return f"{sign}{abs(cents) // 100}.{abs(cents) % 100:02d}"


def _pools(plan: GeneratedTransactions) -> tuple[tuple[Merchant, ...], tuple[Merchant, ...]]:
    """The income and spending merchants ``plan`` keeps (every one without categories)."""
    if plan.categories is None:
        return _INCOME, _SPENDING
    keep = plan.categories
    return (
        tuple(m for m in _INCOME if m[1] in keep),
        tuple(m for m in _SPENDING if m[1] in keep),
    )


#: 32-bit words drawn per ``getrandbits`` call (one C call, then read from an array).
_WORDS_PER_DRAW = 4_096
#: ``random()`` is ``((a >> 5) * 2**26 + (b >> 6)) / 2**53``: a credit below 0.08
#: is that 53-bit integer below 0.08 * 2**53 (scaling by a power of two is exact).
_CREDIT_BELOW = 0.08 * 2.0**53


#: Tables for the texts of whole amounts and ids below this many thousands.
_TABLED = 4_000
_WHOLES = [str(whole) for whole in range(_TABLED)]
_MINUS_WHOLES = ["-" + text for text in _WHOLES]
_HUNDREDTHS = [f".{part:02d}" for part in range(100)]
_THOUSANDS = [f"txn_{high:03d}" for high in range(_TABLED)]
_UNITS = [f"{low:03d}" for low in range(1_000)]


def _words(rng: random.Random) -> Iterator[int]:
    """``rng``'s 32-bit outputs in the order its own methods would take them.

    ``getrandbits(32 * n)`` puts ``n`` consecutive outputs in one integer,
    the first in its lowest 32 bits: one C call per block instead of one
    method call per draw.
    """
    size = 4 * _WORDS_PER_DRAW
    while True:
        block = rng.getrandbits(32 * _WORDS_PER_DRAW).to_bytes(size, sys.byteorder)
        yield from memoryview(block).cast("I")


def generated_fields(
    user_id: str, plan: GeneratedTransactions, newest: dt.date
) -> Iterator[tuple[str, str, str, Merchant, bool]]:
    """Each row's id, date, amount, merchant and pending flag, newest first.

    The draws of ``random.Random``'s ``random``, ``choice`` and ``randint``
    (``_randbelow``: ``getrandbits(n.bit_length())`` until below ``n``),
    made from its 32-bit outputs read in blocks (:func:`_words`): the same
    numbers in a fraction of the time (user_bulk is built when its account
    is opened, beside the app's loop). Each date is formatted once.
    """
    # crc32, not hash(): str hashes are salted per process.
    seed = plan.seed if plan.seed is not None else zlib.crc32(user_id.encode())
    rng = random.Random(seed)
    count = plan.count
    # Roughly four a day for a big history, about one a day for a small one.
    span_days = plan.days if plan.days is not None else max(count // 4, 60)
    income, spending = _pools(plan)
    fixed = plan.amount_cents
    # Per merchant: its amount range and the shift that makes a word getrandbits(k).
    ranges = {
        m: (low, high - low + 1, 32 - (high - low + 1).bit_length())
        for m in (*income, *spending)
        for low, high in [fixed if fixed is not None else m[2:]]
    }
    if not (income or spending) or any(shift < 0 for _, _, shift in ranges.values()):
        # A range past 2**32 takes several words per draw (and no merchant at
        # all fails on the first row, as choice() does): Random's own methods.
        yield from _generated_fields_slowly(rng, count, span_days, income, spending, ranges, newest)
        return
    word = _words(rng).__next__
    # Per pool: its size, the shift that makes a word getrandbits(k), its
    # merchants with their ranges and whether its amounts are debits.
    pools = [
        (len(pool), 32 - len(pool).bit_length(), [(m, *ranges[m]) for m in pool], pool is spending)
        for pool in (income, spending)
    ]
    credits, debits = pools if income else (pools[1], pools[1])
    if not spending:
        debits = credits
    credit_texts, debit_texts = _WHOLES, _MINUS_WHOLES
    dates: dict[int, str] = {}
    for index in range(count):
        credit = ((word() >> 5) * 67108864 + (word() >> 6)) < _CREDIT_BELOW
        size, shift, merchants, debit = credits if credit else debits
        pick = word() >> shift
        while pick >= size:
            pick = word() >> shift
        merchant, low, span, shift = merchants[pick]
        drawn = word() >> shift
        while drawn >= span:
            drawn = word() >> shift
        cents = low + drawn
        back = index * span_days // count
        date = dates.get(back)
        if date is None:
            date = dates[back] = (newest - dt.timedelta(days=back)).isoformat()
        # Texts joined from small tables: a format spec per row costs more than the draws.
        whole, part = divmod(cents, 100)
        if cents > 0 and whole < _TABLED:
            amount = (debit_texts if debit else credit_texts)[whole] + _HUNDREDTHS[part]
        else:
            amount = _cents(-cents if debit else cents)
        high, low = divmod(index + 1, 1_000)
        tid = (_THOUSANDS[high] if high < _TABLED else f"txn_{high:03d}") + _UNITS[low]
        # The two newest have not posted yet, as on a real statement.
        yield tid, date, amount, merchant, index < 2


def _generated_fields_slowly(
    rng: random.Random,
    count: int,
    span_days: int,
    income: tuple[Merchant, ...],
    spending: tuple[Merchant, ...],
    ranges: dict[Merchant, tuple[int, int, int]],
    newest: dt.date,
) -> Iterator[tuple[str, str, str, Merchant, bool]]:
    """:func:`generated_fields` through ``random.Random``'s methods (any range)."""
    for index in range(count):
        credit = rng.random() < 0.08
        pool = income if (credit and income) or not spending else spending
        merchant = rng.choice(pool)
        low, span, _ = ranges[merchant]
        cents = rng.randint(low, low + span - 1)
        if pool is spending:
            cents = -cents
        back = index * span_days // count
        date = (newest - dt.timedelta(days=back)).isoformat()
        yield f"txn_{index + 1:06d}", date, _cents(cents), merchant, index < 2


def generated_json(user_id: str, plan: GeneratedTransactions, newest: dt.date) -> Iterator[str]:
    """Each generated row as the compact JSON ``json.dumps`` writes for its dict."""
    options: dict[str, Any] = {"ensure_ascii": False}
    texts: dict[Merchant, str] = {}
    for tid, date, amount, merchant, pending in generated_fields(user_id, plan, newest):
        text = texts.get(merchant)
        if text is None:
            description, category = (json.dumps(t, **options) for t in merchant[:2])
            text = texts[merchant] = f',"description":{description},"category":{category}'
        flag = "true" if pending else "false"
        yield (
            f'{{"transaction_id":"{tid}","date":"{date}","amount":"{amount}"'
            f'{text},"pending":{flag}}}'
        )


#: Every category the generator knows (a pack's ``categories`` picks among them).
CATEGORIES: frozenset[str] = frozenset(m[1] for m in (*_SPENDING, *_INCOME))


def transactions_opening(user_id: str, currency: str | None) -> str:
    """A transactions answer's text up to its first row: ``{"user_id":..,"transactions":[``."""
    head = json.dumps(
        {"user_id": user_id, "currency": currency}, separators=(",", ":"), ensure_ascii=False
    )
    return f'{head[:-1]},"transactions":['


def generated_pieces(
    user_id: str, currency: str | None, plan: GeneratedTransactions, newest: dt.date
) -> Iterator[bytes]:
    """A generated user's whole transactions answer, :data:`ROWS_PER_PIECE` rows a piece.

    The pieces joined are one compact ``json.dumps`` of the record, written
    straight from the draws (no dict, no dumps per row). ``plan`` needs only
    its fields (the build process is sent them in a ``SimpleNamespace``).
    """
    opening = transactions_opening(user_id, currency)
    texts = generated_json(user_id, plan, newest)
    while written := list(islice(texts, ROWS_PER_PIECE)):
        yield (opening + ",".join(written)).encode()
        opening = ","
    yield b"]}" if opening == "," else (opening + "]}").encode()
