"""What a person waits for, whole process: ``x`` on a big user to first rows and to the complete table.

Each round starts a fresh ``python -m accountdesk`` on a 100x30
pseudo-terminal (:func:`~.processes.run_in_terminal`), as a person does:
Enter at the sign-in screen (the sandbox's defaults), the user's id and
Enter at the lookup, ``x`` once the account's balance shows. From the ``x``
it times what reaches the terminal, nothing inside the app:

- first rows: the count line reads ``loading… N rows`` (N > 0) or ``showing``
  (the screen paints the first page with the first batch);
- the complete table: ``showing 100,000 of 100,000`` (every row read);
  then, untimed, the total under it (the index built), and the app is
  killed: its peak RSS is that of the table complete and indexed.

So the sandbox's first build of the user's answer is counted (embedded: in
the app's process). The floors are whole processes too, on the same body
(fetched once from a sandbox process and written to a file): ``python -c``
reading it and ``json.loads`` (the issue's floor), and the same with
``msgspec.json.decode`` (the parse's physical limit). Beside each: the app
process's peak RSS, and bytes per row of the body and of that peak.

- ``process``: user_bulk (100,000 rows), embedded (the default) and over
  loopback (``accountdesk sandbox`` in its own process on 127.0.0.1, the
  app started with ``--base-url``).
- ``process_1m`` (only when asked): a scenario pack with one generated
  1,000,000-row user, passed with ``--scenarios`` to the app (embedded) and
  to the sandbox (loopback); ``max_response_mb`` raised to 512.
"""

from __future__ import annotations

import contextlib
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import httpx

from benchmarks.apps import API_KEY, API_SECRET
from benchmarks.measure import Result, Target, TargetKind
from benchmarks.processes import (
    CHECKOUT,
    ChildUsage,
    Server,
    _reap,
    bench_env,
    first_start,
    python_env,
    python_m,
    run_in_terminal,
    scratch_home,
)
from benchmarks.registry import benchmark

BADGE = b"SANDBOX"
#: The account screen's balance panel once loaded (``x`` is pressed then).
BALANCE = b"Available"
#: The total under the table once the index is built (after the rows: peak RSS is read then).
INDEXED = re.compile(rb"total [-+]?[0-9,]+\.[0-9]")
FIRST_ROWS = re.compile(rb"loading\xe2\x80\xa6 [1-9][0-9,]* rows|showing [1-9]")
MILLION_USER = "user_million"
MILLION_PACK = f"""\
title = "A million rows"
description = "One user with 1,000,000 generated transactions (benchmarks)."

[[users]]
id = "{MILLION_USER}"
summary = "linked; 1,000,000 transactions"

[users.transactions]
count = 1000000
days = 365
"""
JSON_FLOOR = "import json, sys; json.loads(open(sys.argv[1], 'rb').read())"
MSGSPEC_FLOOR = "import msgspec, sys; msgspec.json.decode(open(sys.argv[1], 'rb').read())"


@dataclass(frozen=True, slots=True)
class Case:
    """One user read one way: what the app is started with, what it is asked for."""

    label: str
    user_id: str
    rows: int
    loopback: bool
    scenarios: Path | None = None

    @property
    def complete(self) -> bytes:
        return f"showing {self.rows:,} of {self.rows:,}".encode()


def _open_in_app(case: Case, url: str | None, timeout: float) -> tuple[float, float, ChildUsage]:
    """A fresh app: sign in, look the user up, ``x``: seconds to first rows, to complete; usage."""
    args = ["--base-url", url] if url else []
    if case.scenarios is not None and not url:
        args += ["--scenarios", str(case.scenarios)]
    extra = {"ACCOUNTDESK_MAX_RESPONSE_MB": "512"} if case.rows > 100_000 else {}
    if url:  # a sandbox elsewhere is not signed in to by itself: its public demo key
        extra |= {"ACCOUNTDESK_API_KEY": API_KEY, "ACCOUNTDESK_API_SECRET": API_SECRET}
    with scratch_home() as home:
        run = run_in_terminal(
            python_m("accountdesk", *args, profile_as=f"process_{case.label}"),
            [
                (None, BADGE),
                (b"\r", case.user_id.encode()),
                (case.user_id.encode() + b"\r", BALANCE),
                (b"x", FIRST_ROWS),
                (None, case.complete),
                (None, INDEXED),
            ],
            env=bench_env(home, **extra),
            timeout=timeout,
        )
    assert run.usage is not None
    pressed = run.typed[3]
    return run.seen[3] - pressed, run.seen[4] - pressed, run.usage


def _floor(code: str, body: Path) -> tuple[float, ChildUsage]:
    """Seconds of a whole ``python -c code body`` process, and its usage."""
    started = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-c", code, str(body)], env=python_env(), cwd=CHECKOUT
    )
    usage = _reap(process)
    seconds = time.perf_counter() - started
    if usage.status != 0:
        raise RuntimeError(f"python -c {code!r} failed (exit {usage.status})")
    return seconds, usage


