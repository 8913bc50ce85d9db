"""``python -m benchmarks``: run the benchmarks, each in a process of its own, and print the table.

Options: ``--only NAME[,NAME]`` (``--list`` shows the names), ``--rounds N``
(every benchmark; otherwise each has its own default), ``--markdown`` (the
table for the README), ``--json FILE`` (every sample), ``--profile NAME``
(run one benchmark under cProfile and print its top functions instead of
timing it). Nothing is asserted: rows over target are marked OVER.
"""

from __future__ import annotations

import argparse
import json
import os
import pstats
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.measure import Result
from benchmarks.processes import PROFILE_ENV, run_child
from benchmarks.registry import load_all
from benchmarks.report import markdown_table, text_table


def _machine() -> str:
    load = os.getloadavg()
    return f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} CPUs"


def _selected(only: list[str], everything: bool) -> list[str]:
    benchmarks = load_all()
    if not only:
        return [name for name, bench in benchmarks.items() if bench.default or everything]
    names = [name for item in only for name in item.split(",") if name]
    unknown = [name for name in names if name not in benchmarks]
    if unknown:
        raise SystemExit(f"unknown benchmark(s): {', '.join(unknown)} (see --list)")
    return names


def run(
    names: list[str], rounds: int | None
) -> tuple[list[tuple[Result, float | None]], list[str]]:
    """Each benchmark in a child of its own; the rows, and the benchmarks that failed."""
    rows: list[tuple[Result, float | None]] = []
    failed: list[str] = []
    started = time.perf_counter()
    print(f"# {_machine()}", file=sys.stderr)
    benchmarks = load_all()
    for name in names:
        began = time.perf_counter()
        print(f"# {name} ...", file=sys.stderr, flush=True)
        args = [name] + ([] if rounds is None else ["--rounds", str(rounds)])
        try:
            # Twice what it should take, and never less than ten minutes (the soak takes 30).
            timeout = max(600.0, 2 * benchmarks[name].seconds)
            data, usage = run_child("benchmarks.child", args, timeout=timeout)
        except RuntimeError as error:  # its traceback went to stderr; the others still run
            print(f"# {name}: FAILED ({error})", file=sys.stderr, flush=True)
            failed.append(name)
            continue
        for item in data:
            rows.append((Result.from_json(item), usage.peak_rss_mb))
        print(
            f"# {name}: {time.perf_counter() - began:.0f} s; {_machine()}",
            file=sys.stderr,
            flush=True,
        )
    print(f"# all: {time.perf_counter() - started:.0f} s", file=sys.stderr)
    return rows, failed


def profile(name: str, rounds: int | None, top: int) -> None:
    """Run ``name`` once under cProfile (its process and its measured children); print the top."""
    with tempfile.TemporaryDirectory(prefix="bench-profile-") as directory:
        os.environ[PROFILE_ENV] = directory
        args = [name, "--rounds", str(rounds or 1)]
        run_child("benchmarks.child", args)
        for stats_file in sorted(Path(directory).glob("*.prof")):
            if stats_file.stat().st_size == 0:
                continue
            print(f"\n===== {stats_file.name.split('-')[0]}: {stats_file.stem}")
            for order in ("tottime", "cumulative"):
                stats = pstats.Stats(str(stats_file), stream=sys.stdout)
                stats.strip_dirs().sort_stats(order).print_stats(top)


def main() -> None:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--only", action="append", default=[], metavar="NAME[,NAME]")
    parser.add_argument("--all", action="store_true", help="also the long ones (bulk_1m)")
    parser.add_argument("--rounds", type=int, help="rounds of every benchmark")
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    parser.add_argument("--json", type=Path, metavar="FILE", help="write every sample to FILE")
    parser.add_argument("--list", action="store_true", help="list the benchmarks")
    parser.add_argument("--profile", metavar="NAME", help="profile one benchmark instead")
    parser.add_argument("--top", type=int, default=25, help="functions per profile listing")
    options = parser.parse_args()
    if options.list:
        for name, bench in load_all().items():
            extra = "" if bench.default else "  (only when asked for)"
            print(f"{name:20} {bench.rounds} rounds, ~{bench.seconds:.0f} s  {bench.title}{extra}")
        return
    if options.profile:
        _selected([options.profile], True)
        profile(options.profile, options.rounds, options.top)
        return
    rows, failed = run(_selected(options.only, options.all), options.rounds)
    print(markdown_table(rows) if options.markdown else text_table(rows))
    if failed:
        print(f"\nFAILED (no figures): {', '.join(failed)}")
    if options.json:
        options.json.write_text(
            json.dumps(
                [{**result.to_json(), "process_peak_mb": mb} for result, mb in rows], indent=1
            )
        )
    if failed:
        sys.exit(1)  # the others' figures are printed; a benchmark that could not run is a failure


if __name__ == "__main__":
    main()
