"""One read of a user's transactions, started before the screen that shows it.

The read goes out on the key press that opens the transactions screen, not
once the screen is mounted (its first compose and CSS take a few hundred
milliseconds on a fresh app): the service has the request, and the first
batch may be decoded, by the time the screen can show it. The screen
attaches to the read when it is mounted and follows it with
:meth:`TransactionRead.updates`; a screen that goes away (Back, even before
it was mounted) cancels it, so nothing reads on for nobody.

A task of the caller's loop runs the read; no Textual here.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator, Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from accountdesk.client import AccountDataClient
    from accountdesk.core.transactions.data import TransactionData

__all__ = ["INLINE_ROWS", "TransactionRead"]

#: A batch of plain lists this small is appended on the loop (a thread hop costs more).
INLINE_ROWS = 2_000


class TransactionRead:
    """A streamed read of ``user_id``'s transactions, running in a task from construction.

    ``data`` holds the rows so far (None before the first batch), ``done``
    says the read ended (``error``: how, if it failed), ``data.complete``
    whether it read the whole list. ``finished(data)`` is called with the
    whole list once it has been read (the desk caches it there).
    """

    def __init__(
        self,
        client: AccountDataClient,
        user_id: str,
        finished: Callable[[TransactionData], None] | None = None,
    ) -> None:
        from accountdesk.core.transactions.data import TransactionData

        self.user_id = user_id
        self.data: TransactionData = TransactionData.streaming()
        #: Batches appended so far (``data`` holds their rows).
        self.batches = 0
        self.done = False
        self.error: BaseException | None = None
        self._finished = finished
        self._changed = asyncio.Event()
        # Held while a batch is appended and while a follower handles an
        # update (widths in a thread): the lists never grow under a reader.
        self._lock = asyncio.Lock()
        self._followed = False
        # Cleared while the UI holds the read (hold): no batch is read or appended.
        self._going = asyncio.Event()
        self._going.set()
        self._hold_ends: asyncio.TimerHandle | None = None
        self._task: asyncio.Task[None] | None = asyncio.get_running_loop().create_task(
            self._run(client), name=f"read transactions of {user_id}"
        )
        self._task.add_done_callback(self._task_ended)

    #: :meth:`cancel` was called.
    _stopped = False
    #: The task ended cancelled (once it has ended).
    _task_cancelled = False

    @property
    def cancelled(self) -> bool:
        """Whether the read was stopped by :meth:`cancel` (or is being stopped)."""
        # Not the task's cancelling(): an asyncio.timeout inside the client
        # cancels this task for a moment too, and undoes it (a follower that
        # looked then gave up on a healthy read: the screen showed no rows).
        task_cancelled = self._task.cancelled() if self._task is not None else self._task_cancelled
        return self._stopped or task_cancelled

    def on_done(self, callback: Callable[[TransactionRead], None]) -> None:
        """Call ``callback(self)`` once the read has ended, however it ended."""
        if self._task is None:
            asyncio.get_running_loop().call_soon(callback, self)
        else:
            self._task.add_done_callback(lambda _task: callback(self))

    def _task_ended(self, task: asyncio.Task[None]) -> None:
        # A task cancelled keeps its CancelledError, whose frames hold this
        # read and its rows: a cycle that only a full collection frees (the
        # app held 520 MB after a stopped read). The task is not kept.
        self._task_cancelled = task.cancelled()
        self._task = None

    def hold(self, at_most: float) -> None:
        """Read and append no further batch until :meth:`release`, for ``at_most`` seconds at most.

        For a key the person is waiting on (a filter, a sort): the batch in
        hand is finished, but the next is neither decoded nor appended in its
        thread, which took most of the GIL from the loop drawing the answer.
        """
        if self.done:
            return
        self._going.clear()
        if self._hold_ends is not None:
            self._hold_ends.cancel()
        self._hold_ends = asyncio.get_running_loop().call_later(at_most, self.release)

    def release(self) -> None:
        """Go on reading after :meth:`hold`."""
        if self._hold_ends is not None:
            self._hold_ends.cancel()
            self._hold_ends = None
        self._going.set()

    @property
    def held(self) -> bool:
        """Whether the read waits for :meth:`release`."""
        return not self._going.is_set()

    def cancel(self) -> None:
        """Stop the read (its rows so far stay in ``data``); nothing if it has ended."""
        if not self.done and self._task is not None:
            self._stopped = True
            self._task.cancel()

    async def _run(self, client: AccountDataClient) -> None:
        data = self.data
        try:
            async for batch in client.stream_transaction_columns(self.user_id):
                async with self._lock:
                    # On the loop when the batch comes as the client's arrays:
                    # adding them is ~0.1 ms per 7,000 rows, less than a thread
                    # hop. Plain lists (an unusual body) are converted in a thread.
                    if len(batch) < INLINE_ROWS or not isinstance(batch.amounts, list):
                        data.append(batch)
                    else:
                        await asyncio.to_thread(data.append, batch)
                    self.batches += 1
                self._changed.set()
                if self._followed:
                    # The follower's turn: it sees each batch (an in-memory
                    # answer would otherwise be read whole in one go).
                    await asyncio.sleep(0)
                await self._going.wait()
            data.complete = True
        except asyncio.CancelledError:
            self.error = asyncio.CancelledError()
            raise
        except Exception as error:  # noqa: BLE001 (handed to the follower, raised there)
            # Kept without the frames it came through: they hold this read
            # and its rows, a cycle only a full collection would free.
            self.error = _without_frames(error)
        finally:
            self.done = True
            self.release()
            self._changed.set()
        if data.complete and self._finished is not None:
            self._finished(data)

    async def updates(self) -> AsyncGenerator[TransactionData, None]:
        """``data`` each time rows arrived since the last time (an empty list: once, at its end).

        No batch is appended while the caller holds an update (between one
        item and the next), so it may read the lists from a thread. Raises
        what the read raised (the client's errors; CancelledError if it was
        cancelled); the rows before stay in ``data``. Close it (``aclosing``)
        if you stop early.
        """
        self._followed = True
        seen, empty_told = 0, False
        while True:
            if self.cancelled:
                break  # nobody wants its rows any more
            ended = self.done
            empty = ended and not self.batches and self.data.complete and not empty_told
            if self.batches != seen or empty:  # (an empty list: once)
                empty_told = True
                async with self._lock:
                    seen = self.batches
                    yield self.data
                continue  # it may have ended meanwhile: look again
            if ended:
                break
            await self._changed.wait()
            self._changed.clear()
        if isinstance(self.error, asyncio.CancelledError):
            raise asyncio.CancelledError
        if self.error is not None:
            # (Its traceback will hold this frame and the follower's: a
            # follower that keeps the error drops it, as the screen does.)
            raise self.error


def _without_frames(error: BaseException) -> BaseException:
    """``error`` and each exception it was raised from or during, without their tracebacks."""
    seen: set[int] = set()
    linked: BaseException | None = error
    while linked is not None and id(linked) not in seen:
        seen.add(id(linked))
        linked.__traceback__ = None
        linked = linked.__cause__ or linked.__context__
    return error
