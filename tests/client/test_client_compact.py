"""The client's compact columns are optional: without NumPy the same read gives plain lists."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from hidden_packages import environment_without

_READ = """
import json, sys
from decimal import Decimal
from accountdesk.client.transactions.stream import ColumnStream
content = sys.stdin.buffer.read()
stream = ColumnStream(first_batch_bytes=len(content) + 1)  # one batch: the whole body
(columns,) = [*stream.feed(content), *stream.finish()]
print(json.dumps({
    "numpy": "numpy" in sys.modules,
    "types": sorted({type(c).__name__ for c in (columns.transaction_ids, columns.dates,
        columns.amounts, columns.descriptions, columns.categories, columns.pending)}),
    "rows": [[columns.transaction_ids[i], columns.dates[i], str(columns.amounts[i]),
              columns.descriptions[i], columns.categories[i], columns.pending[i]]
             for i in range(len(columns))],
}))
"""


def test_without_numpy_the_columns_are_lists_with_the_same_values(tmp_path: Path) -> None:
    rows = [
        {"transaction_id": "t1", "amount": "-12.34", "date": "2026-03-01", "description": "Café"},
        {"transaction_id": "t2", "amount": "7", "category": "food", "pending": True},
    ]
    body = json.dumps({"transactions": rows}).encode()
    expected = [
        ["t1", "2026-03-01", "-12.34", "Café", "", False],
        ["t2", "", "7", "", "food", True],
    ]
    # (With NumPy the compact path's values are checked in tests/core/test_transaction_compact.py.)
    env = environment_without({"numpy"}, tmp_path / "hide")
    done = subprocess.run(
        [sys.executable, "-c", _READ],
        input=body,
        env=env,
        capture_output=True,
        timeout=60,
        check=True,
    )
    answer = json.loads(done.stdout)
    assert answer == {"numpy": False, "types": ["list"], "rows": expected}
