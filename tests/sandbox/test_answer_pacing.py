"""A big answer is built and sent only a little ahead of its reader (embedded: one GIL)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import subprocess
import sys
import threading
from collections.abc import Iterator

import httpx
import pytest

from accountdesk.sandbox import records
from accountdesk.sandbox.wire import embedded


class _SpyCondition:
    """The body's condition, telling the test when the build waits for its reader."""

    def __init__(self, inner: threading.Condition, waited: threading.Event) -> None:
        self._inner = inner
        self._waited = waited

    def __enter__(self) -> bool:
        return self._inner.__enter__()

    def __exit__(self, *exc: object) -> None:
        self._inner.__exit__(*exc)

    def wait(self, timeout: float | None = None) -> bool:
        self._waited.set()
        return self._inner.wait(timeout)

    def notify_all(self) -> None:
        self._inner.notify_all()


def test_the_build_waits_a_few_pieces_ahead_of_a_reader_then_goes_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(records, "READER_PATIENCE", 30.0, raising=False)
    go = threading.Event()
    pieces = [f"piece {n};".encode() for n in range(40)]

    def build() -> Iterator[bytes]:
        yield pieces[0]
        assert go.wait(30)  # the rest once the test is ready to watch
        yield from pieces[1:]

    body = records._Body(build())
    waited = threading.Event()
    body._grown = _SpyCondition(body._grown, waited)  # type: ignore[assignment]
    taken = body.after(0, wait=False)  # a reader takes the first piece
    assert taken == pieces[:1]
    go.set()
    assert waited.wait(10), "the build never waited for its reader"
    with body._grown:
        ahead = len(body._pieces) - 1
    assert ahead == records.LEAD_PIECES
    # The reader reads on: the build follows it to the end, every byte in order.
    rest = list(body.pieces())
    assert rest == pieces


def test_a_reader_that_stops_reading_does_not_stop_the_build(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(records, "READER_PATIENCE", 0.01)
    body = records._Body(iter([b"x"] * 30))
    body.after(0, wait=False)  # one take, then nothing
    with body._grown:
        assert body._grown.wait_for(lambda: body._done, timeout=10)
    assert len(body._pieces) == 30


def _serving_relay() -> tuple[embedded._Relay, asyncio.Event]:
    """A relay as the sandbox serves an answer through it, caller and sandbox on this loop."""
    loop = asyncio.get_running_loop()
    relay, over = embedded._Relay(loop), asyncio.Event()
    relay.serving(loop, over)
    return relay, over


@pytest.mark.anyio
async def test_the_sandbox_sends_no_more_than_a_window_ahead_of_the_caller() -> None:
    relay, _over = _serving_relay()
    relay.put(("body", b"x" * (embedded.ANSWER_WINDOW + 1)))
    waiting = asyncio.create_task(relay.room())
    for _ in range(10):
        await asyncio.sleep(0)
    assert not waiting.done()  # over the window: the sandbox's send waits
    assert (await relay.get())[0] == "body"
    relay.took(embedded.ANSWER_WINDOW + 1)  # the caller read it
    await asyncio.wait_for(waiting, 5)
    relay.put(("body", b"y" * embedded.ANSWER_WINDOW))
    await asyncio.wait_for(relay.room(), 5)  # within the window: no wait


@pytest.mark.anyio
async def test_a_caller_gone_ends_the_sandboxs_wait_for_room() -> None:
    relay, over = _serving_relay()
    relay.put(("body", b"x" * (embedded.ANSWER_WINDOW * 2)))
    waiting = asyncio.create_task(relay.room())
    await asyncio.sleep(0)
    relay.close()  # never read, closed (the response's aclose)
    await asyncio.wait_for(waiting, 5)
    assert over.is_set()


@pytest.mark.anyio
async def test_the_pieces_already_relayed_are_read_as_one_chunk_in_order() -> None:
    # Each chunk read is a hop to the parse's thread: ~100 pieces of 140 KB
    # made ~100 hops. Pieces waiting are joined (up to JOINED), as a
    # socket's read would; what arrives later is read as it comes.
    relay, _over = _serving_relay()
    request = httpx.Request("GET", "http://sandbox/x")
    body = embedded._AnswerBody(relay, concurrent.futures.Future(), request)
    piece = embedded.JOINED // 2
    pieces = [bytes([65 + n]) * piece for n in range(5)]
    for data in pieces:
        relay.put(("body", data))
    relay.put(("end",))
    for _ in range(10):
        await asyncio.sleep(0)  # the puts reach the queue
    chunks = [chunk async for chunk in body]
    assert b"".join(chunks) == b"".join(pieces)
    assert [len(chunk) for chunk in chunks] == [2 * piece, 2 * piece, piece]  # JOINED a read
    assert relay._unread == 0  # every byte counted as read: the window is free


def test_the_embedded_sandbox_is_built_with_what_its_first_streamed_answer_imports() -> None:
    # Imported on the sandbox's thread at the first ``x``, beside the build of
    # user_bulk's answer, those ~20 modules took ~0.5 s of it.
    code = (
        "import sys; from accountdesk.sandbox import embedded_transport; "
        "embedded_transport(); print('anyio._backends._asyncio' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "True"
