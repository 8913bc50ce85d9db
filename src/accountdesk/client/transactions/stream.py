"""A transactions body cut into batches of rows as its bytes arrive.

The streaming read (:meth:`AccountDataClient.stream_transaction_columns`)
feeds the body to a :class:`ColumnStream` chunk by chunk. The body is the
same JSON as the whole read's (the contract has one answer); the stream
walks its top-level object key by key (``user_id``, ``currency``, unknown
keys, in any order) and cuts the ``transactions`` array at the last ``}``
of what has arrived, decoding the rows before it with the whole read's
rules (:func:`parse_row_batch`). A value it does not need (an unknown key's)
is stepped over without being built (:mod:`._json_values`): a hostile 63 MB
of empty lists took 1.8 GB when each was built.

A cut is right exactly when the bytes before it decode as a JSON array: a
``}`` inside a string leaves the string open, one inside a nested object
leaves the object open, and either fails to decode. So a failed cut tries
the ``}`` before (a few times), then waits for twice the bytes, which keeps
the work linear whatever the body holds.
"""

from __future__ import annotations

import contextlib
import json
from decimal import Decimal
from typing import Any

from accountdesk.client._responses import envelope_parts
from accountdesk.client.transactions.batch import (
    BadRowError,
    BatchSyntaxError,
    parse_row_batch,
    whole_rows,
)
from accountdesk.client.transactions.checked import number_of_digits
from accountdesk.client.transactions.fill import (
    ColumnsError,
    TransactionColumns,
    _optional_id,
    _optional_text,
    _refuse_constant,
)
from accountdesk.client.transactions.json_values import ValueProblem, value_end

__all__ = [
    "BatchSyntaxError",
    "BrokenBodyError",
    "ColumnStream",
    "ErrorEnvelope",
    "parse_row_batch",
]

#: Bytes of rows gathered before the first cut: a screenful arrives in the first chunk.
FIRST_BATCH_BYTES = 16 * 1024
#: Bytes of rows per later cut: ~7,000 of user_bulk's rows, ~15 ms to check.
BATCH_BYTES = 1024 * 1024
#: ``}`` tried per cut before waiting for more bytes.
_CUT_TRIES = 4
#: The longest key, as written, that may be one of ours: ``"transactions"``
#: with every letter escaped is 74 bytes. A longer key is stepped over unread.
_KEY_BYTES = 80
#: The keys whose values the stream reads; every other value is stepped over.
_NEEDED = frozenset({"user_id", "currency"})
#: Bytes of a list or object stepped over per look: each look holds the GIL
#: (msgspec's scan), so a 63 MB one is read in pieces, not in one go.
SKIP_BYTES = 256 * 1024
#: The largest ``error`` member looked at as an error envelope (it is stepped
#: over like any other; one this small is decoded once it has closed).
ENVELOPE_BYTES = 64 * 1024
_CLOSERS = {ord("["): b"]", ord("{"): b"}"}
_WHITESPACE = b" \t\n\r"
_SPACES = frozenset(_WHITESPACE)
_JSON = json.JSONDecoder(
    parse_float=Decimal, parse_int=number_of_digits, parse_constant=_refuse_constant
)


class BrokenBodyError(ColumnsError):
    """A :class:`ColumnsError` with the batches cut before it (``batches``: keep them).

    ``error`` is the one raised (an :class:`ErrorEnvelope`, for one).
    """

    def __init__(self, error: ColumnsError, batches: list[TransactionColumns]) -> None:
        super().__init__(error.where, error.problem, row=error.row)
        self.error = error
        self.batches = batches


