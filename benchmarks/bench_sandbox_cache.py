"""The sandbox's RSS as it serves one user after another of 1,000,000 generated transactions.

Path: a :class:`~accountdesk.sandbox.engine.SandboxEngine` serving a pack of
1,000 such users; each user's whole answer is read in turn (the engine's
own reads, no HTTP), and the process's RSS is sampled after each read once
the transaction cache is full (:data:`~accountdesk.sandbox.records.CACHE_BYTES`).
Floor: the same process's RSS when the cache first filled. Before the
cache had a budget every read kept its ~28 MB body: RSS rose by that much a
user and never fell (907 MB after 30 users). Only when asked
(``--only sandbox_cache``): each read builds ~135 MB of JSON in a child
process (~5 s).
"""

from __future__ import annotations

import gc
import tempfile
from pathlib import Path

from accountdesk.sandbox import load_scenarios, records
from accountdesk.sandbox.engine import SandboxEngine
from benchmarks.measure import Result, Target, TargetKind
from benchmarks.registry import benchmark

USERS = 1_000
ROWS = 1_000_000
#: Reads before the cache is full: 64 MB of ~28 MB bodies, and the one read.
FILLING = 3


def rss_mb() -> float:
    """This process's resident set now (Linux ``/proc``), in MB."""
    pages = int(Path("/proc/self/statm").read_text(encoding="ascii").split()[1])
    return pages * 4096 / 2**20


@benchmark(
    "sandbox_cache",
    "sandbox RSS reading users of 1,000,000 transactions one after another vs when the cache filled",
    rounds=8,
    seconds=90,
    default=False,
)
def sandbox_cache(rounds: int) -> list[Result]:
    with tempfile.TemporaryDirectory() as folder:
        pack = Path(folder) / "many.toml"
        pack.write_text(
            "".join(
                f'[[users]]\nid = "u{n}"\n[users.transactions]\ncount = {ROWS}\n'
                for n in range(USERS)
            ),
            encoding="utf-8",
        )
        engine = SandboxEngine(scenarios=load_scenarios([pack], shipped_users=False))
    token = engine.issue_token("sandbox_key", "sandbox_secret")["access_token"]
    samples = []
    for user in range(FILLING + rounds):
        size = sum(len(piece) for piece in engine.transaction_pieces(token, f"u{user}"))
        assert size > ROWS * 100, size
        gc.collect()
        samples.append(rss_mb())
    floor = samples[FILLING - 1]
    return [
        Result(
            "sandbox_cache_rss",
            f"sandbox RSS after each of reads {FILLING + 1}-{FILLING + rounds} "
            f"(users of {ROWS:,} generated rows)",
            f"the same process's RSS after read {FILLING} (the cache full)",
            "MB",
            samples[FILLING:],
            [floor],
            Target(TargetKind.RATIO, 1.1),
            notes=[
                f"cache budget {records.CACHE_BYTES // 2**20} MB",
                f"RSS after each read: {', '.join(f'{mb:.0f}' for mb in samples)} MB",
            ],
        )
    ]
