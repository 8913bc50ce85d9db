"""user_bulk as a person first meets it: a fresh app, the sandbox's first build included.

``bulk`` reads the body once before its rounds, so the sandbox's build of
user_bulk (about half a second for 100,000 rows, built on the first read)
is left out of what it compares. A person opening the app meets it. Here
every round is a fresh desk with a fresh embedded sandbox (in this process,
driven by the product's Driver, timed key to frame as :mod:`.bench_bulk`):

- ``fresh_first_rows``: ``x`` -> the first frame that shows rows (target
  0.25 s, absolute);
- ``fresh_complete``: the same press -> every row in the table, against
  ``json.loads`` of the same body (target 2x) and, beside it as a second
  row, against msgspec's typed decode (``fresh_complete_msgspec``: the
  physical limit of the parse, what the client itself decodes with; report);
- ``fresh_sort_early``: ``4`` pressed the moment the first rows are painted
  -> the repaint sorted (over what has arrived; target 50 ms);
- ``fresh_filter_early``: ``/``, a word and Enter the moment the first rows
  are painted -> the repaint filtered (timed from Enter; target 50 ms);
- ``fresh_pagedown_early``: ``pagedown`` the moment the first rows are
  painted -> the repaint a page down (target 50 ms).

Each early key is pressed on a first read of its own (the desk's cache
emptied, ``x`` again), the sandbox's build still under way in that round's
first one.

Figures of one process, not a spawned app: the floors are measured in the
same rounds, alternating with the path.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable

from accountdesk.tui.screens.account import AccountScreen
from accountdesk.tui.screens.transactions import TransactionsScreen
from accountdesk.tui.widgets.transaction_table import TransactionTable
from benchmarks.apps import make_desk
from benchmarks.bench_bulk import FILTER_WORD, USER, gc_paused, load_failed, timed_loads
from benchmarks.frames import send_key
from benchmarks.measure import Result, Target, TargetKind
from benchmarks.processes import scratch_home
from benchmarks.registry import benchmark
from benchmarks.session import Session, running, screen_text

FIRST_ROWS_S = 0.25
REPAINT_MS = 50.0


def some_rows_painted(session: Session) -> bool:
    """The transactions screen shows rows (the first page), whatever is still to come."""
    screen = session.app.screen
    if not isinstance(screen, TransactionsScreen) or screen.view is None:
        return load_failed(session) is not None
    table = screen.query_one(TransactionTable)
    view = screen.view
    if table.loading or table.view is not view or not len(view):
        return False
    return view.row(0).description[:12] in screen_text(session.app)


def all_rows_painted(session: Session, total: int) -> bool:
    screen = session.app.screen
    if not isinstance(screen, TransactionsScreen) or screen.view is None:
        return load_failed(session) is not None
    view = screen.view
    done = getattr(view.data, "complete", True)  # (the app before streaming: always whole)
    return view.total == total and done and some_rows_painted(session)


def timed_msgspec(body: bytes) -> float:
    """msgspec's typed decode of the whole body into the client's rows: the parse's physical limit."""
    import msgspec

    from accountdesk.client.transactions.wire import WireTransaction

    decoder = msgspec.json.Decoder(dict[str, list[WireTransaction[str]] | str | None])
    with gc_paused():
        started = time.perf_counter()
        decoder.decode(body)
        return time.perf_counter() - started


