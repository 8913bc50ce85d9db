"""The data records the sandbox serves, built from a scenario user's data.

Everything is deterministic: generated transactions come from
``random.Random`` seeded by the pack's seed or the user id, so the same user
on the same day always gets the same list (snapshot tests rely on it; the
draws are in :mod:`.generated`). Records are plain JSON-ready dicts; amounts are
decimal strings, never floats. Standard library only.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import threading
import time
import zlib
from collections import OrderedDict
from collections.abc import Iterator
from itertools import islice
from typing import Any

from accountdesk.sandbox.build_process import pieces_built_apart
from accountdesk.sandbox.clock import wire_time
from accountdesk.sandbox.generated import (
    ROWS_PER_PIECE,
    generated_fields,
    generated_pieces,
    transactions_opening,
)
from accountdesk.sandbox.scenario import GeneratedTransactions, Scenario

__all__ = [
    "TransactionCache",
    "account_record",
    "balance_record",
    "generated_transactions",
    "identity_record",
    "transactions_json",
    "transactions_pieces",
]

#: Rows serialised per json.dumps call (see transactions_json); generated rows, per piece.
ROWS_PER_DUMPS = ROWS_PER_PIECE

#: The order of a transaction's fields on the wire.
_ROW_KEYS = ("transaction_id", "date", "amount", "description", "category", "pending")


def account_record(scenario: Scenario) -> dict[str, Any]:
    """``GET /accounts/{user_id}``."""
    account = scenario.account
    return {
        "user_id": scenario.user_id,
        "link_type": scenario.link_type,
        "institution_name": account.institution_name,
        "account_name": account.account_name,
        "account_type": account.account_type,
        "account_number": account.account_number,
        "account_number_masked": account.account_number_masked,
        "routing_number": account.routing_number,
        "currency": account.currency,
    }


def balance_record(scenario: Scenario, as_of: dt.datetime | None) -> dict[str, Any]:
    """``GET /accounts/{user_id}/balance``, as of the last completed refresh.

    Before any refresh (``as_of`` None), as of the pack's ``as_of`` when it
    gives one; the world passes its start otherwise.
    """
    balance = scenario.balance
    moment = as_of if as_of is not None else balance.as_of
    return {
        "user_id": scenario.user_id,
        "currency": balance.currency,
        "available": balance.available,
        "current": balance.current,
        "as_of": None if moment is None else wire_time(moment),
    }


def identity_record(scenario: Scenario) -> dict[str, Any]:
    """``GET /accounts/{user_id}/identity``."""
    identity = scenario.identity
    return {
        "user_id": scenario.user_id,
        "names": list(identity.names),
        "emails": list(identity.emails),
        "phone_numbers": list(identity.phone_numbers),
        "addresses": [
            {
                "street": a.street,
                "city": a.city,
                "region": a.region,
                "postal_code": a.postal_code,
                "country": a.country,
            }
            for a in identity.addresses
        ],
    }


def generated_transactions(
    user_id: str, plan: GeneratedTransactions, newest: dt.date
) -> list[dict[str, Any]]:
    """``plan``'s rows, newest first, the newest dated ``newest``.

    The draws are the same whatever the options, so a plan without options
    gives exactly the list the sandbox always gave (snapshots rely on it).
    """
    return list(_generated_rows(user_id, plan, newest))


def _generated_rows(
    user_id: str, plan: GeneratedTransactions, newest: dt.date
) -> Iterator[dict[str, Any]]:
    for fields in generated_fields(user_id, plan, newest):
        tid, date, amount, (description, category, _, _), pending = fields
        yield {
            "transaction_id": tid,
            "date": date,
            "amount": amount,
            "description": description,
            "category": category,
            "pending": pending,
        }


def _transactions(scenario: Scenario, newest: dt.date) -> Iterator[dict[str, Any]]:
    plan = scenario.transactions
    if isinstance(plan, GeneratedTransactions):
        return _generated_rows(scenario.user_id, plan, newest)
    return (_listed(row, newest) for row in plan)


def _listed(row: dict[str, Any], newest: dt.date) -> dict[str, Any]:
    """A listed row as sent: ``days_ago`` becomes a date counted back from ``newest``."""
    if "days_ago" not in row:
        return row
    sent = {key: value for key, value in row.items() if key != "days_ago"}
    sent["date"] = (newest - dt.timedelta(days=row["days_ago"])).isoformat()
    return {key: sent[key] for key in _ROW_KEYS if key in sent}


def transactions_pieces(scenario: Scenario, newest: dt.date) -> Iterator[bytes]:
    """``GET /accounts/{user_id}/transactions`` as UTF-8 JSON, newest first, in pieces.

    :data:`ROWS_PER_DUMPS` rows are drawn and serialised per piece, so the
    first rows can be on the wire a few milliseconds after the read, while
    the rest are still being drawn; the pieces joined are one
    ``json.dumps`` of the record. Small pieces also keep each stretch of C
    code that holds the GIL short, for the caller's loop (the embedded
    transport runs the sandbox in a thread of the app).
    """
    plan = scenario.transactions
    if isinstance(plan, GeneratedTransactions):
        yield from generated_pieces(scenario.user_id, scenario.transactions_currency, plan, newest)
        return
    options: dict[str, Any] = {"separators": (",", ":"), "ensure_ascii": False}
    opening = transactions_opening(scenario.user_id, scenario.transactions_currency)
    rows = _transactions(scenario, newest)
    while batch := list(islice(rows, ROWS_PER_DUMPS)):
        yield (opening + json.dumps(batch, **options)[1:-1]).encode()
        opening = ","
    yield b"]}" if opening == "," else (opening + "]}").encode()


def transactions_json(scenario: Scenario, newest: dt.date) -> bytes:
    """The whole body of :func:`transactions_pieces`."""
    return b"".join(transactions_pieces(scenario, newest))


#: A body's bytes kept as built; past them pieces are kept zlib-packed
#: (user_bulk's 100,000 rows are 14 MB; 1,000,000 would be 142 MB held for
#: the life of the sandbox, in the app's own process when embedded).
RAW_BODY_BYTES = 16 * 1024 * 1024
#: The bodies kept for later reads, in bytes as kept (raw or packed): past it
#: the least recently read are let go and built again when next read, the
#: same bytes (a pack of 1,000 users of 1,000,000 rows kept ~28 MB a user
#: read, for the sandbox's life). user_bulk (14 MB) and a few more fit.
CACHE_BYTES = 64 * 1024 * 1024
#: A generated row's bytes in a body (user_bulk: 14 MB for 100,000), to
#: guess a body's size before it is built.
BYTES_PER_ROW = 142


#: Pieces built ahead of the furthest reader while one reads (~0.5 MB of user_bulk).
LEAD_PIECES = 4
#: A reader that takes nothing for this long no longer holds the build back.
READER_PATIENCE = 1.0
#: Generated answers of this many rows or more, built ahead, are built by a
#: child process (user_bulk: ~0.3 s of Python; 10,000 rows take ~30 ms).
BUILT_APART_ROWS = 10_000
#: ... and from this many rows a build is always apart, on the read too: the
#: child's start (0.1-0.4 s) is small beside seconds of building in the app's
#: GIL (a million rows: ~5 s, while the read parses as fast as it arrives).
ALWAYS_APART_ROWS = 500_000


class _Packed(bytes):
    """A piece kept zlib-compressed (level 1: ~10x smaller, ~70 MB/s a core to pack)."""


class _Body:
    """One user's body as it is built, piece by piece, in a thread of its own."""

    def __init__(self, pieces: Iterator[bytes], *, paced: bool = True) -> None:
        self._pieces: list[bytes] = []
        # A build in this process keeps just ahead of its reader (GIL turns);
        # one in a child process (reading a pipe) does not need to.
        self._paced = paced
        self._raw = 0
        #: Bytes of the pieces as kept (raw or packed): what the cache counts.
        self.held = 0
        self._done = False
        self._error: Exception | None = None
        self._grown = threading.Condition()
        # Pieces handed to the furthest reader, and when it last took some.
        self._taken = 0
        self._last_taken: float | None = None
        # The first piece here, on the reader's call: its rows go out at once,
        # whatever else holds the GIL; the rest in a thread of their own.
        self._add(pieces, 1)
        if not self._done:
            threading.Thread(
                target=self._add, args=(pieces,), name="sandbox-transactions", daemon=True
            ).start()

    def _add(self, pieces: Iterator[bytes], count: int | None = None) -> None:
        """Build ``count`` pieces (None: every one left), then say done unless more may come."""
        added = 0
        try:
            for built in islice(pieces, count):
                piece = built
                if self._raw >= RAW_BODY_BYTES:
                    piece = _Packed(zlib.compress(built, 1))  # zlib lets the GIL go
                else:
                    self._raw += len(built)
                with self._grown:
                    self._pieces.append(piece)
                    self.held += len(piece)
                    self._grown.notify_all()
                    # Built before any read (prepare), it runs free; once read,
                    # it keeps LEAD_PIECES ahead of the reader, no further: the
                    # reader's process (the app's, when embedded) decodes and
                    # paints the first rows without this thread taking GIL turns.
                    while self._ahead_of_reader():
                        self._grown.wait(READER_PATIENCE)
                added += 1
                # The GIL to whoever waits (the reader, the app's loop) between pieces.
                time.sleep(0)
            if added == count:
                return  # more may come: the thread goes on
        except Exception as exc:  # noqa: BLE001 (a reader raises it rather than wait forever)
            self._error = exc
        with self._grown:
            self._done = True
            self._grown.notify_all()

    def _ahead_of_reader(self) -> bool:
        """Whether a reader reads, and the build is far enough ahead of it (lock held)."""
        last = self._last_taken
        return (
            self._paced
            and last is not None
            and len(self._pieces) - self._taken >= LEAD_PIECES
            and time.monotonic() - last < READER_PATIENCE
        )

    @property
    def done(self) -> bool:
        """Whether every piece is built (or the build failed)."""
        return self._done

    def pieces(self) -> Pieces:
        """Every piece, the built ones at once, the others as they are built."""
        return Pieces(self)

    def after(self, taken: int, *, wait: bool) -> list[bytes] | None:
        """The pieces after the first ``taken`` (waiting for one if ``wait``); None: no more."""
        with self._grown:
            while wait and taken >= len(self._pieces) and not self._done:
                self._grown.wait()
            if self._error is not None:
                raise RuntimeError("the transactions could not be built") from self._error
            if taken < len(self._pieces):
                self._taken = max(self._taken, len(self._pieces))
                self._last_taken = time.monotonic()
                self._grown.notify_all()
                return self._pieces[taken:]
            return None if self._done else []


