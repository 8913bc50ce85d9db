"""Benchmark: user_bulk's transactions (100,000 rows, ~14 MB) read three ways.

A/B/C alternating within one run, several rounds, median and best of each:
plain ``json.loads`` (the floor), the columns the stream makes of it
(``stream_transaction_columns``: a :class:`ColumnStream` fed the whole body,
every batch), and the pydantic models (``get_transactions``). Prints figures, asserts nothing::

    .venv/bin/python tests/client/bench_columns.py
"""

from __future__ import annotations

import datetime as dt
import json
import statistics
import time
from collections.abc import Callable

from accountdesk.client._gc import gc_paused
from accountdesk.client.models import Transactions
from accountdesk.client.transactions.stream import ColumnStream
from accountdesk.sandbox.records import transactions_json
from accountdesk.sandbox.scenarios import SCENARIO_USERS

ROUNDS = 7


def main() -> None:
    body = transactions_json(SCENARIO_USERS["user_bulk"], dt.date(2026, 3, 2))
    print(f"body: {len(body) / 1e6:.1f} MB, {len(json.loads(body)['transactions'])} rows")

    def columns() -> object:
        stream = ColumnStream()
        return [*stream.feed(body), *stream.finish()]

    def models() -> object:
        with gc_paused():
            return Transactions.model_validate_json(body)

    contenders: dict[str, Callable[[], object]] = {
        "json.loads": lambda: json.loads(body),
        "columns": columns,
        "pydantic models": models,
    }
    times: dict[str, list[float]] = {name: [] for name in contenders}
    for _ in range(ROUNDS):
        for name, run in contenders.items():
            started = time.perf_counter()
            result = run()
            times[name].append(time.perf_counter() - started)
            del result
    for name, samples in times.items():
        print(
            f"{name:>16}: median {statistics.median(samples) * 1000:7.1f} ms, "
            f"best {min(samples) * 1000:7.1f} ms ({ROUNDS} rounds)"
        )


if __name__ == "__main__":
    main()
