"""user_bulk's body with its amounts written other ways: the streamed parse against the usual one.

The contract does not show how a service writes an amount. The usual body
has decimal text with two places (``"-12.50"``); a service may write JSON
numbers (``-12.5``), or text without the zeros (``"-12.5"``, ``"7"``). Each
variant of user_bulk's 100,000 rows is fed to the client's
:class:`~accountdesk.client.transactions.stream.ColumnStream` in 568 KB chunks
(what the embedded transport hands it), rounds alternating with the usual
body, the floor. Target 1.5x: before each amount was judged on its own, a
batch with one unusual amount was read row by row through ``Decimal`` (2.3x)
and a body of numbers through ``json.loads`` (3.3x).
"""

from __future__ import annotations

import datetime as dt
import re
import time

from accountdesk.client._gc import gc_paused
from accountdesk.client.transactions.stream import ColumnStream
from accountdesk.sandbox import records
from accountdesk.sandbox.scenarios import shipped_scenarios
from benchmarks.measure import Result, Target, TargetKind
from benchmarks.registry import benchmark

CHUNK = 568 * 1024
#: How each variant rewrites an amount of the usual body.
VARIANTS = {
    "numbers": (rb'"amount":"(-?[0-9.]+)"', rb'"amount":\1'),
    "no_zeros": (rb'"amount":"(-?[0-9]+)\.([0-9])0"', rb'"amount":"\1.\2"'),
}


def streamed_seconds(body: bytes) -> float:
    """Seconds to feed ``body`` to a ColumnStream in CHUNK pieces and finish it."""
    with gc_paused():
        started = time.perf_counter()
        stream = ColumnStream()
        rows = 0
        for at in range(0, len(body), CHUNK):
            rows += sum(len(batch) for batch in stream.feed(body[at : at + CHUNK]))
        rows += sum(len(batch) for batch in stream.finish())
        seconds = time.perf_counter() - started
    assert rows == 100_000, rows
    return seconds


@benchmark(
    "amount_forms",
    "user_bulk's body with amounts as JSON numbers / without trailing zeros vs the usual text",
    rounds=5,
    seconds=12,
)
def amount_forms(rounds: int) -> list[Result]:
    usual = records.transactions_json(shipped_scenarios().users["user_bulk"], dt.date(2026, 1, 1))
    results = []
    for name, (pattern, replacement) in VARIANTS.items():
        variant = re.sub(pattern, replacement, usual)
        path, floor = [], []
        for _ in range(rounds):
            path.append(streamed_seconds(variant) * 1000)
            floor.append(streamed_seconds(usual) * 1000)
        results.append(
            Result(
                f"amounts_{name}",
                f"streamed parse of user_bulk, amounts written as {name.replace('_', ' ')}",
                "the same parse of the usual body (two-place decimal text)",
                "ms",
                path,
                floor,
                Target(TargetKind.RATIO, 1.5),
            )
        )
    return results
