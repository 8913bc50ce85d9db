"""``GET /accounts/{user_id}/transactions`` read as a stream of checked batches.

The whole read (:meth:`AccountDataClient.get_transaction_columns`) waits for
the last byte before the first row; this one hands out rows as they arrive
(:mod:`._column_stream` cuts and checks them), so a table can show the
first page of a million rows while the rest is still on the wire.

The same bounds as the whole read: the answer's status and error envelope
are read the same way (token renewal, retries before the body starts), the
body is refused past ``max_response_bytes`` and must arrive within the
call's deadline; a bad row raises :class:`MalformedResponseError` naming it.
What differs is what an interruption leaves: every batch before it was
handed out and is good, and :class:`StreamInterruptedError` (or, at the
size cap, :class:`StreamTooLargeError`) says after how many rows it stopped.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import httpx

from ._column_stream import BrokenBodyError, ColumnStream
from ._columns import TransactionColumns
from ._redact import SecretRegistry, excerpt, redact
from ._responses import raise_for_error
from ._sanitise import service_text
from ._session import Session
from ._wire import (
    OpenAnswer,
    StreamTooLargeError,
    too_large,
    too_large_declared,
    too_large_problem,
)
from .errors import MalformedResponseError, StreamInterruptedError

__all__ = ["stream_columns"]


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
    limit = session.max_response_bytes
    stream = ColumnStream()

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
                failure = ("network", f"the answer stopped ({type(exc).__name__}: {text})")
            if failure is not None:
                # Every whole row that arrived is handed out; the error says where it stopped.
                for batch in await asyncio.to_thread(stream.feed, b"", force=True):
                    yield batch
                raise stopped(*failure)
            if stream.received + len(chunk) > limit:
                # As for a drop: every whole row within the cap is handed out.
                within = chunk[: limit - stream.received]
                for batch in await asyncio.to_thread(stream.feed, within, force=True):
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
            for batch in await asyncio.to_thread(stream.feed, chunk):
                yield batch
        for batch in await asyncio.to_thread(stream.finish):
            yield batch
    except BrokenBodyError as exc:
        for batch in exc.batches:
            yield batch
        where = f"transactions.{exc.where}" if exc.where != "body" else "transactions"
        kept = f"; the {stream.rows:,} rows before it are kept" if stream.rows else ""
        raise MalformedResponseError(
            response.status_code,
            excerpt(stream.near(), registry),
            problem=f"not a Transactions record ({where}: {exc.problem}){kept}",
            method=method,
            path=path,
        ) from None
    finally:
        await response.aclose()
