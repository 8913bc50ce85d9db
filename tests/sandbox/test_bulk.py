"""user_bulk: 100,000 transactions, deterministic, built once and cached."""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import random
import subprocess
import zlib
from collections import Counter
from typing import Any

import httpx
import pytest
from sandbox_helpers import BASE_URL, START, bearer

from accountdesk.sandbox import (
    SCENARIO_USERS,
    FrozenClock,
    build_process,
    create_app,
    generated,
    records,
)
from accountdesk.sandbox.scenario import GeneratedTransactions

pytestmark = pytest.mark.anyio


def _bulk(count: int) -> Any:
    """user_bulk with ``count`` generated rows (quick to build)."""
    return dataclasses.replace(
        SCENARIO_USERS["user_bulk"],
        transactions=dataclasses.replace(SCENARIO_USERS["user_bulk"].transactions, count=count),
    )


async def _transactions(seed: int, user_id: str) -> tuple[bytes, bytes]:
    app = create_app(clock=FrozenClock(START), ids=seed)
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app), base_url=BASE_URL) as http:
        headers = await bearer(http)
        first = await http.get(f"/accounts/{user_id}/transactions", headers=headers)
        second = await http.get(f"/accounts/{user_id}/transactions", headers=headers)
    assert first.status_code == second.status_code == 200
    assert first.headers["content-type"] == "application/json"
    return first.content, second.content


async def test_user_bulk_has_100000_transactions() -> None:
    first, cached = await _transactions(seed=1, user_id="user_bulk")
    assert cached == first
    body = json.loads(first)
    rows = body["transactions"]
    assert len(rows) == 100_000
    assert len({row["transaction_id"] for row in rows}) == 100_000
    dates = [row["date"] for row in rows]
    assert dates == sorted(dates, reverse=True) and dates[0] == START.date().isoformat()
    assert all(
        isinstance(row["amount"], str) and row["amount"].count(".") == 1 for row in rows[:1000]
    )
    assert len(Counter(row["category"] for row in rows)) >= 8


async def test_transactions_are_the_same_in_every_sandbox_on_the_same_day() -> None:
    # Seeded from the user id (crc32, not the per-process salted hash()); a
    # small user exercises the same generator as user_bulk, at a fraction of the time.
    first, _ = await _transactions(seed=1, user_id="user_good")
    other, _ = await _transactions(seed=2, user_id="user_good")
    assert other == first and len(json.loads(first)["transactions"]) == 60


async def test_user_bulk_can_be_made_bigger_or_smaller() -> None:
    app = create_app(clock=FrozenClock(START), ids=1, bulk_transactions=1_234)
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app), base_url=BASE_URL) as http:
        headers = await bearer(http)
        rows = (await http.get("/accounts/user_bulk/transactions", headers=headers)).json()
        users = (await http.get("/_sandbox/scenarios")).json()["users"]
    assert len(rows["transactions"]) == 1_234
    assert {"user_id": "user_bulk", "summary": "linked; 1,234 transactions"} in users
    for bad in (0, -1, 10_000_001, True, 5.0):
        with pytest.raises((TypeError, ValueError)):
            create_app(bulk_transactions=bad)


