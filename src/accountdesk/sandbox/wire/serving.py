"""The sandbox served over HTTP: uvicorn, with bounds on slow, idle and too many clients.

uvicorn bounds only the idle time *between* requests on a kept-alive
connection (``timeout_keep_alive``): a connection that sends half a request,
or nothing at all, is held forever, and each holds a file descriptor. 1,100
such connections (measured) made a sandbox with the usual 1,024 descriptors
fail every new client with ``EMFILE``. Its ``limit_concurrency`` answers 503
only once a whole request arrived, so it does not help with those either.

:class:`GuardedH11Protocol` (uvicorn's own h11 protocol, three methods
longer) adds:

- a **request time-out**: a connection must deliver a whole request (request
  line, headers and body) within ``request_timeout`` seconds of connecting,
  or of the first byte after its last answer; else it is closed. Data
  arriving does not restart the clock, so a client dripping a byte a second
  is closed like a silent one;
- a **connection cap**: a connection beyond ``max_connections`` is answered
  503 ``AC-953`` (the envelope) and closed at once, so no client can make the
  sandbox hold more descriptors than that.

The rest is uvicorn's: 5 s keep-alive between requests, request line and
headers at most 16 KiB (h11; beyond, 400).
"""

from __future__ import annotations

import asyncio
import json
import logging
import resource
import time
from typing import Any, ClassVar

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from accountdesk.contract import SANDBOX_CODES

__all__ = [
    "DEFAULT_MAX_CONNECTIONS",
    "KEEP_ALIVE",
    "MAX_HEADER_BYTES",
    "REQUEST_TIMEOUT",
    "GuardedH11Protocol",
    "default_max_connections",
    "guarded_protocol",
    "server_options",
]

log = logging.getLogger("accountdesk.sandbox")

#: Seconds a connection has to deliver a whole request (every request the
#: contract has is a few hundred bytes).
REQUEST_TIMEOUT = 10.0
#: Seconds an idle kept-alive connection stays open between requests (uvicorn's default).
KEEP_ALIVE = 5
#: Request line and headers, at most (h11's default, named here).
MAX_HEADER_BYTES = 16 * 1024
#: Connections held at once, at most: a training room of 50 dashboards holds
#: a few each (polls run 8 at a time).
DEFAULT_MAX_CONNECTIONS = 512
#: Descriptors kept for everything else the process opens (logs, the listening socket...).
_SPARE_DESCRIPTORS = 64
#: Seconds between two warnings about refused connections.
_WARN_EVERY = 10.0


def default_max_connections() -> int:
    """:data:`DEFAULT_MAX_CONNECTIONS`, or fewer when the process may open fewer descriptors."""
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return DEFAULT_MAX_CONNECTIONS
    return max(1, min(DEFAULT_MAX_CONNECTIONS, soft - _SPARE_DESCRIPTORS))


def _refusal() -> bytes:
    spec = SANDBOX_CODES["AC-953"]
    body = json.dumps(spec.body_for()).encode()
    head = (
        f"HTTP/1.1 {spec.status} Service Unavailable\r\n"
        "content-type: application/json\r\n"
        f"content-length: {len(body)}\r\n"
        "retry-after: 1\r\n"
        "connection: close\r\n\r\n"
    )
    return head.encode() + body


class _Tally:
    """Events counted and logged at most once per :data:`_WARN_EVERY` seconds.

    A flood of idle connections must not become a flood of log lines.
    """

    def __init__(self, level: int, what: str) -> None:
        self.level = level
        self.what = what
        self.count = 0
        self.logged_at = -_WARN_EVERY

    def add(self, detail: str) -> None:
        self.count += 1
        now = time.monotonic()
        if now - self.logged_at >= _WARN_EVERY:
            log.log(
                self.level,
                "%s %d connection(s) since the last such line: %s",
                self.what,
                self.count,
                detail,
            )
            self.count, self.logged_at = 0, now


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a request time-out and a connection cap (module docstring)."""

    request_timeout: ClassVar[float] = REQUEST_TIMEOUT
    max_connections: ClassVar[int] = DEFAULT_MAX_CONNECTIONS
    #: Shared by every connection of a server's class (see :func:`guarded_protocol`).
    _refused: ClassVar[_Tally] = _Tally(logging.WARNING, "refused")
    _timed_out: ClassVar[_Tally] = _Tally(logging.INFO, "closed")

    _request_deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if len(self.connections) > self.max_connections:
            self._refuse()
            return
        self._expect_request()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.transport.is_closing():
            return
        if self.conn.their_state is h11.DONE:
            self._request_arrived()  # the whole request is here: the app's time is not bounded
        else:
            self._expect_request()  # a request begun after the last answer: its clock starts

    def connection_lost(self, exc: Exception | None) -> None:
        self._request_arrived()
        super().connection_lost(exc)

    def _expect_request(self) -> None:
        if self._request_deadline is None:
            self._request_deadline = self.loop.call_later(self.request_timeout, self._too_slow)

    def _request_arrived(self) -> None:
        if self._request_deadline is not None:
            self._request_deadline.cancel()
            self._request_deadline = None

    def _too_slow(self) -> None:
        self._request_deadline = None
        if self.conn.their_state is h11.DONE or self.transport.is_closing():
            return
        self._timed_out.add(f"no whole request within {self.request_timeout:g} s")
        self.transport.close()

    def _refuse(self) -> None:
        # Best effort: a client that had already sent its request may see a
        # reset rather than this answer (its data is unread when we close).
        self.transport.write(_refusal())
        self.transport.close()
        held = len(self.connections) - 1
        self._refused.add(f"{held} are open, the most this sandbox holds (--max-connections)")


def guarded_protocol(
    *, request_timeout: float = REQUEST_TIMEOUT, max_connections: int | None = None
) -> type[GuardedH11Protocol]:
    """A protocol class for ``uvicorn.Config(http=...)`` with these bounds."""
    if not request_timeout > 0:
        raise ValueError("the request time-out must be more than 0 seconds")
    limit = default_max_connections() if max_connections is None else max_connections
    if limit < 1:
        raise ValueError("max connections must be 1 or more")
    return type(
        "SandboxProtocol",
        (GuardedH11Protocol,),
        {
            "request_timeout": request_timeout,
            "max_connections": limit,
            "_refused": _Tally(logging.WARNING, "refused"),
            "_timed_out": _Tally(logging.INFO, "closed"),
        },
    )


def server_options(
    host: str,
    port: int,
    *,
    request_timeout: float = REQUEST_TIMEOUT,
    max_connections: int | None = None,
) -> dict[str, Any]:
    """How ``accountdesk sandbox`` runs uvicorn: ``uvicorn.run(app, **server_options(...))``.

    The same keywords make a ``uvicorn.Config`` (the loopback tests serve with them).
    """
    protocol = guarded_protocol(request_timeout=request_timeout, max_connections=max_connections)
    return {
        "host": host,
        "port": port,
        "http": protocol,
        "timeout_keep_alive": KEEP_ALIVE,
        "h11_max_incomplete_event_size": MAX_HEADER_BYTES,
    }
