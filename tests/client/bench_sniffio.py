"""Benchmark: client CPU per loopback request with and without ``sniffio`` importable.

httpcore asks ``import sniffio`` several times per request (each lock and
event it makes); when sniffio is not installed every one of those imports
searches the whole ``sys.path`` and fails. The sandbox runs in a separate
process, so ``time.process_time()`` here is the client's CPU alone. Rounds
alternate A (sniffio importable from ``SNIFFIO_DIR``) and B (not), in one
run. Prints figures, asserts nothing::

    pip install --target /tmp/sniffio_dir sniffio
    SNIFFIO_DIR=/tmp/sniffio_dir .venv/bin/python tests/client/bench_sniffio.py
"""

from __future__ import annotations

import asyncio
import importlib
import os
import socket
import statistics
import subprocess
import sys
import time

from accountdesk.client import AccountDataClient

ROUNDS = 6
REQUESTS = 300


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _sniffio(available: bool, where: str) -> None:
    sys.modules.pop("sniffio", None)
    if available and where not in sys.path:
        sys.path.append(where)
    if not available and where in sys.path:
        sys.path.remove(where)
    importlib.invalidate_caches()


async def _round(base_url: str) -> float:
    async with AccountDataClient(base_url, "sandbox_key", "sandbox_secret") as client:
        await client.get_account("user_good")  # token and connection ready
        started = time.process_time()
        for _ in range(REQUESTS):
            await client.get_account("user_good")
        return (time.process_time() - started) / REQUESTS * 1000


def main() -> None:
    where = os.environ.get("SNIFFIO_DIR", "/tmp/sniffio_dir")
    port = _free_port()
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "accountdesk",
            "sandbox",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        base_url = f"http://127.0.0.1:{port}"
        figures: dict[str, list[float]] = {"with sniffio": [], "without sniffio": []}
        for _ in range(ROUNDS):
            for label, available in (("with sniffio", True), ("without sniffio", False)):
                _sniffio(available, where)
                figures[label].append(asyncio.run(_round(base_url)))
        print(f"sys.path entries: {len(sys.path)}; {REQUESTS} requests x {ROUNDS} rounds each")
        for label, samples in figures.items():
            print(
                f"{label:>16}: median {statistics.median(samples):.2f} ms CPU/request, "
                f"best {min(samples):.2f}"
            )
    finally:
        server.terminate()
        server.wait(timeout=10)


if __name__ == "__main__":
    main()