def _fetch_body(url: str, user_id: str, into: Path) -> int:
    """Write ``user_id``'s transactions answer to ``into``; its size in bytes."""
    grant = httpx.post(url + "/token", json={"api_key": API_KEY, "api_secret": API_SECRET})
    grant.raise_for_status()
    headers = {"Authorization": f"Bearer {grant.json()['access_token']}"}
    answer = httpx.get(f"{url}/accounts/{user_id}/transactions", headers=headers, timeout=300)
    answer.raise_for_status()
    into.write_bytes(answer.content)
    return len(answer.content)


def _sandbox(case: Case) -> Server:
    scenarios = ["--scenarios", str(case.scenarios)] if case.scenarios is not None else []
    return Server(sys.executable, "-m", "accountdesk", "sandbox", "--port", "{port}", *scenarios)


def _measure(cases: list[Case], rounds: int, timeout: float) -> list[Result]:
    results: list[Result] = []
    if first_start("accountdesk"):  # compile once, untimed (as an installed app)
        with scratch_home() as home:
            run_in_terminal(python_m("accountdesk"), [(None, BADGE)], env=bench_env(home))
    with tempfile.TemporaryDirectory(prefix="bench-process-") as tmp:
        body = Path(tmp) / "transactions.json"
        with _sandbox(cases[0]) as server:
            size = _fetch_body(server.url, cases[0].user_id, body)
        for case in cases:
            first, complete, loads, decode, peaks, floor_peaks = [], [], [], [], [], []
            for _ in range(rounds):
                # A fresh sandbox process each round too: its first build is counted.
                with contextlib.ExitStack() as stack:
                    url = stack.enter_context(_sandbox(case)).url if case.loopback else None
                    seen_first, seen_complete, usage = _open_in_app(case, url, timeout)
                first.append(seen_first * 1000)
                complete.append(seen_complete * 1000)
                peaks.append(usage.peak_rss_mb)
                seconds, floor_usage = _floor(JSON_FLOOR, body)
                loads.append(seconds * 1000)
                floor_peaks.append(floor_usage.peak_rss_mb)
                decode.append(_floor(MSGSPEC_FLOOR, body)[0] * 1000)
            results += _results(case, size, first, complete, loads, decode, peaks, floor_peaks)
    return results


def _results(
    case: Case,
    size: int,
    first: list[float],
    complete: list[float],
    loads: list[float],
    decode: list[float],
    peaks: list[float],
    floor_peaks: list[float],
) -> list[Result]:
    mode = "loopback" if case.loopback else "embedded"
    what = f"{case.user_id} ({case.rows:,} rows, {size / 1e6:.0f} MB), {mode}, fresh app"
    peak = max(peaks)
    memory = (
        f"body {size / case.rows:.0f} B/row; app peak RSS {peak:,.0f} MB = "
        f"{peak * 1024 * 1024 / case.rows:,.0f} B/row ({peak * 1024 * 1024 / size:.1f}x the body)"
    )
    name = f"process_{case.label}"
    return [
        Result(
            f"{name}_first_rows",
            f"x -> first rows on the terminal: {what}",
            "none",
            "ms",
            first,
            target=Target(TargetKind.ABSOLUTE, 250.0),
            path_peak_mb=peak,
        ),
        Result(
            f"{name}_complete",
            f"x -> 'showing {case.rows:,} of {case.rows:,}' on the terminal: {what}",
            "python -c json.loads of the same body (whole process)",
            "ms",
            complete,
            loads,
            Target(TargetKind.RATIO, 2.0),
            notes=[memory],
            path_peak_mb=peak,
            floor_peak_mb=max(floor_peaks),
        ),
        Result(
            f"{name}_complete_msgspec",
            f"the same press -> complete table: {what}",
            "python -c msgspec.json.decode of the same body (whole process)",
            "ms",
            complete,
            decode,
            Target(TargetKind.REPORT),
            path_peak_mb=peak,
        ),
    ]


@benchmark(
    "process",
    "whole process, fresh app: x on user_bulk -> first rows, complete table (embedded, loopback)",
    rounds=3,
    seconds=45,
)
def process(rounds: int) -> list[Result]:
    cases = [
        Case("100k_embedded", "user_bulk", 100_000, loopback=False),
        Case("100k_loopback", "user_bulk", 100_000, loopback=True),
    ]
    return _measure(cases, rounds, timeout=60)


@benchmark(
    "process_1m",
    "whole process, fresh app: x on a 1,000,000-row user -> first rows, complete (embedded, loopback)",
    rounds=2,
    seconds=150,
    default=False,
)
def process_1m(rounds: int) -> list[Result]:
    with tempfile.TemporaryDirectory(prefix="bench-pack-") as tmp:
        pack = Path(tmp) / "million.toml"
        pack.write_text(MILLION_PACK)
        cases = [
            Case("1m_embedded", MILLION_USER, 1_000_000, loopback=False, scenarios=pack),
            Case("1m_loopback", MILLION_USER, 1_000_000, loopback=True, scenarios=pack),
        ]
        return _measure(cases, rounds, timeout=300)
