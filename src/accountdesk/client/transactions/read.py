"""``GET /accounts/{user_id}/transactions`` read as a stream of checked batches.

The one read of a list as columns: rows are handed out as they arrive
(:mod:`.stream` cuts and checks them), so a table can show the first page of
a million rows while the rest is still on the wire; a list wanted whole is
the batches collected.

The same bounds as every call: the answer's status and error envelope are
read as :mod:`accountdesk.client._responses` reads them (token renewal,
retries before the body starts), the body is refused past
``max_response_bytes`` and must arrive within the call's deadline; a bad row
raises :class:`MalformedResponseError` naming it.
A streamed read also stops past ``max_response_rows`` (the rows before it
handed out), which bounds the memory its rows take (:mod:`._bounds`).
What differs is what an interruption leaves: every batch before it was
handed out and is good, and :class:`StreamInterruptedError` (or, at the
size cap, :class:`StreamTooLargeError`) says after how many rows it stopped.

The records read (:meth:`AccountDataClient.get_transactions`, models for a
short list) is held to the stream's rules for the body's top level
(:func:`check_transactions_body`): one rule on every path.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator

import httpx

from accountdesk.client._redact import SecretRegistry, excerpt, redact
from accountdesk.client._responses import (
    AnswerLike,
    api_error,
    raise_for_error,
)
from accountdesk.client._sanitise import service_text
from accountdesk.client._session import Session
from accountdesk.client._wire import (
    OpenAnswer,
    StreamTooLargeError,
    too_large,
    too_large_declared,
    too_large_problem,
)
from accountdesk.client.errors import (
    AccountDataError,
    MalformedResponseError,
    StreamInterruptedError,
)
from accountdesk.client.transactions.fill import TransactionColumns
from accountdesk.client.transactions.stream import BrokenBodyError, ColumnStream, ErrorEnvelope

__all__ = ["check_transactions_body", "stream_columns"]


async def stream_columns(
    session: Session, path: str, registry: SecretRegistry
) -> AsyncIterator[TransactionColumns]:
    """The batches of the transactions read at ``path`` (see the module docstring)."""
    method = "GET"
    deadline = session.deadline()
    answer = await session.send(method, path, deadline=deadline, keep_open=True)
    raise_for_error(answer, method, path, registry)
    assert isinstance(answer, OpenAnswer)  # a 2xx is kept open
    response = answer.response
    limit, most = session.max_response_bytes, session.max_response_rows
    stream = ColumnStream()
    handed = 0

    def bounded(batches: list[TransactionColumns]) -> Iterator[TransactionColumns]:
        """``batches`` up to the row bound, then the error that stops the read there."""
        nonlocal handed
        for batch in batches:
            room = most - handed
            if len(batch) > room:
                if room:
                    handed += room
                    yield _head(batch, room)
                problem = f"the answer has more rows than the client's max_response_rows ({most:,})"
                raise StreamTooLargeError(
                    response.status_code,
                    problem,
                    rows=handed,
                    received=stream.received,
                    method=method,
                    path=path,
                )
            handed += len(batch)
            yield batch

    def stopped(reason: str, why: str) -> StreamInterruptedError:
        return StreamInterruptedError(
            reason,
            f"{method} {path}: {why} after {stream.rows:,} rows ({stream.received:,} bytes);"
            " the rows before are kept",
            rows=stream.rows,
            received=stream.received,
            method=method,
            path=path,
        )

    try:
        if too_large_declared(response, limit):
            raise too_large(response.status_code, limit, lambda: (method, path))
        chunks = response.aiter_bytes()
        while True:
            failure: tuple[str, str] | None = None
            try:
                async with asyncio.timeout(max(deadline.remaining(), 0.001)):
                    chunk = await anext(chunks)
            except StopAsyncIteration:
                break
            except TimeoutError:
                failure = ("timeout", f"the answer was not complete within {deadline.total:g} s")
            except httpx.HTTPError as exc:
                # httpx's text may quote server bytes: redacted, inert, short.
                text = service_text(redact(str(exc).strip(), registries=[registry]), 300)
                said = f"{type(exc).__name__}: {text}" if text else type(exc).__name__
                failure = ("network", f"the answer stopped ({said})")
            if failure is not None:
                # Every whole row that arrived is handed out; the error says where it stopped.
                for batch in bounded(await asyncio.to_thread(stream.feed, b"", force=True)):
                    yield batch
                raise stopped(*failure)
            if stream.received + len(chunk) > limit:
                # As for a drop: every whole row within the cap is handed out.
                within = chunk[: limit - stream.received]
                for batch in bounded(await asyncio.to_thread(stream.feed, within, force=True)):
                    yield batch
                raise StreamTooLargeError(
                    response.status_code,
                    too_large_problem(limit),
                    rows=stream.rows,
                    received=stream.received,
                    method=method,
                    path=path,
                )
            if stream.buffered + len(chunk) < stream.wants:
                stream.keep(chunk)  # nothing to parse yet: kept on the loop
                continue
            # Every parse in a worker thread: a hostile body can make any one
            # of them slow, and the loop draws the UI.
            for batch in bounded(await asyncio.to_thread(stream.feed, chunk)):
                yield batch
        for batch in bounded(await asyncio.to_thread(stream.finish)):
            yield batch
    except BrokenBodyError as exc:
        for batch in bounded(exc.batches):
            yield batch
        raise _refusal(exc, response, stream.near(), stream.rows, method, path, registry) from None
    finally:
        await response.aclose()


def _head(batch: TransactionColumns, count: int) -> TransactionColumns:
    """The first ``count`` rows of ``batch`` (its columns sliced, as lists)."""
    return TransactionColumns(
        user_id=batch.user_id,
        currency=batch.currency,
        transaction_ids=list(batch.transaction_ids[:count]),
        dates=list(batch.dates[:count]),
        amounts=list(batch.amounts[:count]),
        descriptions=list(batch.descriptions[:count]),
        categories=list(batch.categories[:count]),
        pending=list(batch.pending[:count]),
    )


def check_transactions_body(
    answer: AnswerLike, method: str, path: str, registry: SecretRegistry
) -> None:
    """Hold a transactions body read whole to the stream's rules for its top level.

    One rule on every read path: ``transactions`` present (an answer
    without it is not an empty list) and sent once, an ``error`` member
    that is the service's error envelope raised as that error. The rows
    are stepped over here, not read again (the whole read reads them). Run
    it once the body has parsed: a parse error says more.
    """
    stream = ColumnStream(rows=False)
    try:
        stream.feed(answer.content)
        stream.finish()
    except BrokenBodyError as exc:
        raise _refusal(exc, answer, answer.content, 0, method, path, registry) from None


def _refusal(
    exc: BrokenBodyError,
    answer: AnswerLike | httpx.Response,
    near: bytes,
    rows: int,
    method: str,
    path: str,
    registry: SecretRegistry,
) -> AccountDataError:
    """The error of a body the stream refused (``rows``: handed out before it)."""
    if isinstance(exc.error, ErrorEnvelope):
        envelope = exc.error.envelope
        return api_error(answer.status_code, answer.headers, envelope, method, path, registry)
    where = f"transactions.{exc.where}" if exc.where != "body" else "transactions"
    kept = f"; the {rows:,} rows before it are kept" if rows else ""
    return MalformedResponseError(
        answer.status_code,
        excerpt(near, registry),
        problem=f"not a Transactions record ({where}: {exc.problem}){kept}",
        method=method,
        path=path,
    )
