"""Benchmark of the transactions path (not a test: it asserts nothing; pytest never collects it).

Every figure is measured beside its floor, alternating the two in one run,
so a busy machine slows both alike; the ratios are what to compare.

- first paint, in-process: ``x`` on user_bulk's account screen until the
  table's first page of rows is drawn (embedded sandbox on its own thread,
  session cache cold), against ``json.loads`` of the same body;
- first paint over a real loopback socket (sandbox in another process),
  against ``httpx.get`` of the body plus ``json.loads``;
- key to repaint for sort by amount (cold: its order never computed before),
  filter by a word (Enter; cold search text), and 50 page-downs;
- memory (``--memory``): peak and final RSS of an app process that opened
  user_bulk over loopback, against a bare process holding the parsed rows as
  plain tuples.

The client's sanitiser and size cap are on (they always are); the cap is the
app's setting, raised with ``--max-mb`` for a million rows.

    .venv/bin/python tests/benchmarks/bench_transactions.py --rows 100000
    .venv/bin/python tests/benchmarks/bench_transactions.py --rows 1000000 --max-mb 256 --rounds 2
    .venv/bin/python tests/benchmarks/bench_transactions.py --memory
    .venv/bin/python tests/benchmarks/bench_transactions.py --profile   # the slowest path
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import gc
import json
import os
import pstats
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
from textual import events

from accountdesk.core.desk import Desk
from accountdesk.core.paths import AppDirs
from accountdesk.core.settings import load_settings
from accountdesk.tui import AccountDeskApp
from accountdesk.tui.driver import Driver
from accountdesk.tui.screens.transactions import TransactionsScreen
from accountdesk.tui.widgets.transaction_table import TransactionTable

USER = "user_bulk"


class PaintClock:
    """Times the table's rows being drawn (render_line of a data row)."""

    def __init__(self) -> None:
        self.first: float | None = None
        self.last: float | None = None
        original = TransactionTable.render_line
        clock = self

        def render_line(table: TransactionTable, y: int) -> Any:
            strip = original(table, y)
            if y >= 1 and len(table.view):
                now = time.perf_counter()
                clock.first = clock.first or now
                clock.last = now
            return strip

        TransactionTable.render_line = render_line  # type: ignore[method-assign]

    def reset(self) -> None:
        self.first = self.last = None


def make_app(base_url: str, rows: int, max_mb: int, folder: Path) -> AccountDeskApp:
    dirs = AppDirs(folder / "config.toml", folder / "data", folder / "logs")
    settings = load_settings(
        dirs.config_path, flags={"base_url": base_url, "max_response_mb": max_mb}
    )
    options = {"bulk_transactions": rows} if base_url == "sandbox" else None
    app = AccountDeskApp(Desk(settings, dirs, sandbox_options=options), cursor_blink=False)
    app.animation_level = "none"
    return app


async def sign_in_and_open_account(app: AccountDeskApp, pilot: Any, secret: str | None) -> None:
    driver = Driver(app, pilot.pause)
    await driver.sign_in(api_key="sandbox_key", api_secret=secret)
    await driver.open_account(USER)


async def open_and_time(app: AccountDeskApp, pilot: Any, paint: PaintClock) -> float:
    """Seconds from ``x`` to the first page of rows drawn (session cache cold)."""
    app.desk.transactions.clear()
    gc.collect()
    paint.reset()
    start = time.perf_counter()
    await pilot.press("x")
    while paint.first is None:
        if time.perf_counter() - start > 600:
            raise TimeoutError("no rows drawn in 10 minutes")
        await asyncio.sleep(0.001)
    elapsed = paint.first - start
    await Driver(app, pilot.pause).settle()
    return elapsed


async def key_to_repaint(app: AccountDeskApp, paint: PaintClock, key: str) -> float:
    """Seconds from a key reaching the app to the last table line drawn for it.

    The key is posted as the terminal driver would, not through Pilot, whose
    own pauses (about 30 ms here) are no part of the app's answer.
    """
    paint.reset()
    start = time.perf_counter()
    app.post_message(events.Key(key, None))
    await settled(paint, start)
    assert paint.last is not None, f"no repaint after {key}"
    return paint.last - start


