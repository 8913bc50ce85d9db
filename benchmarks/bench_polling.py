"""Tracked jobs polled live: CPU above an idle app and above a bare Textual app, keys meanwhile.

``polling`` (100 jobs): four dashboards run side by side for the same 20 s
(``benchmarks.polling_child desk``), each signed in to one sandbox process
on 127.0.0.1 whose jobs never finish: on the lookup and on the jobs screen,
each with 100 tracked jobs that are unfinished (polled) or finished (the
idle floor: the same rows on screen, nothing to poll).

``polling_1k`` (1,000 jobs, only when asked: 80 s): the dashboard in its
default mode (the embedded sandbox, its CPU counted: it is the same
process) with 1,000 unfinished jobs, on the jobs screen and on the lookup
screen, beside a bare Textual app (:mod:`benchmarks.bare_app`, the same
number of plain rows, the same keys) in a process of its own: the floor is
what any Textual dashboard pays to sit there and answer keys, not the
app's own idle. Windows of 25 s, one poll period of 1,000 jobs (each is
polled once per ``1000 / max_rate`` seconds, so a shorter window would catch
a round or miss it), after the first round (every job polled once) ended.
Also counted, once a second: the jobs that read stale, as the jobs screen
would mark them (target: none).

Side by side rather than in turns: CPU time is per process, so sharing the
machine costs both alike, and it keeps the run short. A key is pressed every
0.25 s (typing in the user-id field, moving a table's cursor) and timed to
its repaint.
"""

from __future__ import annotations

import statistics
import sys
from typing import Any

from benchmarks.measure import Result, Target, TargetKind
from benchmarks.processes import Child, ChildUsage, Server
from benchmarks.registry import benchmark

JOBS = 100
SECONDS = 20.0
#: Jobs of the sandbox run for a day: they stay unfinished for the whole benchmark.
JOB_SECONDS = 86_400
MANY_JOBS = 1_000
#: One poll period of 1,000 jobs at the poller's default rate (40 a second).
MANY_WINDOW = 25.0
MANY_WINDOWS = 3


def _child(*args: str, profile_as: str | None = None) -> Child:
    return Child("benchmarks.polling_child", list(args), profile_as=profile_as)


def _desk(screen: str, jobs: int, seconds: float, windows: int, *extra: str) -> list[str]:
    return [
        "desk",
        "--screen",
        screen,
        "--jobs",
        str(jobs),
        "--seconds",
        str(seconds),
        "--windows",
        str(windows),
        *extra,
    ]


@benchmark(
    "polling",
    "100 unfinished jobs polled for 20 s, lookup and jobs screens: CPU above idle, key latency",
    rounds=4,
    seconds=40,
)
def polling(rounds: int) -> list[Result]:
    argv = ["-m", "benchmarks.serve", "sandbox", "--port", "{port}"]
    with Server(sys.executable, *argv, "--job-seconds", str(JOB_SECONDS)) as server:
        children = {}
        for screen in ("lookup", "jobs"):
            for polled in (True, False):
                args = _desk(screen, JOBS, SECONDS, rounds, "--url", server.url)
                profile_as = f"polling_{screen}" if polled else None
                children[screen, polled] = _child(
                    *args, *(["--polled"] if polled else []), profile_as=profile_as
                )
        outcomes = {key: child.wait() for key, child in children.items()}
        sandbox_cpu = server.cpu_seconds()
    results = []
    for screen in ("lookup", "jobs"):
        (path, path_usage), (floor, floor_usage) = outcomes[screen, True], outcomes[screen, False]
        _check_unfinished(path, JOBS)
        results.append(
            Result(
                f"polling_cpu_{screen}",
                f"CPU, {screen} screen, {JOBS} unfinished jobs polled ({SECONDS:.0f} s)",
                f"the same app and screen, {JOBS} finished jobs (idle)",
                "% core",
                path["cpu_percent"],
                floor["cpu_percent"],
                Target(TargetKind.ABOVE_FLOOR, 5.0),
                notes=[
                    f"{path['jobs_polled']} of {JOBS} jobs polled at least once",
                    f"sandbox process CPU {sandbox_cpu:.1f} s in all (not counted)",
                ],
                path_peak_mb=path_usage.peak_rss_mb,
                floor_peak_mb=floor_usage.peak_rss_mb,
            )
        )
        results.append(
            _keys(
                f"polling_keys_{screen}",
                screen,
                JOBS,
                path,
                path_usage,
                floor,
                floor_usage,
                "the same keys in the idle app",
            )
        )
    return results