def test_transactions_are_serialised_in_batches_byte_for_byte(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # One json.dumps of 100,000 rows is one C call that holds the GIL for a
    # second: the embedded transport's thread would freeze the caller's loop
    # anyway. Batches let the interpreter switch threads between them.
    scenario = _bulk(2_500)
    whole = json.dumps(
        {
            "user_id": "user_bulk",
            "currency": "USD",
            "transactions": list(records._transactions(scenario, START.date())),
        },
        separators=(",", ":"),
        ensure_ascii=False,
    ).encode()
    largest: list[int] = []
    dumps = json.dumps

    def counting_dumps(value: object, **options: object) -> str:
        rows = value.get("transactions", []) if isinstance(value, dict) else value
        largest.append(len(rows) if isinstance(rows, list) else 1)
        return dumps(value, **options)

    monkeypatch.setattr(records.json, "dumps", counting_dumps)
    assert records.transactions_json(scenario, START.date()) == whole
    assert max(largest) <= records.ROWS_PER_DUMPS < 2_500


async def test_a_prepared_answer_is_the_answer_built_on_the_read_and_survives_a_reset() -> None:
    from accountdesk.sandbox import prepare_transactions

    async def read(app: object, *, reset: bool = False) -> bytes:
        transport = httpx.ASGITransport(app)  # type: ignore[arg-type]
        async with httpx.AsyncClient(transport=transport, base_url=BASE_URL) as http:
            headers = await bearer(http)
            if reset:
                assert (await http.post("/_sandbox/reset", headers=headers)).status_code == 200
            answer = await http.get("/accounts/user_bulk/transactions", headers=headers)
        assert answer.status_code == 200
        return answer.content

    on_request = create_app(clock=FrozenClock(START), ids=1, bulk_transactions=3_000)
    prepared = create_app(clock=FrozenClock(START), ids=1, bulk_transactions=3_000)
    assert prepare_transactions(prepared, "user_bulk")
    assert not prepare_transactions(prepared, "nobody")  # no such user: nothing built
    # Built before any read (the engine's shared cache holds it), no token needed.
    assert "user_bulk" in prepared.state.engine._transactions._built
    expected = await read(on_request)
    assert await read(prepared) == expected
    assert await read(prepared, reset=True) == expected


async def test_a_big_body_is_kept_packed_and_read_back_byte_for_byte(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # 1,000,000 rows are 142 MB kept for the sandbox's life (in the app's own
    # process when embedded): past RAW_BODY_BYTES the pieces are kept packed.
    monkeypatch.setattr(records, "RAW_BODY_BYTES", 20_000)
    scenario = _bulk(3_500)
    whole = records.transactions_json(scenario, START.date())
    cache = records.TransactionCache(START.date())
    first = cache.get(scenario)  # built while read
    kept = cache._body(scenario)._pieces
    assert any(isinstance(piece, records._Packed) for piece in kept)
    assert not isinstance(kept[0], records._Packed)  # the first rows go out as built
    assert sum(map(len, kept)) < len(whole) // 2
    later = b"".join([piece async for piece in cache.pieces(scenario)])
    assert first == later == whole


def _drawn_with_randoms_methods(
    user_id: str, plan: GeneratedTransactions, newest: dt.date
) -> list[tuple[str, str, str, tuple[str, str, int, int], bool]]:
    """The generator as first written: ``random.Random``'s own methods, one row at a time."""
    rng = random.Random(plan.seed if plan.seed is not None else zlib.crc32(user_id.encode()))
    income, spending = generated._pools(plan)
    span_days = plan.days if plan.days is not None else max(plan.count // 4, 60)
    rows = []
    for index in range(plan.count):
        credit = rng.random() < 0.08
        pool = income if (credit and income) or not spending else spending
        merchant = rng.choice(pool)
        low, high = plan.amount_cents or merchant[2:]
        cents = rng.randint(low, high)
        if pool is spending:
            cents = -cents
        date = (newest - dt.timedelta(days=index * span_days // plan.count)).isoformat()
        rows.append((f"txn_{index + 1:06d}", date, generated._cents(cents), merchant, index < 2))
    return rows


@pytest.mark.parametrize("tabled", [generated._TABLED, 2])
def test_generated_rows_are_the_draws_of_randoms_own_methods(
    monkeypatch: pytest.MonkeyPatch, tabled: int
) -> None:
    # The words are read in blocks and texts joined from tables: the same
    # rows as Random's methods give, for seeds, sizes and every option (2:
    # amounts and ids past the tables take the formatted way).
    monkeypatch.setattr(generated, "_TABLED", tabled)
    newest = START.date()
    plans = [
        GeneratedTransactions(count=5_000),
        GeneratedTransactions(count=3_001, seed=7, days=30),
        GeneratedTransactions(count=2_000, seed=123_456_789, categories=frozenset({"Income"})),
        GeneratedTransactions(count=800, seed=2, categories=frozenset({"Dining", "Refund"})),
        GeneratedTransactions(count=800, seed=3, amount_cents=(0, 99)),
        GeneratedTransactions(count=300, seed=4, amount_cents=(5, 2**40)),  # several words a draw
        GeneratedTransactions(count=0, seed=5),
    ]
    for user_id, plan in zip(["user_bulk", "a", "b", "c", "d", "e", "f"], plans, strict=True):
        expected = _drawn_with_randoms_methods(user_id, plan, newest)
        assert list(generated.generated_fields(user_id, plan, newest)) == expected, plan


def _children_started(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """The command lines of the build processes started from now on (they still run)."""
    started: list[list[str]] = []
    popen = subprocess.Popen

    def recorded(args: list[str], **options: Any) -> subprocess.Popen[bytes]:
        started.append(args)
        return popen(args, **options)

    monkeypatch.setattr(build_process.subprocess, "Popen", recorded)
    return started


def test_a_large_answer_built_ahead_comes_from_a_process_of_its_own_byte_for_byte(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    # Embedded, user_bulk's build in a thread of the app took GIL turns from
    # the app: built ahead, a large one is built by a child process. The
    # same bytes; a child that cannot start or stops early: built here.
    scenario = _bulk(2_500)
    expected = records.transactions_json(scenario, START.date())
    monkeypatch.setattr(records, "BUILT_APART_ROWS", 2_000)
    started = _children_started(monkeypatch)
    cut_short = build_process._CHILD.replace("out.flush()", "out.flush(); sys.exit(3)")
    cut_short = cut_short.replace("    out.write(piece)", "    out.write(piece[:99])")
    for child, stopped_early in ((build_process._CHILD, False), (cut_short, True)):
        monkeypatch.setattr(build_process, "_CHILD", child)
        caplog.clear()
        cache = records.TransactionCache(START.date())
        cache.prepare(scenario, apart=True)
        # The first rows built on the call, not after the child's ~0.1 s start.
        assert cache._built["user_bulk"].after(0, wait=False)
        assert cache.get(scenario) == expected
        # The whole child sent every piece itself (else they were built here, silently slow).
        assert ("stopped early" in caplog.text) is stopped_early, caplog.text
    assert len(started) == 2
    # It runs generated.py alone, with the standard library only: no
    # package to import (~0.1 s of its start), nothing from the environment.
    assert started[0][1:3] == ["-I", "-S"] and started[0][-1] == generated.__file__
    missing = dataclasses.replace(scenario, user_id="user_missing")
    monkeypatch.setattr(build_process.sys, "executable", "/nonexistent/python")
    cache = records.TransactionCache(START.date())
    cache.prepare(missing, apart=True)
    assert cache.get(missing) == records.transactions_json(missing, START.date())
    # Small ones are built in a thread, as on a read; so is one asked for
    # just before its read (the account screen's).
    small = dataclasses.replace(
        scenario, transactions=dataclasses.replace(scenario.transactions, count=1_999)
    )
    records.TransactionCache(START.date()).prepare(small, apart=True)
    records.TransactionCache(START.date()).prepare(scenario)
    assert len(started) == 3


def test_a_huge_answer_is_built_apart_on_its_read_too(monkeypatch: pytest.MonkeyPatch) -> None:
    # A million rows are seconds of building: in a thread of the app they took
    # its GIL for the whole read; a child's 0.1-0.4 s start is small beside it.
    monkeypatch.setattr(records, "ALWAYS_APART_ROWS", 2_000)
    started = _children_started(monkeypatch)
    for rows, children in ((1_500, 0), (2_500, 1)):
        scenario = _bulk(rows)
        cache = records.TransactionCache(START.date())
        assert cache.get(scenario) == records.transactions_json(scenario, START.date())
        assert len(started) == children


@pytest.mark.skipif(not hasattr(build_process.fcntl, "F_GETPIPE_SZ"), reason="Linux pipes only")
def test_the_pipe_from_the_build_process_holds_several_pieces(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # With the usual 64 KiB, the child waited at each ~140 KB piece for the
    # app's reading thread to get a GIL turn: user_bulk's build, beside a
    # busy app, took 0.66 s instead of 0.55 s.
    fcntl = build_process.fcntl
    sizes: list[int] = []
    widen = build_process._widen

    def measured(pipe: int) -> None:
        widen(pipe)
        sizes.append(fcntl.fcntl(pipe, fcntl.F_GETPIPE_SZ))

    monkeypatch.setattr(build_process, "_widen", measured)
    scenario = _bulk(2_500)
    pieces = build_process.pieces_built_apart(scenario, START.date(), records.transactions_pieces)
    assert b"".join(pieces) == records.transactions_json(scenario, START.date())
    with open("/proc/sys/fs/pipe-max-size") as limit:
        allowed = min(build_process.PIPE_BYTES, int(limit.read()))
    assert sizes == [allowed] and allowed > 7 * 142_000  # seven of user_bulk's pieces
