"""The benchmark suite's runner still works: its cheapest benchmark, one round.

Not a benchmark (nothing here is timed or compared): it runs
``python -m benchmarks --only first_frame --rounds 1 --markdown`` as a person
would and checks the table has the row, with a time and a verdict. It fails
when the runner breaks, or when the dashboard stops painting the SANDBOX
badge the start-up benchmark waits for.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.slow


def test_runner_prints_the_first_frame_row() -> None:
    command = ["-m", "benchmarks", "--only", "first_frame", "--rounds", "1", "--markdown"]
    done = subprocess.run(
        [sys.executable, *command],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    rows = [line for line in done.stdout.splitlines() if line.startswith("| first_frame |")]
    assert len(rows) == 1, done.stdout
    cells = [cell.strip() for cell in rows[0].strip("|").split("|")]
    _name, unit, path_median, _, floor_median, _, ratio, target, mark, memory = cells
    assert unit == "ms"
    assert float(path_median.replace(",", "")) > 0
    assert float(floor_median.replace(",", "")) > 0
    assert float(ratio) > 0
    assert target == "<= 1.15x"
    assert mark in {"PASS", "OVER"}
    path_mb, floor_mb = (float(part) for part in memory.split("/"))
    assert path_mb > 0 and floor_mb > 0  # both processes were reaped and measured


def test_the_phases_profile_times_both_apps_to_their_first_frame() -> None:
    # `python -m benchmarks.phases`: the first frame's profile (docs: streaming.md).
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks.phases", "--runs", "1"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    rows = {line.split()[0]: line.split()[1:3] for line in done.stdout.splitlines()[1:]}
    for phase in ("run", "frame", "run_to_frame", "parse", "apply", "layout", "render"):
        app, bare = (float(value) for value in rows[phase])
        assert app > 0 and bare > 0, (phase, rows[phase])  # both processes reached a frame
    app_run, app_frame = (float(rows[key][0]) for key in ("run", "frame"))
    assert app_frame > app_run
