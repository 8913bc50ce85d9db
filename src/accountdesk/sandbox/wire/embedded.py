"""The embedded sandbox as an httpx transport that runs off the caller's event loop.

``httpx.ASGITransport`` runs the app on the caller's loop: in the dashboard
that is the UI's loop, and the first read of ``user_bulk`` (the engine
building and serialising 14 MB) froze the screen for over a second.
:class:`EmbeddedTransport` runs the same app on an event loop of its own, in a
daemon thread; the caller's loop only awaits a future. Otherwise it behaves
like ``ASGITransport`` (same scope, same exceptions), so a test suite can
swap one for the other, but for one thing: an answer's body is relayed as
the app sends it (``ASGITransport`` waits for the end), so a streamed answer
is read while the sandbox is still writing it.

The only sandbox module that imports httpx: the engine knows nothing of HTTP.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import threading
from collections.abc import AsyncIterator, MutableMapping
from typing import Any

import httpx

__all__ = ["ANSWER_WINDOW", "EmbeddedTransport"]

#: Body bytes the sandbox may send ahead of the caller's reading (a socket's buffers, roughly).
ANSWER_WINDOW = 512 * 1024
#: Pieces already relayed are read as one chunk until it is this big.
JOINED = 1024 * 1024

_ASGIApp = Any


class EmbeddedTransport(httpx.AsyncBaseTransport):
    """An in-process transport to an ASGI app served on its own thread and loop.

    The thread starts with the first request and stops on :meth:`aclose`; a
    request after that starts it again (the app, and with it the sandbox's
    state, is kept), because an ``httpx.AsyncClient`` closes its transport on
    exit and the dashboard hands one transport to one client after another,
    as it can with ``ASGITransport``.

    Arguments are those of ``httpx.ASGITransport``. A request body is pulled
    chunk by chunk, as the app reads it, from the caller's loop (an async
    body stream belongs to that loop), so the sandbox's body limit stops a
    huge body early here too; an answer's body comes the same way back, piece
    by piece as the app sends it.
    """

    def __init__(
        self,
        app: _ASGIApp,
        raise_app_exceptions: bool = True,
        root_path: str = "",
        client: tuple[str, int] = ("127.0.0.1", 123),
    ) -> None:
        self.app = app
        self.raise_app_exceptions = raise_app_exceptions
        self.root_path = root_path
        self.client = client
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None

    @property
    def thread(self) -> threading.Thread | None:
        """The thread serving the app, while one runs."""
        return self._thread

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        """Hand ``request`` to the sandbox's loop; the answer once its headers are sent."""
        stream = request.stream
        if not isinstance(stream, httpx.ByteStream):  # bytes in memory cross as they are
            assert isinstance(stream, httpx.AsyncByteStream)
            stream = _RelayedStream(stream.__aiter__(), asyncio.get_running_loop())
        inner = httpx.Request(
            request.method,
            request.url,
            headers=request.headers,
            stream=stream,
            extensions=request.extensions,
        )
        relay = _Relay(asyncio.get_running_loop())
        loop = self._running_loop()
        future = asyncio.run_coroutine_threadsafe(self._serve(inner, relay), loop)
        try:
            item = await relay.get()
        except asyncio.CancelledError:
            # Passed on to the sandbox's task, so an abandoned request does not run on.
            future.cancel()
            raise
        if item[0] == "error":
            raise item[1]
        if item[0] != "start":
            # Not our cancellation: the transport was closed under the request.
            raise httpx.ReadError("the embedded sandbox was closed", request=request)
        return httpx.Response(item[1], headers=item[2], stream=_AnswerBody(relay, future, request))

    async def _serve(self, request: httpx.Request, relay: _Relay) -> None:
        """Run the app on the sandbox's loop, relaying its answer as it is sent.

        ``httpx.ASGITransport``'s scope and rules, but each body message
        crosses to the caller as it is sent rather than all at the end: a
        streamed answer (user_bulk's transactions) is read while it is built.
        """
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": request.method,
            "headers": [(k.lower(), v) for (k, v) in request.headers.raw],
            "scheme": request.url.scheme,
            "path": request.url.path,
            "raw_path": request.url.raw_path.split(b"?")[0],
            "query_string": request.url.query,
            "server": (request.url.host, request.url.port),
            "client": self.client,
            "root_path": self.root_path,
        }
        assert isinstance(request.stream, httpx.AsyncByteStream)
        body = request.stream.__aiter__()
        request_complete = False
        started = False
        over = asyncio.Event()  # the answer is sent, or the caller is gone
        loop = asyncio.get_running_loop()
        relay.serving(loop, over)

        async def receive() -> dict[str, Any]:
            nonlocal request_complete
            if request_complete:
                await over.wait()
                return {"type": "http.disconnect"}
            try:
                chunk = await anext(body)
            except StopAsyncIteration:
                request_complete = True
                return {"type": "http.request", "body": b"", "more_body": False}
            return {"type": "http.request", "body": chunk, "more_body": True}

        async def send(message: MutableMapping[str, Any]) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                relay.put(("start", message["status"], message.get("headers", [])))
            elif message["type"] == "http.response.body" and not over.is_set():
                chunk = message.get("body", b"")
                if chunk and request.method != "HEAD":
                    relay.put(("body", chunk))
                    await relay.room()
                if not message.get("more_body", False):
                    over.set()
                    relay.put(("end",))

        try:
            await self.app(scope, receive, send)
        except asyncio.CancelledError:
            relay.put(("closed",))
            raise
        except Exception as exc:  # noqa: BLE001 (relayed: raised or answered as ASGITransport does)
            if started:  # the caller has the headers: as a server would, drop the answer
                relay.put(("dropped",))
            elif self.raise_app_exceptions:
                relay.put(("error", exc))
            else:
                relay.put(("start", 500, []))
                relay.put(("end",))
        else:
            if not started:
                relay.put(("closed",))
            elif not over.is_set():
                relay.put(("end",))

    def _running_loop(self) -> asyncio.AbstractEventLoop:
        with self._lock:
            if self._loop is None:
                loop = asyncio.new_event_loop()
                thread = threading.Thread(
                    target=_run_forever, args=(loop,), name="accountdesk-sandbox", daemon=True
                )
                thread.start()
                self._loop, self._thread = loop, thread
            return self._loop

    async def aclose(self) -> None:
        """Stop the sandbox's thread (requests still running there fail)."""
        with self._lock:
            loop, thread = self._loop, self._thread
            self._loop = self._thread = None
        if loop is None or thread is None:
            return
        loop.call_soon_threadsafe(loop.stop)
        # Joined from a worker thread: a handler still busy in the sandbox
        # must not hold the caller's loop while it finishes.
        await asyncio.to_thread(thread.join)