@benchmark(
    "fresh",
    "user_bulk on a fresh app (sandbox's first build included): first rows, complete, early sort",
    rounds=3,
    seconds=20,
)
async def fresh(rounds: int) -> list[Result]:
    first_ms, complete_ms, loads_ms, msgspec_ms = [], [], [], []
    sort_ms, filter_ms, page_ms = [], [], []
    total = 100_000
    body = b""
    for _ in range(rounds):
        with scratch_home() as home:
            async with running(make_desk(home), USER) as session:
                first, complete = await session.watch.press_each(
                    "x",
                    lambda: some_rows_painted(session),
                    lambda: all_rows_painted(session, total),
                    within=300,
                )
                failure = load_failed(session)
                if failure is not None:
                    raise RuntimeError(f"the transactions screen says: {failure}")
                first_ms.append(first * 1000)
                complete_ms.append(complete * 1000)
                sort_ms.append(await early_key(session, total, press_sort))
                filter_ms.append(await early_key(session, total, press_filter))
                page_ms.append(await early_key(session, total, press_pagedown))
                if not body:
                    body = await session.service_get(f"/accounts/{USER}/transactions")
                await session.back_to(AccountScreen)
        loads_ms.append(timed_loads(body) * 1000)
        msgspec_ms.append(timed_msgspec(body) * 1000)
    size = f"{len(body) / 1e6:.1f} MB"
    return [
        Result(
            "fresh_first_rows",
            "x on user_bulk -> first rows painted, fresh app and sandbox",
            "(none: an absolute target)",
            "ms",
            first_ms,
            [],
            Target(TargetKind.ABSOLUTE, FIRST_ROWS_S * 1000),
        ),
        Result(
            "fresh_complete",
            "x on user_bulk -> all 100,000 rows in the table, fresh app and sandbox",
            f"json.loads of the same {size} body",
            "ms",
            complete_ms,
            loads_ms,
            Target(TargetKind.RATIO, 2.0),
        ),
        Result(
            "fresh_complete_msgspec",
            "the same complete table",
            f"msgspec typed decode of the same {size} body (the parse's floor)",
            "ms",
            complete_ms,
            msgspec_ms,
            Target(TargetKind.REPORT),
        ),
        Result(
            "fresh_sort_early",
            "4 (sort by amount) pressed as the first rows appear -> repaint sorted",
            "(none: an absolute target)",
            "ms",
            sort_ms,
            [],
            Target(TargetKind.ABSOLUTE, REPAINT_MS),
        ),
        Result(
            "fresh_filter_early",
            f"/ {FILTER_WORD} Enter as the first rows appear -> repaint filtered (from Enter)",
            "(none: an absolute target)",
            "ms",
            filter_ms,
            [],
            Target(TargetKind.ABSOLUTE, REPAINT_MS),
        ),
        Result(
            "fresh_pagedown_early",
            "pagedown as the first rows appear -> repaint a page down",
            "(none: an absolute target)",
            "ms",
            page_ms,
            [],
            Target(TargetKind.ABSOLUTE, REPAINT_MS),
        ),
    ]


def transactions_screen(session: Session) -> TransactionsScreen:
    screen = session.app.screen
    assert isinstance(screen, TransactionsScreen)
    return screen


async def press_sort(session: Session) -> float:
    """``4`` -> the repaint sorted by amount; seconds."""
    screen = transactions_screen(session)

    def sorted_by_amount() -> bool:
        return screen.view is not None and screen.view.sort_key == "amount"

    return await session.watch.press("4", sorted_by_amount, within=60)


async def press_filter(session: Session) -> float:
    """``/``, the word typed, Enter -> the repaint filtered; seconds from Enter."""
    screen = transactions_screen(session)
    send_key(session.app, "slash")  # queued before Enter, not waited for: a person typing
    screen.query_one("#transactions-filter").value = FILTER_WORD  # type: ignore[attr-defined]

    def filtered() -> bool:
        return screen.view is not None and screen.view.filter_text == FILTER_WORD

    return await session.watch.press("enter", filtered, within=60)


async def press_pagedown(session: Session) -> float:
    """``pagedown`` -> the repaint a page further; seconds."""
    table = transactions_screen(session).query_one(TransactionTable)
    before = table.cursor_row

    def moved() -> bool:
        return table.cursor_row != before

    return await session.watch.press("pagedown", moved, within=60)


async def early_key(
    session: Session, total: int, press: Callable[[Session], Awaitable[float]]
) -> float:
    """Reopen (a first read again), ``press`` the moment rows show; ms to its repaint."""
    if isinstance(session.app.screen, TransactionsScreen):
        # The keys back to the table (Escape in the filter box only leaves the box).
        session.app.screen.query_one(TransactionTable).focus()
    await session.back_to(AccountScreen)
    session.app.desk.transactions.cache.clear()
    await session.watch.press_each("x", lambda: some_rows_painted(session), within=300)
    seconds = await press(session)
    screen = transactions_screen(session)

    def read_whole() -> bool:  # (a page down: the first row is no longer on screen)
        view = screen.view
        return view is not None and view.total == total and view.data.complete

    # Let the read finish before the next step.
    await session.watch.next_frame(read_whole, within=300)
    return seconds * 1000
