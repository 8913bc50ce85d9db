"""One benchmark in a process of its own: ``python -m benchmarks.child NAME --rounds N --result FILE``.

The runner starts one child per benchmark, so each starts from a clean
process (no garbage or imports of another benchmark) and its peak RSS is
its own, read by the runner with ``wait4``. The results go to FILE as JSON.
Under ``--profile`` the whole benchmark runs under cProfile as well.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
from pathlib import Path

from benchmarks.processes import PROFILE_ENV
from benchmarks.registry import run_benchmark


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.child")
    parser.add_argument("name")
    parser.add_argument("--rounds", type=int)
    parser.add_argument("--result", type=Path, required=True)
    options = parser.parse_args()
    profile_dir = os.environ.get(PROFILE_ENV)
    if profile_dir:
        profiler = cProfile.Profile()
        results = profiler.runcall(run_benchmark, options.name, options.rounds)
        profiler.dump_stats(Path(profile_dir) / f"{options.name}-benchmark-process.prof")
    else:
        results = run_benchmark(options.name, options.rounds)
    options.result.write_text(json.dumps([result.to_json() for result in results]))


if __name__ == "__main__":
    main()
