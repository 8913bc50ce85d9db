"""Recording with jobs: a job that fails replays from the phase and at the time it failed.

In process (``httpx.ASGITransport``) on a frozen sandbox clock that the
client's own sleep moves, so watching a job to its end takes no real time.
"""

from __future__ import annotations

import asyncio
import datetime as dt
from pathlib import Path
from typing import Any

import httpx

from accountdesk.client import AccountDataClient
from accountdesk.core.cases.files import case_pack_text
from accountdesk.core.cases.record import Recording, record_user
from accountdesk.core.cases.recorded_user import pack_user
from accountdesk.sandbox import FrozenClock, create_app, load_scenarios

START = dt.datetime(2026, 3, 2, 12, 0, tzinfo=dt.UTC)
STARTS = {"balance_refresh": "refresh", "identity": "identity", "transactions": "transactions"}

FAILING = """
[[users]]
id = "failing"

[users.jobs.balance_refresh]
seconds = 1.5

[users.jobs.identity]
seconds = 3.1
fail = { code = "AC-204", message = "No account information available, please select another bank.", at = "in_progress" }

[users.jobs.transactions]
seconds = 6
fail = { code = "AC-204", message = "No account information available, please select another bank.", at = "pending" }
"""


class Sandbox:
    """A sandbox on a frozen clock, and a client whose sleeping moves that clock."""

    def __init__(self, scenarios: Any) -> None:
        self.clock = FrozenClock(START)
        self.app = create_app(clock=self.clock, scenarios=scenarios)

    async def _sleep(self, seconds: float) -> None:
        self.clock.advance(seconds)

    def _monotonic(self) -> float:
        return self.clock.offset.total_seconds()

    def client(self) -> AccountDataClient:
        return AccountDataClient(
            "http://sandbox",
            "sandbox_key",
            "sandbox_secret",
            transport=httpx.ASGITransport(self.app),
            sleep=self._sleep,
            monotonic=self._monotonic,
        )

    async def record(self, user_id: str, *, job_wait: float = 30.0) -> Recording:
        async with self.client() as client:
            return await record_user(
                client, user_id, service="the embedded sandbox", now=START, with_jobs=True,
                job_wait=job_wait,
            )  # fmt: skip

    async def timelines(self, user_id: str) -> dict[str, list[tuple[str, float, str | None]]]:
        """Each job started, read every 0.05 s: (status, seconds from its start, error code)."""
        seen: dict[str, list[tuple[str, float, str | None]]] = {}
        async with self.client() as client:
            for kind in STARTS:
                start = {
                    "balance_refresh": client.refresh_balance,
                    "identity": client.start_identity,
                    "transactions": client.start_transactions,
                }[kind]
                job = await start(user_id)
                began = self.clock.now()
                states = seen[kind] = []
                for _ in range(400):
                    job = await client.get_job(user_id, job.job_id)
                    state = (
                        str(job.status),
                        round((self.clock.now() - began).total_seconds(), 2),
                        job.error.code if job.error else None,
                    )
                    if not states or states[-1][0] != state[0]:
                        states.append(state)
                    if job.is_terminal:
                        break
                    self.clock.advance(0.05)
        return seen


def _pack(tmp_path: Path, text: str, name: str = "pack.toml") -> Any:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return load_scenarios([path], shipped_users=False)


def test_a_failing_job_replays_from_the_phase_and_at_the_time_it_failed(tmp_path: Path) -> None:
    original = Sandbox(_pack(tmp_path, FAILING))
    recording = asyncio.run(original.record("failing"))
    text = case_pack_text(pack_user(recording, case_number=1, redact=False))
    replay = Sandbox(_pack(tmp_path, text, "recorded.toml"))
    expected = asyncio.run(Sandbox(_pack(tmp_path, FAILING)).timelines("failing"))
    assert expected["identity"] == [
        ("pending", 0.0, None),
        ("in_progress", 0.8, None),
        ("failed", 3.1, "AC-204"),
    ]
    assert expected["transactions"] == [("pending", 0.0, None), ("failed", 1.5, "AC-204")]
    assert asyncio.run(replay.timelines("failing")) == expected
