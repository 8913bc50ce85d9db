"""Whole-process start-up: first frame, and sign-in to the lookup screen.

Both run real processes on a pseudo-terminal (:func:`~.processes.run_in_terminal`)
and time what the terminal receives, so nothing in the app is instrumented:

- ``first_frame``: ``python -m accountdesk`` from spawn until the SANDBOX
  badge is on the terminal, against ``python -m benchmarks.bare_app`` (Header,
  Input, DataTable, Footer) until its header shows the same word.
- ``sign_in``: in a fresh process each round (so the sandbox's imports are paid),
  Enter is typed the moment the sign-in screen has painted, and timed until
  the lookup screen's title is on the terminal; against the same app whose
  transport is an in-memory stub (no sandbox at all).
"""

from __future__ import annotations

import os

from benchmarks.measure import Result, Target, TargetKind
from benchmarks.processes import (
    PROFILE_ENV,
    ChildUsage,
    bench_env,
    first_start,
    python_m,
    run_in_terminal,
    scratch_home,
)
from benchmarks.registry import benchmark

BADGE = b"SANDBOX"
QUIT = b"\x11"  # Ctrl+Q
LOOKUP_TITLE = b"Look up a user"


def _first_frame(argv: list[str]) -> tuple[float, ChildUsage]:
    with scratch_home() as home:
        # Quit properly only under --profile (cProfile writes its stats at exit).
        quit_keys = QUIT if PROFILE_ENV in os.environ else None
        run = run_in_terminal(argv, [(None, BADGE)], env=bench_env(home), quit_keys=quit_keys)
    assert run.usage is not None
    return run.seen[0], run.usage


@benchmark(
    "first_frame",
    "start to first frame (whole process, sign-in screen with the SANDBOX badge)",
    rounds=5,
    seconds=12,
)
def first_frame(rounds: int) -> list[Result]:
    app = python_m("accountdesk", profile_as="first_frame")
    bare = python_m("benchmarks.bare_app")
    result = Result(
        "first_frame",
        "python -m accountdesk -> SANDBOX badge painted",
        "bare Textual app (Header, Input, DataTable, Footer) -> header painted",
        "ms",
        [],
        target=Target(TargetKind.RATIO, 1.15),
    )
    if first_start("accountdesk"):
        _first_frame(app)
    if first_start("bare_app"):
        _first_frame(bare)
    path_peaks, floor_peaks = [], []
    for _ in range(rounds):
        seconds, usage = _first_frame(app)
        result.path_samples.append(seconds * 1000)
        path_peaks.append(usage.peak_rss_mb)
        seconds, usage = _first_frame(bare)
        result.floor_samples.append(seconds * 1000)
        floor_peaks.append(usage.peak_rss_mb)
    result.path_peak_mb = max(path_peaks)
    result.floor_peak_mb = max(floor_peaks)
    return [result]


def _sign_in(transport: str) -> tuple[float, float, ChildUsage]:
    """Enter at the first frame -> lookup screen painted; and -> scenario list shown."""
    profile_as = "sign_in" if transport == "embedded" else None
    argv = python_m("benchmarks.desk_app", transport, profile_as=profile_as)
    with scratch_home() as home:
        run = run_in_terminal(
            argv,
            [(None, BADGE), (b"\r", LOOKUP_TITLE), (None, b"user_bulk")],
            env=bench_env(home),
            quit_keys=QUIT if PROFILE_ENV in os.environ else None,
        )
    assert run.usage is not None
    return run.seen[1] - run.seen[0], run.seen[2] - run.seen[0], run.usage


@benchmark(
    "sign_in",
    "sign-in to lookup screen painted, fresh process (embedded sandbox vs client stub)",
    rounds=3,
    seconds=15,
)
def sign_in(rounds: int) -> list[Result]:
    painted = Result(
        "sign_in",
        "Enter at first frame -> lookup screen painted (embedded sandbox, its imports included)",
        "the same with an in-memory stub transport (no sandbox)",
        "ms",
        [],
        target=Target(TargetKind.RATIO, 1.5),
    )
    listed = Result(
        "sign_in_scenarios",
        "Enter at first frame -> scenario list shown (embedded sandbox)",
        "the same with the stub transport",
        "ms",
        [],
        target=Target(TargetKind.REPORT),
    )
    if first_start("desk_app"):  # the stub's modules are a subset of these
        _sign_in("embedded")
    path_peaks, floor_peaks = [], []
    for _ in range(rounds):
        screen, scenarios, usage = _sign_in("embedded")
        painted.path_samples.append(screen * 1000)
        listed.path_samples.append(scenarios * 1000)
        path_peaks.append(usage.peak_rss_mb)
        screen, scenarios, usage = _sign_in("stub")
        painted.floor_samples.append(screen * 1000)
        listed.floor_samples.append(scenarios * 1000)
        floor_peaks.append(usage.peak_rss_mb)
    for result in (painted, listed):
        result.path_peak_mb, result.floor_peak_mb = max(path_peaks), max(floor_peaks)
    return [painted, listed]
