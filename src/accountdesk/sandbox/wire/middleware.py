"""The sandbox's one ASGI middleware: raw-path routing, body limit, crash envelope.

One layer rather than three: each layer is a call, a scope copy and a send
wrapper on every request, and the sandbox must stay within 1.3x of a bare
Starlette route (``python -m benchmarks --only sandbox_throughput``).

Why route on the raw path: servers hand Starlette a *decoded* ``path``, so
``/accounts/..%2Fx/balance`` would arrive as ``/accounts/../x/balance`` and an
encoded slash would split a user id into two segments. :class:`SandboxGuard`
rebuilds ``path`` from ``raw_path`` one segment at a time and keeps ``%``,
``/`` and newlines inside a segment percent-encoded, so every segment stays in
its place; handlers read their parameters back through :func:`segment_value`.

Why cap bodies while reading them: the sandbox read any body whole before
looking at it (a 100 MB body took 356 MB). :class:`SandboxGuard` refuses a
declared length over :data:`MAX_BODY_BYTES` before reading a byte, and stops
a body without a length (chunked) as soon as it passes the limit: 413
``AC-913``, with ``Connection: close`` so the server drops the rest.

No web-framework imports here: this is plain ASGI.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import unquote, unquote_to_bytes

from accountdesk.contract import SANDBOX_CODES

__all__ = [
    "MAX_BODY_BYTES",
    "SandboxGuard",
    "routing_path",
    "segment_value",
    "send_envelope",
]

log = logging.getLogger("accountdesk.sandbox")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: The largest request body the sandbox reads (every body it takes is tiny).
MAX_BODY_BYTES = 64 * 1024

#: Stands for an empty segment under ``/accounts/`` so that ``/accounts//balance``
#: still reaches the balance route and answers AC-100 for the blank user id.
#: Unambiguous: :func:`_encode` turns every literal ``%`` into ``%25``.
EMPTY_SEGMENT = "%00"


async def send_envelope(
    send: Send, code: str, headers: tuple[tuple[bytes, bytes], ...] = ()
) -> None:
    """Answer one of the sandbox's own codes (the catalogue builds the body)."""
    spec = SANDBOX_CODES[code]
    body = json.dumps(spec.body_for()).encode()
    await send(
        {
            "type": "http.response.start",
            "status": spec.status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                *headers,
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


def _encode(segment: str) -> str:
    # "\n" too: a route pattern ends in "$", which also matches before a
    # final newline, so ".../balance%0A" would otherwise reach the balance route.
    return segment.replace("%", "%25").replace("/", "%2F").replace("\n", "%0A")


def routing_path(raw_path: bytes) -> str:
    """The path to route on: decoded per segment, ``%`` and ``/`` kept encoded."""
    segments = [
        unquote_to_bytes(part).decode("utf-8", errors="replace") for part in raw_path.split(b"/")
    ]
    under_accounts = len(segments) > 2 and segments[0] == "" and segments[1] == "accounts"
    rebuilt = [
        EMPTY_SEGMENT if under_accounts and index >= 2 and not segment else _encode(segment)
        for index, segment in enumerate(segments)
    ]
    return "/".join(rebuilt)


def segment_value(routed: str) -> str:
    """The true value of a path parameter matched on :func:`routing_path`'s path."""
    return "" if routed == EMPTY_SEGMENT else unquote(routed)


def _without_body(send: Send) -> Send:
    """``send`` for a HEAD request: the GET's status and headers, no body (RFC 9110 9.3.2).

    Servers drop it on the wire too (uvicorn does); done here so every way
    of reaching the app (the embedded transport, tests) answers alike.
    """

    async def send_head(message: Message) -> None:
        if message["type"] == "http.response.body":
            message = {**message, "body": b""}
        await send(message)

    return send_head


class _BodyTooLarge(Exception):
    """Raised from ``receive`` once a body passes the limit."""


_CLOSE = ((b"connection", b"close"),)


class SandboxGuard:
    """The outermost layer of the sandbox app (see module doc).

    - ``path`` is rebuilt from ``raw_path`` (:func:`routing_path`); without a
      ``raw_path`` (some servers omit it) or with a ``root_path`` the scope is
      left alone, as the sandbox is served at the root;
    - a body over ``limit`` bytes, declared or streamed: 413 ``AC-913``;
    - HEAD: the answer GET would get, without its body;
    - an unhandled exception: 500 ``AC-950``, the traceback logged. Starlette's
      own server-error middleware would answer plain text and re-raise.
    """

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY_BYTES) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if scope["method"] == "HEAD":
            send = _without_body(send)
        raw_path = scope.get("raw_path")
        if raw_path and not scope.get("root_path"):
            scope = dict(scope)
            scope["path"] = routing_path(bytes(raw_path).split(b"?", 1)[0])
        limit = self.limit
        for name, value in scope["headers"]:
            if name == b"content-length" and (not value.isdigit() or int(value) > limit):
                await send_envelope(send, "AC-913", _CLOSE)
                return
        received = 0
        started = False

        async def limited_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise _BodyTooLarge
            return message

        async def tracking_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, limited_receive, tracking_send)
        except _BodyTooLarge:
            if started:
                raise
            await send_envelope(send, "AC-913", _CLOSE)
        except Exception:
            # Method and path only: the Authorization header never reaches a log.
            log.exception("sandbox failed on %s %s", scope.get("method"), scope.get("path"))
            if started:
                raise  # too late for an envelope; let the server drop the connection
            await send_envelope(send, "AC-950")