class _Relay:
    """The answer's messages, from the sandbox's thread to the caller's loop, in order.

    At most :data:`ANSWER_WINDOW` bytes of body sent and not yet read, as a
    socket's buffers would hold: past it the sandbox's ``send`` waits for
    the caller to read (:meth:`room`). Without it a big answer's pieces
    were sent as fast as they were built, and the build (pure Python, in a
    thread of the app's process) took GIL turns from the loop painting the
    first rows; now it waits for the reader (``records._Body``).
    """

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._queue: asyncio.Queue[tuple[Any, ...]] = asyncio.Queue()
        self._lock = threading.Lock()
        self._unread = 0
        self._waiting = False
        self._sandbox_loop: asyncio.AbstractEventLoop | None = None
        self._over: asyncio.Event | None = None
        self._room: asyncio.Event | None = None

    def serving(self, loop: asyncio.AbstractEventLoop, over: asyncio.Event) -> None:
        """On the sandbox's loop: ``over`` is set once the caller is gone."""
        self._sandbox_loop, self._over, self._room = loop, over, asyncio.Event()

    def put(self, item: tuple[Any, ...]) -> None:
        """From the sandbox's thread."""
        if item[0] == "body":
            with self._lock:
                self._unread += len(item[1])
        with contextlib.suppress(RuntimeError):  # the caller's loop is closed: nobody reads
            self._loop.call_soon_threadsafe(self._queue.put_nowait, item)

    async def room(self) -> None:
        """On the sandbox's loop: wait while the caller has more than the window unread."""
        assert self._room is not None and self._over is not None
        while not self._over.is_set():
            with self._lock:
                if self._unread <= ANSWER_WINDOW:
                    self._waiting = False
                    return
                self._waiting = True
                self._room.clear()
            # A ``took`` after the check sets the event after this clear (same loop).
            await self._room.wait()

    def took(self, size: int) -> None:
        """On the caller's loop: ``size`` bytes of body were read."""
        with self._lock:
            self._unread -= size
            wake = self._waiting and self._unread <= ANSWER_WINDOW
            if wake:
                self._waiting = False
        if wake:
            self._wake()

    async def get(self) -> tuple[Any, ...]:
        return await self._queue.get()

    def joined(self, first: bytes) -> tuple[bytes, tuple[Any, ...] | None]:
        """``first`` and the body pieces queued after it (until :data:`JOINED` is reached),
        and the item that stopped the join (None: the queue ran empty)."""
        pieces, size = [first], len(first)
        while size < JOINED and not self._queue.empty():
            item = self._queue.get_nowait()
            if item[0] != "body":
                return b"".join(pieces), item
            pieces.append(item[1])
            size += len(item[1])
        return (first if len(pieces) == 1 else b"".join(pieces)), None

    def close(self) -> None:
        """The caller is gone: the sandbox stops sending (and waiting for room)."""
        self._wake(over=True)

    def _wake(self, *, over: bool = False) -> None:
        loop, room, done = self._sandbox_loop, self._room, self._over
        if loop is None or room is None or done is None:
            return

        def wake() -> None:
            if over:
                done.set()
            room.set()

        with contextlib.suppress(RuntimeError):  # the sandbox's loop is stopped
            loop.call_soon_threadsafe(wake)


