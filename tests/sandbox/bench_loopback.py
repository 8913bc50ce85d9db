"""Sandbox vs floor over loopback: 50 concurrent ``GET /accounts/user_good``.

Not a test (pytest does not collect it; it asserts nothing). Run:

    .venv/bin/python tests/sandbox/bench_loopback.py [--rounds 6] [--requests 3000]

Two servers, each uvicorn in a process of its own on 127.0.0.1: the sandbox
(``create_app()``, the real engine, a bearer token checked on every call)
and the floor, a bare FastAPI route answering the same JSON. Both run with
the same uvicorn settings and no access log. The load generator is a lean
asyncio HTTP/1.1 client (keep-alive, one request in flight per connection,
50 connections), so the client is not what is measured. Rounds alternate
A/B then B/A, so drift on a shared machine falls on both alike; every figure
printed comes from this one run.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import socket
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field

CONCURRENCY = 50
PATH = "/accounts/user_good"


def serve(kind: str) -> None:
    """Child process: serve ``kind`` on an ephemeral port and print the port."""
    import uvicorn
    from fastapi import FastAPI
    from fastapi.responses import JSONResponse

    from accountdesk.sandbox import SCENARIO_USERS, create_app
    from accountdesk.sandbox.records import account_record

    if kind == "sandbox":
        app = create_app()
    else:
        app = FastAPI()
        record = account_record(SCENARIO_USERS["user_good"])

        @app.get("/accounts/{user_id}")
        async def account(user_id: str) -> JSONResponse:
            return JSONResponse(record)

    # IPPROTO_TCP explicitly: asyncio sets TCP_NODELAY only on sockets whose
    # proto says TCP; socket.create_server's proto 0 would add Nagle delays.
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(1024)
    print(listener.getsockname()[1], flush=True)
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off")
    uvicorn.Server(config).run(sockets=[listener])


@dataclass
class Target:
    name: str
    process: subprocess.Popen[str]
    port: int
    headers: bytes = b""
    latencies: list[float] = field(default_factory=list)
    seconds: float = 0.0
    requests: int = 0


def start(kind: str) -> Target:
    process = subprocess.Popen(
        [sys.executable, __file__, "--serve", kind], stdout=subprocess.PIPE, text=True
    )
    assert process.stdout is not None
    port = int(process.stdout.readline())
    return Target(kind, process, port)


async def _read_response(reader: asyncio.StreamReader) -> tuple[int, bytes]:
    head = await reader.readuntil(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    length = 0
    for line in head.split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":", 1)[1])
    return status, await reader.readexactly(length)


async def sign_in(target: Target) -> None:
    if target.name != "sandbox":
        return
    reader, writer = await asyncio.open_connection("127.0.0.1", target.port)
    body = json.dumps({"api_key": "sandbox_key", "api_secret": "sandbox_secret"}).encode()
    writer.write(
        b"POST /token HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\n"
        + f"Content-Length: {len(body)}\r\n\r\n".encode()
        + body
    )
    status, answer = await _read_response(reader)
    writer.close()
    assert status == 200, answer
    target.headers = f"Authorization: Bearer {json.loads(answer)['access_token']}\r\n".encode()


async def _connection(target: Target, count: int, latencies: list[float]) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", target.port)
    request = f"GET {PATH} HTTP/1.1\r\nHost: bench\r\n".encode() + target.headers + b"\r\n"
    for _ in range(count):
        started = time.perf_counter()
        writer.write(request)
        status, _ = await _read_response(reader)
        latencies.append(time.perf_counter() - started)
        assert status == 200, status
    writer.close()


async def round_of(target: Target, requests: int, *, record: bool = True) -> None:
    latencies: list[float] = []
    per_connection = requests // CONCURRENCY
    started = time.perf_counter()
    await asyncio.gather(
        *(_connection(target, per_connection, latencies) for _ in range(CONCURRENCY))
    )
    elapsed = time.perf_counter() - started
    if record:
        target.latencies += latencies
        target.seconds += elapsed
        target.requests += len(latencies)


def ms(seconds: float) -> str:
    return f"{seconds * 1000:6.1f} ms"


async def main(rounds: int, requests: int) -> None:
    sandbox, floor = start("sandbox"), start("floor")
    try:
        for target in (sandbox, floor):
            await sign_in(target)
            await round_of(target, requests, record=False)  # warm up
        for index in range(rounds):
            order = (sandbox, floor) if index % 2 == 0 else (floor, sandbox)
            for target in order:
                await round_of(target, requests)
        print(
            f"{CONCURRENCY} connections, GET {PATH}, {rounds} rounds x {requests} requests "
            "each, A/B alternating"
        )
        for target in (sandbox, floor):
            quantiles = statistics.quantiles(target.latencies, n=100)
            print(
                f"{target.name:>8}: {target.requests / target.seconds:8.0f} req/s  "
                f"p50 {ms(quantiles[49])}  p99 {ms(quantiles[98])}"
            )
        ratio = (floor.requests / floor.seconds) / (sandbox.requests / sandbox.seconds)
        print(f"floor / sandbox throughput: {ratio:.2f}x")
    finally:
        for target in (sandbox, floor):
            target.process.terminate()
            target.process.wait(timeout=10)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--serve", choices=["sandbox", "floor"])
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--requests", type=int, default=3000)
    options = parser.parse_args()
    if options.serve:
        serve(options.serve)
    else:
        asyncio.run(main(options.rounds, options.requests))
