"""A read held for a key's answer appends nothing until released, then reads on."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest
from test_transaction_growth import _columns

from accountdesk.core.transaction_read import TransactionRead

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