class Pieces:
    """A body's pieces, to iterate (blocking) or async-iterate (built pieces without a thread).

    An ASGI server reads the async way: the pieces already built go out
    straight from its loop; only a wait for the next one goes to a thread.
    """

    def __init__(self, body: _Body) -> None:
        self._body = body
        self._taken = 0
        self._ready: list[bytes] = []

    def __iter__(self) -> Iterator[bytes]:
        return self

    def __next__(self) -> bytes:
        if not self._ready:
            more = self._body.after(self._taken, wait=True)
            if not more:
                raise StopIteration
            self._taken += len(more)
            self._ready = more[::-1]
        return _unpacked(self._ready.pop())

    def __aiter__(self) -> Pieces:
        return self

    async def __anext__(self) -> bytes:
        if not self._ready:
            more = self._body.after(self._taken, wait=False)
            if more == []:  # still being built: wait for it in a thread, not on the loop
                more = await asyncio.to_thread(self._body.after, self._taken, wait=True)
            if not more:
                raise StopAsyncIteration
            self._taken += len(more)
            self._ready = more[::-1]
        return _unpacked(self._ready.pop())


def _unpacked(piece: bytes) -> bytes:
    return zlib.decompress(piece) if type(piece) is _Packed else piece


class TransactionCache:
    """Each user's transactions as JSON bytes, built once and shared by every world.

    Shared because a tenant's ``user_bulk`` is the same 14 MB as everyone
    else's. Built in a thread of its own on the first read (or
    :meth:`prepare`), and read while it grows: the first rows of
    ``user_bulk`` go out at once, not after its half-second build; no world
    waits for it, only its readers. Kept within :data:`CACHE_BYTES`: the
    least recently read bodies are let go (a reader still reading one keeps
    it) and built again, the same bytes, when next read.
    """

    def __init__(self, newest: dt.date) -> None:
        self.newest = newest
        # Least recently read first.
        self._built: OrderedDict[str, _Body] = OrderedDict()
        self._lock = threading.Lock()

    def prepare(self, scenario: Scenario, *, apart: bool = False) -> None:
        """Start building ``scenario``'s body now, ahead of its first read.

        ``apart``: a generated answer of :data:`BUILT_APART_ROWS` rows or
        more is built by a process of its own (:mod:`.build_process`), the
        embedded sandbox's help to the app, whose GIL a thread's build would
        share. Only well ahead of a read: the child takes 0.1-0.4 s to start
        and builds no faster, so a read right after waits for it (``fresh``:
        complete table 543 -> 786 ms).
        """
        plan = scenario.transactions
        if apart and isinstance(plan, GeneratedTransactions) and plan.count >= BUILT_APART_ROWS:
            self._body(scenario, apart=True)
        else:
            self._body(scenario)

    def _body(self, scenario: Scenario, *, apart: bool = False) -> _Body:
        plan = scenario.transactions
        if isinstance(plan, GeneratedTransactions) and plan.count >= ALWAYS_APART_ROWS:
            apart = True
        with self._lock:
            body = self._built.get(scenario.user_id)
            if body is None and apart:
                built = pieces_built_apart(scenario, self.newest, transactions_pieces)
                body = _Body(built, paced=False)
                self._built[scenario.user_id] = body
            elif body is None:
                body = _Body(transactions_pieces(scenario, self.newest))
                self._built[scenario.user_id] = body
            self._built.move_to_end(scenario.user_id)
            self._let_go(keep=scenario.user_id)
            return body

    def _let_go(self, *, keep: str) -> None:
        """Let the least recently read bodies go until the rest fit :data:`CACHE_BYTES` (lock held).

        The one asked for stays, whatever its size; so does one still being
        built (its build would be wasted; it counts once done).
        """
        held = sum(body.held for body in self._built.values())
        for user_id in list(self._built):
            if held <= CACHE_BYTES:
                return
            body = self._built[user_id]
            if user_id != keep and body.done:
                held -= body.held
                del self._built[user_id]

    def pieces(self, scenario: Scenario) -> Pieces:
        """``GET /accounts/{user_id}/transactions`` for ``scenario``, as it is built."""
        return self._body(scenario).pieces()

    def get(self, scenario: Scenario) -> bytes:
        """``GET /accounts/{user_id}/transactions`` for ``scenario``, whole."""
        return b"".join(self.pieces(scenario))
