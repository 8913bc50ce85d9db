"""100 unfinished jobs polled live: CPU above an idle app, and key latency meanwhile.

Four dashboards run side by side for the same 20 s (``benchmarks.children
poll``), each signed in to one sandbox process on 127.0.0.1 whose jobs never
finish: on the lookup screen and on the jobs screen, each with 100 tracked
jobs that are unfinished (polled) or finished (the idle floor: the same rows
on screen, nothing to poll). Side by side rather than in turns: CPU time is
per process, so sharing the machine costs both alike, and it keeps the run
short. Each window of 5 s is a sample; a key is pressed every 0.25 s (typing
in the user-id field, moving the jobs table's cursor) and timed to its
repaint. The sandbox's own CPU is in its process and not counted.
"""

from __future__ import annotations

import statistics
import sys

from .measure import Result, Target, TargetKind
from .processes import Child, Server
from .registry import benchmark

JOBS = 100
SECONDS = 20.0
#: Jobs of the sandbox run for a day: they stay unfinished for the whole benchmark.
JOB_SECONDS = 86_400


@benchmark(
    "polling",
    "100 unfinished jobs polled for 20 s, lookup and jobs screens: CPU above idle, key latency",
    rounds=4,
    seconds=38,
)
def polling(rounds: int) -> list[Result]:
    argv = ["-m", "benchmarks.serve", "sandbox", "--port", "{port}"]
    with Server(sys.executable, *argv, "--job-seconds", str(JOB_SECONDS)) as server:
        children = {}
        for screen in ("lookup", "jobs"):
            for polled in (True, False):
                args = [
                    "poll",
                    "--url",
                    server.url,
                    "--screen",
                    screen,
                    "--jobs",
                    str(JOBS),
                    "--seconds",
                    str(SECONDS),
                    "--windows",
                    str(rounds),
                    *(["--polled"] if polled else []),
                ]
                profile_as = f"polling_{screen}" if polled else None
                children[screen, polled] = Child("benchmarks.children", args, profile_as=profile_as)
        outcomes = {key: child.wait() for key, child in children.items()}
        sandbox_cpu = server.cpu_seconds()
    results = []
    for screen in ("lookup", "jobs"):
        (path, path_usage), (floor, floor_usage) = outcomes[screen, True], outcomes[screen, False]
        if path["unfinished"] != JOBS:
            raise RuntimeError(
                f"{path['unfinished']} of {JOBS} jobs unfinished: not what we measure"
            )
        path_mb, floor_mb = path_usage.peak_rss_mb, floor_usage.peak_rss_mb
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
                path_peak_mb=path_mb,
                floor_peak_mb=floor_mb,
            )
        )
        latency = path["latency_ms"]
        results.append(
            Result(
                f"polling_keys_{screen}",
                f"key -> repaint while polling, {screen} screen ({len(latency)} keys)",
                "the same keys in the idle app",
                "ms",
                latency,
                floor["latency_ms"],
                Target(TargetKind.ABSOLUTE, 50.0),
                notes=[
                    f"p95 {_p95(latency):.1f} ms, max {max(latency):.1f} ms",
                    f"idle: p95 {_p95(floor['latency_ms']):.1f} ms, max {max(floor['latency_ms']):.1f} ms",
                ],
                path_peak_mb=path_mb,
                floor_peak_mb=floor_mb,
            )
        )
    return results


def _p95(values: list[float]) -> float:
    return (
        statistics.quantiles(values, n=20, method="inclusive")[-1] if len(values) > 1 else values[0]
    )
