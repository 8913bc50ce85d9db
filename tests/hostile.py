"""A hostile Account Data Service on a real loopback socket, for client and app tests.

It speaks the sandbox's wire format (docs/developer/sandbox.md, "Wire format") and hands out a
valid token, but each *mode* turns one fault on::

    with HostileServer("escapes") as base_url:              # every path
        ...
    with HostileServer(paths={"/token": "drip"}) as base_url:   # one path
        ...

Modes (see :data:`MODES`); an instance's mode applies to every path but
``/token``, which answers a valid token unless ``paths`` names it:

- ``"valid"``: well-behaved answers (the default).
- ``"escapes"``: terminal escape sequences (OSC 52 clipboard write, window
  title, screen wipe, C1 CSI, bidi override) in every text field of every
  record, the MFA question and a failed job's error message.
- ``"escape_error"``: every answer is an error envelope whose message holds
  those sequences.
- ``"huge_numbers"``: balance ``"1e3000000"``, amounts with 5,000 digits,
  ``attempts_remaining`` of a billion.
- ``"long_job_id"``: jobs with a 5,000-character ``job_id``.
- ``"drip"``: the answer arrives one byte every ``drip_interval`` seconds
  (headers included) and never ends soon; with ``paths={"/token": "drip"}``
  it is the token request that drips.
- ``"gzip_bomb"``: about 1 MB of gzip that inflates to ``bomb_bytes``
  (1 GiB by default).
- ``"oversized"``: a plain body of ``oversize_bytes`` (80 MiB by default),
  chunked, without ``Content-Length``.
- ``"hostile_retry_after"``: refresh answers 429 ``AC-108`` and every other
  call 503, each with a ``Retry-After`` of ``1e999``, a huge number or junk.
- ``"error_200"``: HTTP 200 with the error envelope of ``AC-104`` (the bank
  cannot be reached); ``"empty_200"``: HTTP 200 with ``{}``.
- ``"tiny_rows"``: transactions of ``tiny_rows`` rows of ~40 bytes each
  (5,000,000 by default: past a 64 MiB cap), chunked; every other path as
  ``"valid"``.

The server runs its own event loop in a thread, so sync tests, async tests
and a Textual app under test can all use it. ``requests`` records
``(method, path)`` of every request; ``tokens_issued`` counts tokens.
Nothing leaves 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import struct
import threading
import zlib
from collections.abc import Mapping
from typing import Any

__all__ = ["BANK_DOWN", "ESCAPES", "MODES", "HostileServer"]

MODES = frozenset(
    {
        "valid",
        "escapes",
        "escape_error",
        "huge_numbers",
        "long_job_id",
        "drip",
        "gzip_bomb",
        "oversized",
        "hostile_retry_after",
        "error_200",
        "empty_200",
        "tiny_rows",
    }
)

#: What the escape modes put in text: clipboard write, title, wipe, C1 CSI, bidi.
ESCAPES = (
    "\x1b]52;c;aGFja2Vk\x1b\\"  # OSC 52: write "hacked" to the clipboard
    "\x1b]0;owned\x07"  # OSC 0: window title
    "\x1b[2J"  # CSI 2J: wipe the screen
    "\x9b31m"  # C1 CSI: red
    "\u202eevil"  # right-to-left override
)
LONG_JOB_ID = "j" * 5000
BANK_DOWN = "We are having issues connecting to your bank."
TOKEN_PREFIX = "hostile-token-0123456789-"
_NOW = "2026-03-02T12:00:00.000+00:00"


class HostileServer:
    """A context manager serving one fault per mode on ``127.0.0.1:<free port>``."""

    def __init__(
        self,
        mode: str = "valid",
        *,
        paths: Mapping[str, str] | None = None,
        drip_interval: float = 0.5,
        bomb_bytes: int = 2**30,
        oversize_bytes: int = 80 * 2**20,
        tiny_rows: int = 5_000_000,
    ) -> None:
        for chosen in (mode, *(paths or {}).values()):
            if chosen not in MODES:
                raise ValueError(f"unknown mode {chosen!r}; one of {sorted(MODES)}")
        self.mode = mode
        self.paths = dict(paths or {})
        self.drip_interval = drip_interval
        self.bomb_bytes = bomb_bytes
        self.oversize_bytes = oversize_bytes
        self.tiny_rows = tiny_rows
        self.requests: list[tuple[str, str]] = []
        self.tokens_issued = 0
        self.base_url = ""
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._stop: asyncio.Event | None = None
        self._ready = threading.Event()
        self._failure: BaseException | None = None

    # -- lifecycle -------------------------------------------------------------

    def __enter__(self) -> str:
        if "gzip_bomb" in (self.mode, *self.paths.values()):
            _bomb(self.bomb_bytes)  # built before serving: compressing takes a moment
        self._thread = threading.Thread(target=self._run, name="hostile-server", daemon=True)
        self._thread.start()
        if not self._ready.wait(10) or self._failure is not None:
            raise RuntimeError(f"hostile server did not start: {self._failure!r}")
        return self.base_url

    def __exit__(self, *exc_info: object) -> None:
        if self._loop is not None and self._stop is not None:
            self._loop.call_soon_threadsafe(self._stop.set)
        if self._thread is not None:
            self._thread.join(timeout=10)

    def _run(self) -> None:
        try:
            asyncio.run(self._serve())
        except BaseException as exc:  # reported by __enter__
            self._failure = exc
            self._ready.set()

    async def _serve(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        handlers: set[asyncio.Task[None]] = set()

        async def on_connection(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            task = asyncio.current_task()
            assert task is not None
            handlers.add(task)
            try:
                await self._handle(reader, writer)
            except (ConnectionError, asyncio.IncompleteReadError, asyncio.CancelledError):
                pass
            finally:
                handlers.discard(task)
                writer.close()

        server = await asyncio.start_server(on_connection, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        self.base_url = f"http://127.0.0.1:{port}"
        self._ready.set()
        async with server:
            await self._stop.wait()
            for task in list(handlers):  # drips would otherwise run on
                task.cancel()
            await asyncio.gather(*handlers, return_exceptions=True)

    # -- HTTP ------------------------------------------------------------------

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        head = await reader.readuntil(b"\r\n\r\n")
        request_line, *header_lines = head.decode("latin-1").split("\r\n")
        method, target, _version = request_line.split(" ", 2)
        headers = {}
        for line in header_lines:
            if ":" in line:
                name, _, value = line.partition(":")
                headers[name.strip().lower()] = value.strip()
        length = int(headers.get("content-length", "0") or 0)
        if length:
            await reader.readexactly(length)
        path = target.split("?", 1)[0]
        self.requests.append((method, path))
        # The token stays valid whatever the instance's mode; only a per-path
        # mode ({"/token": "drip"}) makes the token request hostile.
        mode = self.paths.get(path, "valid" if path == "/token" else self.mode)
        await self._answer(writer, method, path, mode)

    async def _answer(
        self, writer: asyncio.StreamWriter, method: str, path: str, mode: str
    ) -> None:
        if mode == "drip":
            status, body = self._route(method, path, "valid")
            padded = json.dumps(body).encode()[:-1] + b" " * 100_000 + b"}"
            await self._drip(writer, _head(status, {"Content-Length": str(len(padded))}) + padded)
        elif mode == "gzip_bomb":
            payload = _bomb(self.bomb_bytes)
            extra = {"Content-Encoding": "gzip", "Content-Length": str(len(payload))}
            await _send(writer, _head(200, extra) + payload)
        elif mode == "oversized":
            await self._send_oversized(writer)
        elif mode == "tiny_rows" and method == "GET" and path.endswith("/transactions"):
            await self._send_tiny_rows(writer)
        elif mode == "hostile_retry_after":
            await self._send_retry_after(writer, path)
        else:
            status, body = self._route(method, path, mode)
            payload = json.dumps(body).encode()
            await _send(writer, _head(status, {"Content-Length": str(len(payload))}) + payload)

    async def _drip(self, writer: asyncio.StreamWriter, data: bytes) -> None:
        for index in range(len(data)):
            writer.write(data[index : index + 1])
            await writer.drain()
            await asyncio.sleep(self.drip_interval)

    async def _send_oversized(self, writer: asyncio.StreamWriter) -> None:
        writer.write(_head(200, {"Transfer-Encoding": "chunked"}))
        chunk = b'{"pad": "' + b"x" * (1024 * 1024 - 10) + b'"}'
        sent = 0
        while sent < self.oversize_bytes:
            writer.write(f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n")
            await writer.drain()
            sent += len(chunk)
        writer.write(b"0\r\n\r\n")
        await writer.drain()

    async def _send_tiny_rows(self, writer: asyncio.StreamWriter) -> None:
        writer.write(_head(200, {"Transfer-Encoding": "chunked"}))
        pieces = [b'{"transactions": [']
        for start in range(0, self.tiny_rows, 10_000):
            rows = range(start, min(start + 10_000, self.tiny_rows))
            pieces.append(b",".join(b'{"transaction_id":"t%d","amount":"1"}' % n for n in rows))
            pieces.append(b"," if rows.stop < self.tiny_rows else b"]}")
            chunk = b"".join(pieces)
            pieces.clear()
            writer.write(f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n")
            await writer.drain()
        writer.write(b"0\r\n\r\n")
        await writer.drain()

    async def _send_retry_after(self, writer: asyncio.StreamWriter, path: str) -> None:
        if path == "/token":
            status, body = self._route("POST", path, "valid")
            extra: dict[str, str] = {}
        elif path.endswith("/refresh"):
            status, extra = 429, {"Retry-After": "1e999"}
            body = _envelope("AC-108", "Account has been temporarily blockd")
        else:
            status, extra = 503, {"Retry-After": "99999999999999999999"}
            body = {"unavailable": True}
        payload = json.dumps(body).encode()
        await _send(writer, _head(status, {**extra, "Content-Length": str(len(payload))}) + payload)

    # -- the wire format -------------------------------------------------------------

    def _route(self, method: str, path: str, mode: str) -> tuple[int, Any]:
        parts = path.strip("/").split("/")
        if method == "POST" and path == "/token":
            self.tokens_issued += 1
            token = f"{TOKEN_PREFIX}{self.tokens_issued}"
            return 200, {"access_token": token, "token_type": "Bearer", "expires_in": 3600}
        if mode == "escape_error":
            return 400, _envelope("AC-204", f"No account information {ESCAPES} available")
        if mode == "error_200":
            return 200, _envelope("AC-104", BANK_DOWN)
        if mode == "empty_200":
            return 200, {}
        if parts[0] == "_sandbox":
            if mode == "escapes" and parts[1:] == ["scenarios"]:
                users = [{"user_id": "user_good", "summary": f"good {ESCAPES}"}]
                creds = [{"api_key": "k", "api_secret": "s", "access": ESCAPES}]
                return 200, {"users": users, "credentials": creds}
            return 404, _envelope("AC-904", "Not found")
        if parts[0] != "accounts" or len(parts) < 2:
            return 404, _envelope("AC-904", "Not found")
        user_id, rest = parts[1], parts[2:]
        text = _Text(mode)
        if not rest and method == "GET":
            return 200, _account(user_id, text)
        if rest == ["balance"] and method == "GET":
            return 200, _balance(user_id, mode)
        if rest in (["refresh"], ["identity"], ["transactions"]) and method == "POST":
            kind = {"refresh": "balance_refresh"}.get(rest[0], rest[0])
            return 202, _job(user_id, kind, "pending", mode, text)
        if rest == ["identity"] and method == "GET":
            return 200, _identity(user_id, text)
        if rest == ["transactions"] and method == "GET":
            return 200, _transactions(user_id, mode, text)
        if len(rest) == 2 and rest[0] == "job" and method == "GET":
            status = "failed" if mode == "escapes" else "completed"
            return 200, _job(user_id, "balance_refresh", status, mode, text)
        if rest[:1] == ["mfa"] and method == "POST":
            return 200, _job(user_id, "balance_refresh", "mfa_required", mode, text)
        return 404, _envelope("AC-904", "Not found")


class _Text:
    """Text fields: plain, or laced with escapes in ``escapes`` mode."""

    def __init__(self, mode: str) -> None:
        self.hostile = mode == "escapes"

    def __call__(self, plain: str) -> str:
        return f"{plain} {ESCAPES}" if self.hostile else plain


def _envelope(code: str, message: str) -> dict[str, Any]:
    return {"error": {"code": code, "message": message}}


def _account(user_id: str, text: _Text) -> dict[str, Any]:
    return {
        "user_id": user_id,
        "link_type": text("fi"),
        "institution_name": text("First Hostile Bank"),
        "account_name": text("Everyday"),
        "account_type": text("checking"),
        "account_number": text("4820193756"),
        "account_number_masked": text("••••3756"),
        "routing_number": text("021000021"),
        "currency": text("USD"),
    }


def _balance(user_id: str, mode: str) -> dict[str, Any]:
    if mode == "huge_numbers":
        return {"user_id": user_id, "currency": "USD", "available": "1e3000000", "current": 1e300}
    return {
        "user_id": user_id,
        "currency": _Text(mode)("USD"),
        "available": "1234.56",
        "current": "1300.00",
        "as_of": _NOW,
    }


def _job(user_id: str, kind: str, status: str, mode: str, text: _Text) -> dict[str, Any]:
    job: dict[str, Any] = {
        "job_id": LONG_JOB_ID if mode == "long_job_id" else "job_0001",
        "user_id": user_id,
        "kind": kind,
        "status": status,
        "created_at": _NOW,
        "updated_at": _NOW,
        "completed_at": _NOW if status in {"completed", "failed"} else None,
        "mfa": None,
        "error": None,
    }
    if status == "mfa_required":
        attempts = 10**9 if mode == "huge_numbers" else 3
        question = text("What is your PIN?")
        job["mfa"] = {"question": question, "expires_at": _NOW, "attempts_remaining": attempts}
    if status == "failed":
        job["error"] = {"code": "AC-104", "message": text("We are having issues")}
    return job


def _identity(user_id: str, text: _Text) -> dict[str, Any]:
    address = {
        key: text(value)
        for key, value in {
            "street": "1 Main St",
            "city": "Springfield",
            "region": "IL",
            "postal_code": "62701",
            "country": "US",
        }.items()
    }
    return {
        "user_id": user_id,
        "names": [text("Alex Doe")],
        "emails": [text("alex@example.com")],
        "phone_numbers": [text("+1 555 0100")],
        "addresses": [address],
    }


def _transactions(user_id: str, mode: str, text: _Text) -> dict[str, Any]:
    amount = "9" * 5000 if mode == "huge_numbers" else "-12.34"
    rows = [
        {
            "transaction_id": f"txn_{n:06d}",
            "date": "2026-03-01",
            "amount": amount,
            "description": text("Coffee"),
            "category": text("food"),
            "pending": n == 1,
        }
        for n in (1, 2, 3)
    ]
    return {"user_id": user_id, "currency": text("USD"), "transactions": rows}


_REASONS = {200: "OK", 202: "Accepted", 400: "Bad Request", 404: "Not Found", 429: "Too Many"}


def _head(status: int, extra: Mapping[str, str]) -> bytes:
    lines = [f"HTTP/1.1 {status} {_REASONS.get(status, 'Unavailable')}"]
    lines += ["Content-Type: application/json", "Connection: close"]
    lines += [f"{name}: {value}" for name, value in extra.items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


async def _send(writer: asyncio.StreamWriter, data: bytes) -> None:
    writer.write(data)
    await writer.drain()
    with contextlib.suppress(ConnectionError):
        writer.write_eof()


_BOMBS: dict[int, bytes] = {}


def _bomb(size: int) -> bytes:
    """Gzip of ``size`` zero bytes (whole MiB), about 1/1000 of it, built in a second.

    After a full flush deflate starts afresh, so every 1 MiB block of zeros
    compresses to the same bytes: compress two, repeat the second, and
    write the gzip trailer (CRC-32 and length) by hand.
    """
    if size not in _BOMBS:
        block = bytes(2**20)
        blocks = max(1, size // len(block))
        compressor = zlib.compressobj(9, zlib.DEFLATED, 31)  # 31: gzip framing
        first = compressor.compress(block) + compressor.flush(zlib.Z_FULL_FLUSH)
        steady = compressor.compress(block) + compressor.flush(zlib.Z_FULL_FLUSH)
        final_block = compressor.flush()[:-8]  # the empty last block, without zlib's trailer
        crc = 0
        for _ in range(blocks):
            crc = zlib.crc32(block, crc)
        trailer = struct.pack("<II", crc, (blocks * len(block)) & 0xFFFFFFFF)
        _BOMBS[size] = first + steady * (blocks - 1) + final_block + trailer
    return _BOMBS[size]
