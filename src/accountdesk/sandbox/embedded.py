"""The embedded sandbox as an httpx transport that runs off the caller's event loop.

``httpx.ASGITransport`` runs the app on the caller's loop: in the dashboard
that is the UI's loop, and the first read of ``user_bulk`` (the engine
building and serialising 14 MB) froze the screen for over a second.
:class:`EmbeddedTransport` runs the same app on an event loop of its own, in a
daemon thread; the caller's loop only awaits a future. Otherwise it behaves
like ``ASGITransport`` (same scope, same buffering, same exceptions), so a
test suite can swap one for the other.

The only sandbox module that imports httpx: the engine knows nothing of HTTP.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
from collections.abc import AsyncIterator
from typing import Any

import httpx

__all__ = ["EmbeddedTransport"]

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
    huge body early here too; responses are read whole on the sandbox's
    side, as ``ASGITransport`` does.
    """

    def __init__(
        self,
        app: _ASGIApp,
        raise_app_exceptions: bool = True,
        root_path: str = "",
        client: tuple[str, int] = ("127.0.0.1", 123),
    ) -> None:
        self.app = app
        self._inner = httpx.ASGITransport(
            app, raise_app_exceptions=raise_app_exceptions, root_path=root_path, client=client
        )
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None

    @property
    def thread(self) -> threading.Thread | None:
        """The thread serving the app, while one runs."""
        return self._thread

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        """Hand ``request`` to the sandbox's loop and await its answer."""
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
        future = asyncio.run_coroutine_threadsafe(self._serve(inner), self._running_loop())
        try:
            # wrap_future passes a cancellation of the caller on to the
            # sandbox's task, so an abandoned request does not run on.
            status, headers, content = await asyncio.wrap_future(future)
        except (asyncio.CancelledError, concurrent.futures.CancelledError):
            task = asyncio.current_task()
            if task is not None and task.cancelling():
                raise
            # Not our cancellation: the transport was closed under the request.
            raise httpx.ReadError("the embedded sandbox was closed", request=request) from None
        return httpx.Response(status, headers=headers, stream=httpx.ByteStream(content))

    async def _serve(self, request: httpx.Request) -> tuple[int, list[tuple[bytes, bytes]], bytes]:
        # Runs on the sandbox's loop; only plain data crosses back.
        response = await self._inner.handle_async_request(request)
        content = await response.aread()
        return response.status_code, response.headers.raw, content

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