async def settled(paint: PaintClock, start: float) -> None:
    """Wait for the first line drawn, then until none was drawn for 0.1 s (a frame is 1/60 s)."""
    while paint.last is None and time.perf_counter() - start < 60:
        await asyncio.sleep(0.002)
    quiet_since, seen = time.perf_counter(), paint.last
    while time.perf_counter() - quiet_since < 0.1:
        await asyncio.sleep(0.002)
        if paint.last != seen:
            seen, quiet_since = paint.last, time.perf_counter()


async def call_to_repaint(app: AccountDeskApp, paint: PaintClock, callback: Any) -> float:
    """Like :func:`key_to_repaint`, for what a timer calls (the filter after the typing pause)."""
    paint.reset()
    start = time.perf_counter()
    app.call_later(callback)
    await settled(paint, start)
    assert paint.last is not None, "no repaint"
    return paint.last - start


def floor_json(body: bytes) -> float:
    start = time.perf_counter()
    json.loads(body)
    return time.perf_counter() - start


def median_ms(values: list[float]) -> str:
    return f"{statistics.median(values) * 1000:8.1f} ms"


def report(label: str, path: list[float], floor: list[float]) -> None:
    ratio = statistics.median(path) / statistics.median(floor)
    print(f"{label:44} {median_ms(path)}   floor {median_ms(floor)}   ratio {ratio:5.2f}x")


async def warm_up(app: AccountDeskApp) -> None:
    """Have the sandbox build its rows (a million can take longer than the client's 25 s)."""
    from accountdesk.client import TransportError

    for _ in range(10):
        try:
            await app.desk.load_transactions(USER)
            return
        except TransportError:  # the sandbox goes on building; the next read waits for it
            continue


async def bench_in_process(args: argparse.Namespace, folder: Path) -> None:
    paint = PaintClock()
    app = make_app("sandbox", args.rows, args.max_mb, folder)
    async with app.run_test(size=(100, 30)) as pilot:
        await sign_in_and_open_account(app, pilot, None)
        # Warm the sandbox: it builds and serialises the rows once, as a real
        # service would have them ready; the app's own cache stays cold.
        await warm_up(app)
        from accountdesk.sandbox.records import transactions_json
        from accountdesk.sandbox.scenarios import with_bulk_transactions

        body = transactions_json(with_bulk_transactions(args.rows)[USER], app.desk.now().date())
        print(f"body: {len(body) / 1e6:.1f} MB, {args.rows:,} rows")
        paths, floors = [], []
        for _ in range(args.rounds):
            floors.append(floor_json(body))
            paths.append(await open_and_time(app, pilot, paint))
            await pilot.press("escape")
            await Driver(app, pilot.pause).settle()
        report("first paint, in-process (x -> rows)", paths, floors)
        await pilot.press("x")
        await Driver(app, pilot.pause).settle()
        await interactions(app, pilot, paint, body, args.rounds)