@benchmark(
    "polling_1k",
    "1,000 unfinished jobs polled (embedded sandbox): CPU above a bare Textual app, key p95, stale jobs",
    rounds=MANY_WINDOWS,
    seconds=115,
    default=False,
)
def polling_1k(rounds: int) -> list[Result]:
    seconds = MANY_WINDOW * rounds
    children = {
        screen: _child(
            *_desk(screen, MANY_JOBS, seconds, rounds, "--polled"),
            profile_as=f"polling_1k_{screen}",
        )
        for screen in ("jobs", "lookup")
    }
    bare_args = ["bare", "--jobs", str(MANY_JOBS), "--seconds", str(seconds)]
    bare = _child(*bare_args, "--windows", str(rounds), "--settle", "6")
    outcomes = {screen: child.wait() for screen, child in children.items()}
    floor, floor_usage = bare.wait()
    results = []
    floor_name = f"bare Textual app, {MANY_JOBS:,} plain rows, the same keys (own process)"
    for screen in ("jobs", "lookup"):
        path, path_usage = outcomes[screen]
        _check_unfinished(path, MANY_JOBS)
        results.append(
            Result(
                f"polling_1k_cpu_{screen}",
                f"CPU, {screen} screen, {MANY_JOBS:,} unfinished jobs polled, embedded sandbox "
                f"({seconds:.0f} s)",
                floor_name,
                "% core",
                path["cpu_percent"],
                floor["cpu_percent"],
                Target(TargetKind.ABOVE_FLOOR, 5.0),
                notes=[
                    (
                        f"{path['jobs_polled']:,} of {MANY_JOBS:,} polled, each every "
                        f"{path['period']:.0f} s ({path['period'] * 2:.0f} s once unchanged)"
                    ),
                    "the embedded sandbox answers in this process: its CPU is counted",
                ],
                path_peak_mb=path_usage.peak_rss_mb,
                floor_peak_mb=floor_usage.peak_rss_mb,
            )
        )
        results.append(
            _keys(
                f"polling_1k_keys_{screen}",
                screen,
                MANY_JOBS,
                path,
                path_usage,
                floor,
                floor_usage,
                floor_name,
                p95=True,
            )
        )
        results.append(
            Result(
                f"polling_1k_stale_{screen}",
                f"jobs that read stale at once (max, sampled each second), {screen} screen",
                "none",
                "jobs",
                [float(path["stale_at_once"])],
                target=Target(TargetKind.ABSOLUTE, 0.0),
                notes=[f"{path['stale_jobs']:,} distinct jobs read stale at some point"],
                path_peak_mb=path_usage.peak_rss_mb,
            )
        )
    return results


def _check_unfinished(path: dict[str, Any], jobs: int) -> None:
    if path["unfinished"] != jobs:
        raise RuntimeError(f"{path['unfinished']} of {jobs} jobs unfinished: not what we measure")


def _keys(
    name: str,
    screen: str,
    jobs: int,
    path: dict[str, Any],
    path_usage: ChildUsage,
    floor: dict[str, Any],
    floor_usage: ChildUsage,
    floor_name: str,
    *,
    p95: bool = False,
) -> Result:
    """Key -> repaint: every key a sample, or (``p95``) each window's p95 a sample."""
    path_windows, floor_windows = path["latency_ms"], floor["latency_ms"]
    every_path = [ms for window in path_windows for ms in window]
    every_floor = [ms for window in floor_windows for ms in window]
    if p95:
        path_samples = [_p95(window) for window in path_windows]
        floor_samples = [_p95(window) for window in floor_windows]
        what = "key -> repaint p95 per window"
    else:
        path_samples, floor_samples = every_path, every_floor
        what = "key -> repaint"
    return Result(
        name,
        f"{what} while polling {jobs:,} jobs, {screen} screen ({len(every_path)} keys)",
        floor_name,
        "ms",
        path_samples,
        floor_samples,
        Target(TargetKind.ABSOLUTE, 50.0),
        notes=[
            f"p95 {_p95(every_path):.1f} ms, max {max(every_path):.1f} ms",
            f"floor: p95 {_p95(every_floor):.1f} ms, max {max(every_floor):.1f} ms",
        ],
        path_peak_mb=path_usage.peak_rss_mb,
        floor_peak_mb=floor_usage.peak_rss_mb,
    )


def _p95(values: list[float]) -> float:
    return (
        statistics.quantiles(values, n=20, method="inclusive")[-1] if len(values) > 1 else values[0]
    )