class ErrorEnvelope(ColumnsError):
    """The body's ``error`` member is the service's error envelope: the answer is that error."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__("error", f"the service's error envelope ({code})")
        self.envelope = (code, message)


class ColumnStream:
    """Feed a transactions body's bytes; take its rows in batches (see the module docstring).

    :meth:`feed` and :meth:`finish` raise :class:`ColumnsError` naming the
    first bad value (``transactions.12.amount``) or where the body stops
    being JSON (``transactions.4000``: the rows before it were good).
    """

    def __init__(
        self,
        *,
        first_batch_bytes: int | None = None,
        batch_bytes: int | None = None,
        rows: bool = True,
    ) -> None:
        """``rows=False``: the rows are stepped over, not read (a whole read's check of the body)."""
        self._reads_rows = rows
        self.user_id: str | None = None
        self.currency: str | None = None
        #: Rows handed out so far.
        self.rows = 0
        #: Bytes fed so far.
        self.received = 0
        self._batch_bytes = BATCH_BYTES if batch_bytes is None else batch_bytes
        self._want = FIRST_BATCH_BYTES if first_batch_bytes is None else first_batch_bytes
        self._value_want = 0
        self._buffer = bytearray()
        self._state = "start"
        self._key = ""
        self._seen_rows = False
        self._told: tuple[str | None, str | None] = (None, None)

    @property
    def complete(self) -> bool:
        """Whether the whole body has been read (its closing brace)."""
        return self._state == "end"

    @property
    def buffered(self) -> int:
        """Bytes fed and not yet handed out."""
        return len(self._buffer)

    def near(self) -> bytes:
        """The first bytes not yet handed out (for an error's excerpt)."""
        return bytes(self._buffer[:200])

    @property
    def wants(self) -> int:
        """Bytes to hold before feeding does more than keep them (0: any feed may parse).

        Below it, :meth:`keep` is what :meth:`feed` would do: a caller on an
        event loop keeps the bytes there and feeds in a worker thread.
        """
        if self._state in ("rows_first", "rows"):
            return self._want
        if self._state in ("start", "key_or_end", "key", "value", "skip"):
            return self._value_want
        return 0

    def keep(self, chunk: bytes) -> None:
        """Take ``chunk`` without parsing anything (while :attr:`wants` more bytes)."""
        self._buffer += chunk
        self.received += len(chunk)

    def feed(self, chunk: bytes, *, force: bool = False) -> list[TransactionColumns]:
        """Take ``chunk``; the batches now complete (``force``: every whole row held, now)."""
        self._buffer += chunk
        self.received += len(chunk)
        batches: list[TransactionColumns] = []
        try:
            self._advance(batches, final=False, force=force)
        except ColumnsError as exc:
            raise BrokenBodyError(exc, batches) from None
        return batches

    def finish(self) -> list[TransactionColumns]:
        """The body has ended: the last batches, or BrokenBodyError if it is not whole."""
        batches: list[TransactionColumns] = []
        try:
            self._advance(batches, final=True, force=True)
            if self._state != "end":
                where = f"transactions.{self.rows}" if self._state.startswith("rows") else "body"
                raise ColumnsError(where, "the body ends early")
            if not self._seen_rows:  # an answer without its list is not an empty list
                raise ColumnsError("transactions", "missing")
        except ColumnsError as exc:
            raise BrokenBodyError(exc, batches) from None
        if (self.user_id, self.currency) != self._told:  # they came after the rows
            batches.append(self._batch(TransactionColumns(user_id=None, currency=None)))
        return batches

    # -- walking the body ------------------------------------------------------

    def _advance(self, batches: list[TransactionColumns], *, final: bool, force: bool) -> None:
        buffer = self._buffer
        while True:
            if buffer and buffer[0] in _SPACES:  # (lstrip copies the buffer: only if needed)
                del buffer[: len(buffer) - len(buffer.lstrip(_WHITESPACE))]
            state = self._state
            if state == "end":
                if buffer:
                    raise ColumnsError("body", "not JSON (more after the end)")
                return
            if state in ("rows_first", "rows"):
                if buffer[:1] == b"]" and state == "rows_first":
                    del buffer[:1]
                    self._state = "after_value"
                    continue
                try:
                    batch = self._cut(final=final, force=force)
                except BadRowError as exc:
                    if len(exc.before):  # every row before the bad one is handed out
                        self.rows += len(exc.before)
                        batches.append(self._batch(exc.before))
                    raise ColumnsError(exc.where, exc.problem, row=exc.row) from None
                if batch is None:
                    return
                batches.append(batch)
                self._state = "rows_after"
                continue
            if not buffer:
                return
            if state in ("start", "key_or_end", "key", "value"):
                if not self._value(state, final=final):
                    return
                continue
            if state == "skip":
                if not self._skip(final=final):
                    return
                continue
            self._punctuation(state, buffer[0])
            del buffer[:1]

    def _punctuation(self, state: str, byte: int) -> None:
        char = chr(byte)
        expected = {
            "colon": {
                ":": "rows_open" if self._key == "transactions" and self._reads_rows else "value"
            },
            "rows_open": {"[": "rows_first"},
            "rows_after": {",": "rows", "]": "after_value"},
            "after_value": {",": "key", "}": "end"},
        }[state]
        if char not in expected:
            if state == "rows_open":
                raise ColumnsError("transactions", "not a list")
            where = f"transactions.{self.rows}" if state == "rows_after" else "body"
            raise ColumnsError(where, "not JSON")
        self._state = expected[char]

    def _value(self, state: str, *, final: bool) -> bool:
        """Read the object's opening brace, a key or a value; False to wait for more bytes."""
        buffer = self._buffer
        if state == "start":
            if buffer[:1] != b"{":
                raise ColumnsError(
                    "body", "not a JSON object" if buffer[:1] == b"[" else "not JSON"
                )
            del buffer[:1]
            self._state = "key_or_end"
            return True
        if state == "key_or_end" and buffer[:1] == b"}":
            del buffer[:1]
            self._state = "end"
            return True
        if state != "value" and buffer[:1] != b'"':
            raise ColumnsError("body", "not JSON (a key that is not a string)")
        if state == "value" and self._key == "transactions" and buffer[:1] != b"[":
            raise ColumnsError("transactions", "not a list")
        if state == "value" and self._key not in _NEEDED and buffer[0] in _CLOSERS:
            # A list or object nobody needs: stepped over in pieces (_skip).
            self._state, self._value_want = "skip", SKIP_BYTES
            return True
        end = self._value_end(final=final)
        if end is None:
            return False
        if state == "value":
            if self._key in _NEEDED:
                self._take(self._key, self._decoded(end))
            del buffer[:end]  # any other value: stepped over, never built
            self._state = "after_value"
            return True
        # A key too long to be one of ours is not decoded either.
        key = self._decoded(end) if end <= _KEY_BYTES else ""
        del buffer[:end]
        if key == "transactions":
            if self._seen_rows:
                raise ColumnsError("transactions", "sent twice")
            self._seen_rows = True
        self._key = key
        self._state = "colon"
        return True

    def _skip(self, *, final: bool) -> bool:
        """Step over the list or object being skipped, or over its members so far.

        The buffer holds it from its opening bracket. Where it closes, it is
        gone (an ``error`` member small enough is looked at first: the
        service's error envelope makes the answer an error); otherwise the
        members before the last comma that makes them a whole list (or
        object) are dropped: memory and each look stay bounded however long
        it is. False to wait for more bytes.
        """
        buffer = self._buffer
        if not final and len(buffer) < self._value_want:
            return False
        try:
            end = value_end(buffer, final=final)
        except ValueProblem as exc:
            raise ColumnsError("body", exc.problem) from None
        if end is not None:
            if self._key == "error" and end <= ENVELOPE_BYTES:
                self._envelope(bytes(buffer[:end]))
            del buffer[:end]
            self._state, self._value_want = "after_value", 0
            return True
        closer = _CLOSERS[buffer[0]]
        cut = buffer.rfind(b",")
        for _ in range(_CUT_TRIES):
            if cut < 1:
                break
            members = buffer[:cut] + closer
            with contextlib.suppress(ValueProblem):
                if value_end(members, final=True) == len(members):
                    del buffer[1 : cut + 1]  # (the opening bracket stays)
                    self._value_want = SKIP_BYTES
                    return True
            cut = buffer.rfind(b",", 0, cut)
        self._value_want = 2 * len(buffer)  # one member this long: wait for all of it
        return False

    def _envelope(self, member: bytes) -> None:
        """ErrorEnvelope if ``member`` (the ``error`` member) is the service's error envelope."""
        try:
            value = json.loads(member.decode("utf-8"))
        except (ValueError, RecursionError):
            return
        parts = envelope_parts({"error": value})
        if isinstance(parts, tuple):
            raise ErrorEnvelope(*parts)

    def _value_end(self, *, final: bool) -> int | None:
        """Where the value at the start of the buffer ends, or None to wait for more bytes."""
        buffer = self._buffer
        if not final and len(buffer) < self._value_want:
            # Tried and incomplete: wait for twice the bytes (linear work).
            return None
        try:
            end = value_end(buffer, final=final)
        except ValueProblem as exc:
            raise ColumnsError("body", exc.problem) from None
        self._value_want = 0 if end is not None else 2 * len(buffer)
        return end

    def _decoded(self, end: int) -> Any:
        """The value of the buffer's first ``end`` bytes (checked JSON: :meth:`_value_end`)."""
        try:
            text = bytes(self._buffer[:end]).decode("utf-8")
        except UnicodeDecodeError:
            raise ColumnsError("body", "not JSON (bytes that are not UTF-8)") from None
        try:
            return _JSON.decode(text.strip())
        except ColumnsError:
            raise
        except (ValueError, RecursionError):
            raise ColumnsError("body", "not JSON") from None

    def _take(self, key: str, value: Any) -> None:
        if key == "user_id":
            self.user_id = _optional_id(value, "user_id")
        elif key == "currency":
            self.currency = _optional_text(value, "currency")

    def _cut(self, *, final: bool, force: bool) -> TransactionColumns | None:
        """The rows before the last ``}`` that makes a JSON array, or None to wait.

        :class:`BadRowError` (with the rows before it) for a bad row.
        """
        buffer = self._buffer
        if not force and len(buffer) < self._want:
            return None
        end = buffer.rfind(b"}")
        for _ in range(_CUT_TRIES):
            if end < 0:
                break
            try:
                columns = parse_row_batch(b"[" + buffer[: end + 1] + b"]", self.rows)
            except BatchSyntaxError:
                end = buffer.rfind(b"}", 0, end)
                continue
            return self._took(columns, end + 1)
        return self._whole_rows(final=final)

    def _whole_rows(self, *, final: bool) -> TransactionColumns | None:
        """The whole rows held, found one by one (slow: only when no cut at a ``}`` was JSON).

        None to wait for more bytes; :class:`BadRowError` at the first row
        that is not JSON, with the rows before it.
        """
        columns, good_end, problem = whole_rows(self._buffer, self.rows, final=final)
        if problem is not None:
            where = self.rows + len(columns)
            error = ColumnsError(f"transactions.{where}", problem, row=where)
            raise BadRowError(error, columns)
        if not good_end:
            self._want = max(self._want, 2 * len(self._buffer))
            return None
        return self._took(columns, good_end)

    def _took(self, columns: TransactionColumns, used: int) -> TransactionColumns:
        """``columns``, cut from the buffer's first ``used`` bytes, handed out."""
        del self._buffer[:used]
        self._want = self._batch_bytes
        self.rows += len(columns)
        return self._batch(columns)

    def _batch(self, columns: TransactionColumns) -> TransactionColumns:
        columns.user_id, columns.currency = self.user_id, self.currency
        self._told = (self.user_id, self.currency)
        return columns