class _AnswerBody(httpx.AsyncByteStream):
    """The body of an answer, each piece as the sandbox sends it."""

    def __init__(
        self, relay: _Relay, future: concurrent.futures.Future[None], request: httpx.Request
    ) -> None:
        self._relay = relay
        self._future = future
        self._request = request

    async def __aiter__(self) -> AsyncIterator[bytes]:
        while True:
            item = await self._relay.get()
            if item[0] == "body":
                # The pieces already here, as one chunk (a socket's read would join them too).
                chunk, stopped = self._relay.joined(item[1])
                self._relay.took(len(chunk))
                yield chunk
                if stopped is None:
                    continue
                item = stopped
            if item[0] == "end":
                return
            else:  # dropped or closed: as a connection dropped by a server
                raise httpx.ReadError(
                    "the embedded sandbox stopped in the middle of the answer",
                    request=self._request,
                )

    async def aclose(self) -> None:
        # Read to the end or not, the sandbox may stop sending.
        self._relay.close()


class _RelayedStream(httpx.AsyncByteStream):
    """A caller's body stream, read from the sandbox's loop one chunk at a time."""

    def __init__(self, source: AsyncIterator[bytes], loop: asyncio.AbstractEventLoop) -> None:
        self._source = source
        self._loop = loop

    async def __aiter__(self) -> AsyncIterator[bytes]:
        while True:
            # The caller's loop is free (it awaits the answer), so it can pull.
            pulled = asyncio.run_coroutine_threadsafe(_next_chunk(self._source), self._loop)
            chunk = await asyncio.wrap_future(pulled)
            if chunk is None:
                return
            yield chunk


async def _next_chunk(source: AsyncIterator[bytes]) -> bytes | None:
    try:
        return await anext(source)
    except StopAsyncIteration:
        return None


def _run_forever(loop: asyncio.AbstractEventLoop) -> None:
    asyncio.set_event_loop(loop)
    try:
        loop.run_forever()
    finally:
        # Cancel what was left (the callers see it as a closed transport),
        # let the cancellations run, then close the loop.
        pending = asyncio.all_tasks(loop)
        for task in pending:
            task.cancel()
        if pending:
            loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
        loop.run_until_complete(loop.shutdown_asyncgens())
        loop.close()
