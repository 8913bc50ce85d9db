"""Transactions that arrive in batches: the data, its index and a view grow as one built whole."""

from __future__ import annotations

import random
from decimal import Decimal
from pathlib import Path

import httpx
import pytest
from pydantic import SecretStr
from test_transaction_cache import make_desk

from accountdesk.client import StreamInterruptedError, TransactionColumns
from accountdesk.core.transactions.columns import TABLE_COLUMNS
from accountdesk.core.transactions.data import TransactionData
from accountdesk.core.transactions.view import TransactionView

_TEXTS = ["Corner Shop", "corner shop", "Café Rio", "Ünïcode 東京", "Bakery", ""]


def _columns(start: int, count: int, *, currency: str | None = "EUR") -> TransactionColumns:
    rng = random.Random(start)
    return TransactionColumns(
        user_id="u1",
        currency=currency,
        transaction_ids=[f"t{i}" for i in range(start, start + count)],
        dates=[rng.choice(["2026-01-02", "2025-12-31", ""]) for _ in range(count)],
        amounts=[Decimal(rng.randint(-10_000, 10_000)).scaleb(-2) for _ in range(count)],
        descriptions=[rng.choice(_TEXTS) for _ in range(count)],
        categories=[rng.choice(_TEXTS[2:]) for _ in range(count)],
        pending=[rng.random() < 0.1 for _ in range(count)],
    )


_SIZES = [1, 7, 300, 40, 1000]


def _whole() -> TransactionData:
    whole = TransactionColumns(user_id="u1", currency="EUR")
    start = 0
    for size in _SIZES:
        part = _columns(start, size)
        for name in (
            "transaction_ids",
            "dates",
            "amounts",
            "descriptions",
            "categories",
            "pending",
        ):
            getattr(whole, name).extend(getattr(part, name))
        start += size
    return TransactionData.from_columns(whole)


def _views(data: TransactionData) -> dict[str, list[int]]:
    seen = {}
    view = TransactionView(data)
    for column in TABLE_COLUMNS:
        for reverse in (False, True):
            view.sort_by(column.key, reverse=reverse)
            seen[f"{column.key} {reverse}"] = view.view.tolist()
    view.set_filter("shop")
    view.set_date_range("2026-01-01", None)
    seen["filtered"] = view.view.tolist()
    seen["total"] = [int(view.view_amount_total * 100)]
    return seen


@pytest.mark.parametrize("indexed_after", [0, 1, 3, len(_SIZES)])
def test_appended_batches_sort_filter_and_total_as_the_whole(indexed_after: int) -> None:
    # The index built before any batch, after some, or after all: the same answers.
    data = TransactionData.streaming()
    start = 0
    for number, size in enumerate(_SIZES):
        if number == indexed_after:
            data.index()
        data.append(_columns(start, size, currency=None if number else "EUR"))
        start += size
    if indexed_after == len(_SIZES):
        data.index()
    whole = _whole()
    assert len(data) == len(whole) and data.currency == "EUR"
    assert _views(data) == _views(whole)
    assert data.content_widths(len) == whole.content_widths(len)


def test_widths_grow_with_the_rows() -> None:
    data = TransactionData.streaming()
    data.append(_columns(0, 3))
    narrow = data.content_widths(len)["description"]
    wide = _columns(3, 1)
    wide.descriptions = ["d" * 80]
    data.append(wide)
    assert narrow < 80 == data.content_widths(len)["description"]


def test_a_view_grows_with_its_data_keeping_its_sort_and_filter() -> None:
    data = TransactionData.streaming()
    data.append(_columns(0, 50))
    plain, sorted_view = TransactionView(data), TransactionView(data)
    sorted_view.sort_by("amount", reverse=True)
    sorted_view.set_filter("shop")
    data.append(_columns(50, 500))
    plain.grown()
    sorted_view.grown()
    assert plain.view.tolist() == list(range(550))
    amounts = [data.amounts[i] for i in sorted_view.view.tolist()]
    assert amounts == sorted(amounts, reverse=True) and len(amounts) > 50
    assert all("shop" in data.descriptions[i].casefold() or "shop" in data.categories[i].casefold()
               for i in sorted_view.view.tolist())  # fmt: skip


def _service(chunks: list[bytes], then: Exception | None = None) -> object:
    class Body(httpx.AsyncByteStream):
        async def __aiter__(self):  # type: ignore[no-untyped-def]
            for chunk in chunks:
                yield chunk
            if then is not None:
                raise then

    def answer(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/token":
            return httpx.Response(
                200, json={"access_token": "tok", "token_type": "Bearer", "expires_in": 3600}
            )
        if request.url.path.startswith("/_sandbox/"):
            return httpx.Response(404)
        return httpx.Response(200, stream=Body())

    return answer


def _body(rows: int) -> bytes:
    row = '{"transaction_id":"t%d","date":"2026-11-01","amount":"-2.50","description":"Bakery"}'
    listed = ",".join(row % n for n in range(rows))
    return ('{"user_id":"u1","currency":"EUR","transactions":[' + listed + "]}").encode()


@pytest.mark.anyio
async def test_the_desk_streams_a_read_and_keeps_it_once_complete(tmp_path: Path) -> None:
    body = _body(3000)
    desk = make_desk(tmp_path, _service([body[i : i + 8192] for i in range(0, len(body), 8192)]))  # type: ignore[arg-type]
    await desk.sign_in("key", SecretStr("secret"))
    seen: list[tuple[int, bool]] = []
    async for data in desk.stream_transactions("u1"):
        seen.append((len(data), data.complete))
    assert len(seen) > 1 and seen[0][0] < 3000 and not seen[-1][1]  # batches while reading
    assert [n for n, _ in seen] == sorted(n for n, _ in seen)
    assert data.complete and len(data) == 3000 and data.currency == "EUR"
    assert desk.cached_transactions("u1") is data
    await desk.close()


@pytest.mark.anyio
async def test_an_interrupted_read_keeps_its_rows_but_is_not_cached(tmp_path: Path) -> None:
    body = _body(3000)[:60_000]
    chunks = [body[i : i + 8192] for i in range(0, len(body), 8192)]
    desk = make_desk(tmp_path, _service(chunks, httpx.ReadError("gone")))  # type: ignore[arg-type]
    await desk.sign_in("key", SecretStr("secret"))
    got: list[TransactionData] = []
    with pytest.raises(StreamInterruptedError) as caught:
        async for data in desk.stream_transactions("u1"):
            got.append(data)
    assert got and len(got[-1]) == caught.value.rows > 0 and not got[-1].complete
    assert desk.cached_transactions("u1") is None
    await desk.close()


@pytest.mark.anyio
async def test_an_empty_list_streams_as_empty_complete_data(tmp_path: Path) -> None:
    desk = make_desk(tmp_path, _service([b'{"transactions": []}']))  # type: ignore[arg-type]
    await desk.sign_in("key", SecretStr("secret"))
    got = [data async for data in desk.stream_transactions("u1")]
    assert len(got) == 1 and len(got[0]) == 0 and got[0].complete
    await desk.close()