async def interactions(
    app: AccountDeskApp, pilot: Any, paint: PaintClock, body: bytes, rounds: int
) -> None:
    screen = app.screen
    assert isinstance(screen, TransactionsScreen) and screen.view is not None
    data = screen.view.data
    sorts, prepared, filters, typed, pages, floors = [], [], [], [], [], []
    for _ in range(rounds):
        floors.append(floor_json(body))
        # As the screen leaves it after the first paint: amount and date prepared.
        for reverse in (False, True):
            data.index().order("amount", reverse)
        prepared.append(await key_to_repaint(app, paint, "4"))
        await pilot.press("1")  # another sort, so "4" starts ascending again
        forget_derived(data)
        sorts.append(await key_to_repaint(app, paint, "4"))
        await pilot.press("1")
        forget_derived(data)
        await pilot.press("slash")
        screen.query_one("#transactions-filter").value = "pharmacy"  # type: ignore[attr-defined]
        filters.append(await key_to_repaint(app, paint, "enter"))
        await pilot.press("slash", "escape")
        # The same filter applied by the typing pause's timer: no focus move.
        box = screen.query_one("#transactions-filter")
        box.value = "pharmacy"  # type: ignore[attr-defined]
        screen._stop_filter_timer()
        typed.append(await call_to_repaint(app, paint, screen.apply_filter))
        await pilot.press("slash", "escape")
        screen.query_one(TransactionTable).focus()
        for _ in range(50):
            pages.append(await key_to_repaint(app, paint, "pagedown"))
        await pilot.press("home")
    report("sort by amount, key -> repaint (prepared)", prepared, floors)
    report("sort by amount, key -> repaint (cold)", sorts, floors)
    report("filter 'pharmacy' (Enter), key -> repaint", filters, floors)
    report("filter 'pharmacy' (typing pause) -> repaint", typed, floors)
    print(
        f"{'page-down x50, key -> repaint':44} {median_ms(pages)}   max {max(pages) * 1000:.1f} ms"
    )


def forget_derived(data: Any) -> None:
    """Forget the sort orders computed so far, so the next sort is a first one.

    The index itself stays: the screen builds it in a thread right after the
    first paint, before a person can press a key.
    """
    data.index().forget_orders()


@contextlib.contextmanager
def loopback_sandbox(rows: int) -> Iterator[str]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    code = (
        "import uvicorn; from accountdesk.sandbox import create_app; "
        f"uvicorn.run(create_app(bulk_transactions={rows}), host='127.0.0.1', port={port}, "
        "log_level='warning')"
    )
    server = subprocess.Popen([sys.executable, "-c", code])
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.1):
                break
            time.sleep(0.1)
        yield url
    finally:
        server.terminate()
        server.wait(10)


def token(url: str) -> str:
    answer = httpx.post(
        f"{url}/token", json={"api_key": "sandbox_key", "api_secret": "sandbox_secret"}
    )
    return str(answer.json()["access_token"])


def floor_http(url: str, bearer: str) -> tuple[float, bytes]:
    start = time.perf_counter()
    answer = httpx.get(
        f"{url}/accounts/{USER}/transactions",
        headers={"Authorization": f"Bearer {bearer}"},
        timeout=None,  # the sandbox's first answer builds a million rows
    )
    json.loads(answer.content)
    return time.perf_counter() - start, answer.content


async def bench_loopback(args: argparse.Namespace, folder: Path) -> None:
    with loopback_sandbox(args.rows) as url:
        bearer = token(url)
        floor_http(url, bearer)  # the sandbox builds its rows once
        paint = PaintClock()
        app = make_app(url, args.rows, args.max_mb, folder)
        async with app.run_test(size=(100, 30)) as pilot:
            await sign_in_and_open_account(app, pilot, "sandbox_secret")
            paths, floors = [], []
            for _ in range(args.rounds):
                floors.append(floor_http(url, bearer)[0])
                paths.append(await open_and_time(app, pilot, paint))
                await pilot.press("escape")
                await Driver(app, pilot.pause).settle()
            report("first paint, loopback (x -> rows)", paths, floors)


# -- memory: each figure from a process of its own ------------------------------


def rss_now_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


#: The floor's process: only the standard library, the body parsed, kept as tuples.
BARE_PROCESS = """
import gc, json, resource, sys
from decimal import Decimal
from pathlib import Path
body = Path(sys.argv[1]).read_bytes()
tree = json.loads(body)
del body
rows = [
    (t["transaction_id"], t["date"], Decimal(t["amount"]), t["description"],
     t.get("category"), t.get("pending", False))
    for t in tree["transactions"]
]
del tree
gc.collect()
now = [int(line.split()[1]) / 1024 for line in Path("/proc/self/status").read_text().splitlines()
       if line.startswith("VmRSS:")][0]
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"peak": peak, "now": now, "rows": len(rows)}))
"""


