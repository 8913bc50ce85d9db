"""The sandbox over loopback: ``GET /accounts/user_good``, 50 at a time, against a bare route.

Path: ``accountdesk sandbox`` (the shipped command: uvicorn, the sandbox's
middleware, token check, engine) on 127.0.0.1. Floor: a bare Starlette app
under uvicorn with the same settings whose one route answers the very bytes
the sandbox answered. Both servers run side by side for the whole
benchmark; rounds alternate between them. The load comes from this
process: 50 connections, one asyncio task each.
On a 2-core machine the load generator competes with the server for CPU,
the same way for both; the ratio is what to read, not the absolute rate,
and the servers' CPU time per request (a second row) is steadier still.

The load generator speaks HTTP/1.1 over asyncio streams (50 keep-alive
connections), not through httpx: measured here, an ``httpx.AsyncClient``
spends 2 to 6 ms of CPU per request on this machine (its pool, and a failed
``import sniffio`` per request), more than either server, so it would
have measured itself.
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx

from benchmarks.apps import API_KEY, API_SECRET
from benchmarks.measure import Result, Target, TargetKind
from benchmarks.processes import Server
from benchmarks.registry import benchmark

CONCURRENCY = 50
REQUESTS = 500
PATH = "/accounts/user_good"


async def load(url: str, headers: dict[str, str]) -> tuple[float, list[float]]:
    """Requests per second and every request's latency (s) for :data:`REQUESTS` requests."""
    host, port = url.removeprefix("http://").split(":")
    lines = [f"GET {PATH} HTTP/1.1", f"Host: {host}:{port}", "Accept: application/json"]
    lines += [f"{name}: {value}" for name, value in headers.items()]
    request = ("\r\n".join(lines) + "\r\n\r\n").encode()
    latencies: list[float] = []

    async def connection(count: int, record: bool) -> None:
        reader, writer = await asyncio.open_connection(host, int(port))
        try:
            for _ in range(count):
                started = time.perf_counter()
                writer.write(request)
                head = await reader.readuntil(b"\r\n\r\n")
                status = head.split(b" ", 2)[1]
                length = 0
                for line in head.lower().split(b"\r\n"):
                    if line.startswith(b"content-length:"):
                        length = int(line.split(b":")[1])
                await reader.readexactly(length)
                if record:
                    latencies.append(time.perf_counter() - started)
                if status != b"200":
                    raise RuntimeError(f"{url}{PATH}: HTTP {status.decode()}")
        finally:
            writer.close()

    await asyncio.gather(*(connection(5, False) for _ in range(CONCURRENCY)))  # warm up
    share = REQUESTS // CONCURRENCY
    started = time.perf_counter()
    await asyncio.gather(*(connection(share, True) for _ in range(CONCURRENCY)))
    elapsed = time.perf_counter() - started
    return len(latencies) / elapsed, latencies


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


@benchmark(
    "sandbox_throughput",
    "sandbox over loopback: GET /accounts/user_good, 50 concurrent, vs a bare Starlette route",
    rounds=4,
    seconds=12,
)
async def sandbox_throughput(rounds: int) -> list[Result]:
    shipped = [sys.executable, "-m", "accountdesk", "sandbox", "--port", "{port}"]
    with Server(*shipped) as sandbox, tempfile.TemporaryDirectory() as tmp:
        async with httpx.AsyncClient(base_url=sandbox.url) as http:
            grant = await http.post("/token", json={"api_key": API_KEY, "api_secret": API_SECRET})
            headers = {"Authorization": f"Bearer {grant.json()['access_token']}"}
            body = (await http.get(PATH, headers=headers)).content
        answer = Path(tmp) / "account.json"
        answer.write_bytes(body)
        bare_argv = ["-m", "benchmarks.serve", "bare", "--port", "{port}", "--body", str(answer)]
        with Server(sys.executable, *bare_argv) as bare:
            rates: dict[str, list[float]] = {"path": [], "floor": []}
            latencies: dict[str, list[float]] = {"path": [], "floor": []}
            cpu: dict[str, list[float]] = {"path": [], "floor": []}
            for _ in range(rounds):
                for side, server in (("path", sandbox), ("floor", bare)):
                    before = server.cpu_seconds()
                    rate, times = await load(server.url, headers)
                    # Per request, warm-up included: the same for both.
                    cpu[side].append((server.cpu_seconds() - before) / (REQUESTS + 5 * CONCURRENCY))
                    rates[side].append(rate)
                    latencies[side].extend(times)
    assert sandbox.usage is not None and bare.usage is not None

    def summary(side: str) -> str:
        times = latencies[side]
        return (
            f"{side}: p50 {statistics.median(times) * 1000:.1f} ms,"
            f" p99 {percentile(times, 0.99) * 1000:.1f} ms"
        )

    return [
        Result(
            "sandbox_throughput",
            f"accountdesk sandbox, GET {PATH}, {CONCURRENCY} concurrent, {REQUESTS:,} per round",
            "bare Starlette route answering the same bytes, same uvicorn settings",
            "req/s",
            rates["path"],
            rates["floor"],
            Target(TargetKind.RATIO, 1.3),
            higher_is_better=True,
            path_peak_mb=sandbox.usage.peak_rss_mb,
            floor_peak_mb=bare.usage.peak_rss_mb,
            notes=[summary("path"), summary("floor")],
        ),
        Result(
            "sandbox_server_cpu",
            "CPU time of the sandbox process per request (the same load; /proc)",
            "CPU time of the bare server per request",
            "us/req",
            [seconds * 1e6 for seconds in cpu["path"]],
            [seconds * 1e6 for seconds in cpu["floor"]],
            Target(TargetKind.REPORT),
            path_peak_mb=sandbox.usage.peak_rss_mb,
            floor_peak_mb=bare.usage.peak_rss_mb,
        ),
    ]
