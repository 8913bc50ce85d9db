"""The soak's sandbox: one sandbox served on 127.0.0.1 whose connection can be dropped and restored.

``python -m benchmarks.soak_server --port P [--job-seconds S] [--drop-seconds D]``
serves a fresh sandbox with uvicorn. On SIGUSR1 it drops every connection:
the server stops at once (open connections closed, the port closed), stays
down ``--drop-seconds`` (a client meets "connection refused"), then listens
again on the same port with the same sandbox, so its jobs, tokens and clock
survive the drop as a real service's would survive a network cut. SIGINT or
SIGTERM end it. It prints ``down`` and ``up`` on stdout as it goes.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal
from collections.abc import Iterator
from typing import Any


def _server_class() -> Any:
    import uvicorn

    class Server(uvicorn.Server):
        """A uvicorn server that leaves signals to this module (it restarts many times)."""

        @contextlib.contextmanager
        def capture_signals(self) -> Iterator[None]:
            yield

    return Server


async def serve(options: argparse.Namespace) -> None:
    import uvicorn

    from accountdesk.sandbox import create_app

    app = create_app(job_seconds=options.job_seconds)
    server_class = _server_class()
    loop = asyncio.get_running_loop()
    stop, drop = asyncio.Event(), asyncio.Event()
    for stopping in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(stopping, stop.set)
    loop.add_signal_handler(signal.SIGUSR1, drop.set)
    while not stop.is_set():
        config = uvicorn.Config(
            app, host="127.0.0.1", port=options.port, log_level="warning", lifespan="off"
        )
        server = server_class(config)
        running = asyncio.create_task(server.serve())
        print("up", flush=True)
        ended = asyncio.create_task(stop.wait())
        dropped = asyncio.create_task(drop.wait())
        await asyncio.wait({running, ended, dropped}, return_when=asyncio.FIRST_COMPLETED)
        # A drop, not a graceful stop: connections are cut, requests in flight included.
        server.should_exit = server.force_exit = True
        await running
        ended.cancel()
        dropped.cancel()
        if stop.is_set():
            break
        drop.clear()
        print("down", flush=True)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), options.drop_seconds)


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.soak_server")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--job-seconds", type=float, default=240.0)
    parser.add_argument("--drop-seconds", type=float, default=5.0)
    asyncio.run(serve(parser.parse_args()))


if __name__ == "__main__":
    main()