async def child_app(url: str, rows: int, max_mb: int) -> None:
    paint = PaintClock()
    with tempfile.TemporaryDirectory() as folder:
        app = make_app(url, rows, max_mb, Path(folder))
        async with app.run_test(size=(100, 30)) as pilot:
            await sign_in_and_open_account(app, pilot, "sandbox_secret")
            if url == "sandbox":
                await warm_up(app)  # the embedded sandbox builds its rows on the first read
            await open_and_time(app, pilot, paint)
            gc.collect()
            print(json.dumps({"peak": peak_mb(), "now": rss_now_mb()}))


def bench_memory(args: argparse.Namespace) -> None:
    with loopback_sandbox(args.rows) as url:
        _, body = floor_http(url, token(url))
        with tempfile.NamedTemporaryFile(suffix=".json") as body_file:
            body_file.write(body)
            body_file.flush()
            me = [sys.executable, __file__, "--rows", str(args.rows), "--max-mb", str(args.max_mb)]
            floors, apps = [], []
            for _ in range(args.rounds):
                floors.append(_child([sys.executable, "-c", BARE_PROCESS, body_file.name]))
                apps.append(_child([*me, "--child-app", url]))
            embedded = _child([*me, "--child-app", "sandbox"])
    floor_peak = statistics.median(f["peak"] for f in floors)
    app_peak = statistics.median(a["peak"] for a in apps)
    print(f"memory, {args.rows:,} rows over loopback (MiB):")
    print(f"  bare process, rows as tuples: peak {floor_peak:7.1f}   after {floors[0]['now']:7.1f}")
    print(f"  app with user_bulk shown:     peak {app_peak:7.1f}   after {apps[0]['now']:7.1f}")
    print(f"  ratio of peaks: {app_peak / floor_peak:.2f}x")
    print(
        f"  app on the embedded sandbox (its rows in the same process): peak "
        f"{embedded['peak']:7.1f}   after {embedded['now']:7.1f}"
    )


def _child(command: list[str]) -> dict[str, float]:
    out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    return dict(json.loads(out.strip().splitlines()[-1]))


# -- profile -------------------------------------------------------------------------


async def profile_first_paint(args: argparse.Namespace, folder: Path) -> None:
    """cProfile of one in-process first paint, with the client's parse thread run inline."""

    async def inline(function: Any, /, *a: Any, **k: Any) -> Any:
        return function(*a, **k)

    paint = PaintClock()
    app = make_app("sandbox", args.rows, args.max_mb, folder)
    async with app.run_test(size=(100, 30)) as pilot:
        await sign_in_and_open_account(app, pilot, None)
        await warm_up(app)
        real_to_thread = asyncio.to_thread
        asyncio.to_thread = inline  # type: ignore[assignment]
        profiler = cProfile.Profile()
        profiler.enable()
        elapsed = await open_and_time(app, pilot, paint)
        profiler.disable()
        asyncio.to_thread = real_to_thread
        print(f"first paint under the profiler: {elapsed * 1000:.0f} ms")
        pstats.Stats(profiler).sort_stats("tottime").print_stats(14)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--max-mb", type=int, default=64)
    parser.add_argument("--memory", action="store_true")
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--skip-loopback", action="store_true")
    parser.add_argument("--child-app")
    args = parser.parse_args()
    if args.child_app:
        return asyncio.run(child_app(args.child_app, args.rows, args.max_mb))
    if args.memory:
        return bench_memory(args)
    with tempfile.TemporaryDirectory() as folder:
        if args.profile:
            return asyncio.run(profile_first_paint(args, Path(folder)))
        asyncio.run(bench_in_process(args, Path(folder) / "in-process"))
        if not args.skip_loopback:
            asyncio.run(bench_loopback(args, Path(folder) / "loopback"))
    print(f"load average: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
