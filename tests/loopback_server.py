"""A real sandbox server on 127.0.0.1 for tests: uvicorn in a thread on a free port."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator
from typing import Any

import uvicorn


@contextlib.contextmanager
def serve_app(app: Any, **options: Any) -> Iterator[str]:
    """Serve the ASGI ``app`` on an ephemeral loopback port; yields its base URL.

    ``options`` go to ``uvicorn.Config`` (e.g. the sandbox's ``server_options``).
    """
    settings = {"host": "127.0.0.1", "port": 0, **options}
    config = uvicorn.Config(app, log_level="warning", lifespan="off", **settings)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.01)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
