"""A read held for a key's answer appends nothing until released, then reads on."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest
from test_transaction_growth import _columns

from accountdesk.core.transactions.read import TransactionRead

pytestmark = pytest.mark.anyio


class Batches:
    """A client whose transactions answer is three batches, each pulled on demand."""

    def __init__(self) -> None:
        self.pulled = 0

    async def stream_transaction_columns(self, user_id: str) -> AsyncIterator[Any]:
        for start in (0, 10, 20):
            self.pulled += 1
            yield _columns(start, 10)


async def turns(count: int = 20) -> None:
    for _ in range(count):
        await asyncio.sleep(0)


async def test_a_held_read_pulls_and_appends_nothing_until_released() -> None:
    client = Batches()
    read = TransactionRead(client, "u1")  # type: ignore[arg-type]
    read.hold(60)  # (a key pressed as the first batch came)
    await turns()
    held_at = (client.pulled, read.batches, len(read.data))
    assert read.held and held_at == (1, 1, 10) and not read.done
    await turns()
    assert (client.pulled, read.batches, len(read.data)) == held_at  # nothing while held
    read.release()
    await turns()
    assert read.done and read.data.complete and len(read.data) == 30 and not read.held


async def test_a_hold_ends_by_itself_and_a_finished_read_is_never_held() -> None:
    read = TransactionRead(Batches(), "u1")  # type: ignore[arg-type]
    read.hold(0)  # (at most no time: released at the loop's next turn)
    await turns()
    assert read.done and len(read.data) == 30 and not read.held
    read.hold(60)
    assert not read.held


class AbsorbsACancel:
    """One batch, then a cancellation of the read's task it absorbs (as a timeout
    inside the client does: it cancels the task and undoes it), then ``rest``."""

    def __init__(self) -> None:
        self.rest = asyncio.Event()

    async def stream_transaction_columns(self, user_id: str) -> AsyncIterator[Any]:
        yield _columns(0, 10)
        while True:
            try:
                await self.rest.wait()
                break
            except asyncio.CancelledError:
                task = asyncio.current_task()
                assert task is not None
                task.uncancel()
        yield _columns(10, 10)


async def test_a_cancellation_the_read_absorbs_does_not_stop_its_follower() -> None:
    """The screen's follower gave up when it looked during such a moment: no rows shown."""
    client = AbsorbsACancel()
    read = TransactionRead(client, "u1")  # type: ignore[arg-type]
    updates = read.updates()
    try:
        first = await anext(updates)
        assert len(first) == 10
        await turns()  # the read waits in the client for the rest
        read._task.cancel()  # what the timeout does, from a callback of the loop
        assert not read.cancelled  # nobody stopped it
        following = asyncio.ensure_future(anext(updates))
        await turns()
        client.rest.set()
        second = await asyncio.wait_for(following, 5)
        assert len(second) == 20
        await turns()
        assert read.done and read.data.complete and not read.cancelled
    finally:
        client.rest.set()  # (a failure above leaves no read waiting)
        await updates.aclose()


async def test_a_read_stopped_by_cancel_is_cancelled_at_once() -> None:
    read = TransactionRead(Batches(), "u1")  # type: ignore[arg-type]
    read.hold(60)
    await turns()
    read.cancel()
    assert read.cancelled  # before its task has even seen it
    await turns()
    assert read.done and isinstance(read.error, asyncio.CancelledError)
