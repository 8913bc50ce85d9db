"""Transactions read as columns (the stream, collected): the model's rules, column by column, and the first bad row named."""

from __future__ import annotations

import json
import threading
from decimal import Decimal
from typing import Any

import httpx
import msgspec
import pytest
from client_fakes import FakeService, make_client
from hypothesis import given, settings
from hypothesis import strategies as st

from accountdesk.client import MalformedResponseError, TransactionColumns, Transactions
from accountdesk.client.transactions import batch as batch_module
from accountdesk.client.transactions import fill as columns_module
from accountdesk.client.transactions.checked import fill_checked
from accountdesk.client.transactions.stream import ColumnStream
from accountdesk.client.transactions.wire import RAW_ROWS, ROWS, decode_typed
from transaction_bodies import collect

pytestmark = pytest.mark.anyio


def _row(n: int, **fields: Any) -> dict[str, Any]:
    base = {
        "transaction_id": f"txn_{n:06d}",
        "date": "2026-03-01",
        "amount": "-12.34",
        "description": "Coffee",
        "category": "food",
        "pending": False,
    }
    return {**base, **fields}


def _body(*rows: dict[str, Any], **top: Any) -> dict[str, Any]:
    return {"user_id": "user_good", "currency": "USD", "transactions": list(rows), **top}


async def _columns(body: Any) -> TransactionColumns:
    content = body if isinstance(body, bytes) else json.dumps(body).encode()
    service = FakeService(lambda request: httpx.Response(200, content=content))
    async with make_client(service) as client:
        return await collect(client, "user_good")


def _typed_columns(content: bytes) -> TransactionColumns | None:
    """A batch's typed path (msgspec, then each column checked whole) over a body's rows.

    None: the batch hands its rows to the row-by-row path (:mod:`.checked`).
    """
    start = content.index(b"[", content.index(b'"transactions"'))
    try:
        rows = decode_typed(content[start : content.rindex(b"]") + 1], ROWS, RAW_ROWS)
    except (msgspec.DecodeError, UnicodeDecodeError):
        return None
    if rows is None:
        return None
    try:
        top = json.loads(content)
    except ValueError:
        top = {}
    columns = TransactionColumns(user_id=top.get("user_id"), currency=top.get("currency"))
    return columns if columns_module._fill_from_rows(columns, rows) else None


async def test_columns_hold_each_field_in_row_order() -> None:
    columns = await _columns(
        _body(
            _row(1, pending=True),
            _row(2, date=None, category=None, amount=7),
            _row(3, amount=0.1, description="Café \x1b[2J"),
        )
    )
    assert len(columns) == 3 and (columns.user_id, columns.currency) == ("user_good", "USD")
    assert columns.transaction_ids == ["txn_000001", "txn_000002", "txn_000003"]
    assert columns.dates == ["2026-03-01", "", "2026-03-01"]
    assert columns.amounts == [Decimal("-12.34"), Decimal(7), Decimal("0.1")]
    assert columns.descriptions == ["Coffee", "Coffee", "Café ␛[2J"]
    assert columns.categories == ["food", "", "food"]
    assert columns.pending == [True, False, False]
    assert "txn_" not in repr(columns)  # a short repr for 100,000 rows


async def test_missing_optional_fields_take_the_models_defaults() -> None:
    columns = await _columns(_body({"transaction_id": "t1", "amount": "1"}))
    model = Transactions.model_validate(_body({"transaction_id": "t1", "amount": "1"}))
    row = model.transactions[0]
    assert columns.descriptions == [row.description] and columns.pending == [row.pending]
    assert columns.categories == [""] and columns.dates == [""]


async def test_long_text_is_bounded_like_the_model() -> None:
    columns = await _columns(_body(_row(1, description="d" * 5000)))
    assert len(columns.descriptions[0]) == 2000 and columns.descriptions[0].endswith("…")


@pytest.mark.parametrize(
    ("row", "where"),
    [
        (_row(1, amount="1e3000000"), "transactions.transactions.1.amount: amount out of range"),
        (_row(1, amount=None), "transactions.transactions.1.amount"),
        (_row(1, amount=True), "transactions.transactions.1.amount"),
        (_row(1, transaction_id="j" * 257), "transactions.transactions.1.transaction_id"),
        (_row(1, transaction_id="t\x1b[2J"), "transactions.transactions.1.transaction_id"),
        (_row(1, transaction_id="🙂" * 200), "transactions.transactions.1.transaction_id"),
        (_row(1, transaction_id=""), "transactions.transactions.1.transaction_id"),
        (_row(1, transaction_id=5), "transactions.transactions.1.transaction_id: not a string"),
        (_row(1, date="2026-02-30"), "transactions.transactions.1.date"),
        (_row(1, date="20260301"), "transactions.transactions.1.date"),
        (_row(1, description=None), "transactions.transactions.1.description"),
        (_row(1, category=3), "transactions.transactions.1.category"),
        (_row(1, pending="maybe"), "transactions.transactions.1.pending"),
        ("not a row", "transactions.transactions.1: not an object"),
    ],
)
async def test_the_first_bad_row_is_named(row: Any, where: str) -> None:
    with pytest.raises(MalformedResponseError) as caught:
        await _columns(_body(_row(0), row, _row(2, amount="1e3000000")))
    assert where in str(caught.value)


@pytest.mark.parametrize(
    ("body", "where"),
    [
        (b"[]", "not a JSON object"),
        (b"{", "the body ends early"),
        (b'{"transactions": {}}', "transactions.transactions: not a list"),
        (b'{"transactions": [{"transaction_id": "t", "amount": NaN}]}', "not a number JSON"),
        (b'{"user_id": "..", "transactions": []}', "transactions.user_id"),
    ],
)
async def test_bodies_that_are_not_transaction_lists(body: bytes, where: str) -> None:
    with pytest.raises(MalformedResponseError) as caught:
        await _columns(body)
    assert where in str(caught.value)


async def test_large_bodies_are_parsed_off_the_loop_with_the_collector_paused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import gc

    seen: list[tuple[bool, bool]] = []
    real = batch_module.decode_typed

    def recording(content: bytes, usual: Any, raw: Any) -> Any:
        seen.append((threading.current_thread() is threading.main_thread(), gc.isenabled()))
        return real(content, usual, raw)

    monkeypatch.setattr(batch_module, "decode_typed", recording)  # each batch's decode
    rows = [_row(n) for n in range(6000)]  # over 512 KB: batches cut as it arrives
    columns = await _columns(_body(*rows))
    assert len(columns) == 6000
    assert seen and set(seen) == {(False, False)} and gc.isenabled()


# -- the typed decoder (msgspec) and the row-by-row path agree -----------------


def _row_by_row(content: bytes) -> TransactionColumns:
    body = json.loads(content)
    columns = TransactionColumns(user_id=body.get("user_id"), currency=body.get("currency"))
    fill_checked(columns, body["transactions"])
    return columns


@pytest.mark.parametrize(
    "rows",
    [
        [_row(1), _row(2, date=None, category=None), _row(3, pending=True)],
        [{"transaction_id": "t1", "amount": "1"}],  # the optional fields left out
        [_row(1, description="Café \x1b[2J\u202e", category="\x9b31m")],
        [_row(1, description="d" * 5000, amount="-0.005")],
        [_row(1, extra={"nested": [1, 2]}, transaction_id="tx-ü")],  # unknown fields ignored
        [],
        # Amounts as JSON numbers: read as written, not row by row (3.3x slower).
        [_row(1, amount=7), _row(2, amount=12.5), _row(3, amount=-0.0), _row(4, amount=-3.25)],
        [_row(1, amount=0.1), _row(2, amount="-12.50"), _row(3, amount=123456789012.5)],
    ],
)
async def test_the_typed_decoder_gives_what_the_row_by_row_path_gives(
    rows: list[dict[str, Any]],
) -> None:
    content = json.dumps(_body(*rows)).encode()
    typed = _typed_columns(content)
    assert typed is not None
    assert typed == _row_by_row(content)


@pytest.mark.parametrize(
    "row",
    [
        _row(1, amount=1e-05),  # a number with an exponent: only json.loads' Decimal reads it
        _row(1, amount=True),
        _row(1, amount="1e3"),
        _row(1, amount=" 1.5"),
        _row(1, amount="1.2.3"),
        _row(1, pending="yes"),
        _row(1, date="2026-02-30"),
        _row(1, date="2026-3-01"),
        _row(1, transaction_id=".."),
        _row(1, transaction_id=" "),
        _row(1, transaction_id="."),
        _row(1, transaction_id="\t"),
        _row(1, transaction_id="\x1c"),  # whitespace to str.isspace, not printable
        _row(1, transaction_id="\u3000\u2003"),  # whitespace past ASCII
        _row(1, transaction_id="j" * 257),
    ],
)
async def test_what_the_typed_decoder_refuses_goes_row_by_row(row: dict[str, Any]) -> None:
    content = json.dumps(_body(_row(0), row)).encode()
    assert _typed_columns(content) is None


async def test_amounts_written_as_numbers_keep_the_form_they_were_written_in() -> None:
    # json.loads (with Decimal for floats) reads 12.50 as 12.50 and -0 as the integer 0.
    numbers = ["12.50", "-0", "-3.1", "7", "-0.00", "0.125"]
    rows = ",".join(
        f'{{"transaction_id":"t{n}","amount":{text}}}' for n, text in enumerate(numbers)
    )
    content = f'{{"transactions":[{rows}]}}'.encode()
    typed = _typed_columns(content)
    assert typed is not None
    assert [str(amount) for amount in typed.amounts] == [
        "12.50",
        "0",
        "-3.1",
        "7",
        "-0.00",
        "0.125",
    ]
    stream = ColumnStream()
    batches = [*stream.feed(content), *stream.finish()]
    assert [str(amount) for batch in batches for amount in batch.amounts] == [
        str(amount) for amount in typed.amounts
    ]


@settings(max_examples=40, derandomize=True, deadline=None)
@given(st.lists(st.text(alphabet=" .a\t\u3000\u00fc_\x1c", min_size=1, max_size=3), max_size=6))
def test_ids_checked_as_one_joined_text_agree_with_the_row_by_row_path(ids: list[str]) -> None:
    # The typed path checks the ids joined (spaces, dots) and looks at each
    # only when the joined text says it may need to: same answer either way.
    content = json.dumps(_body(*(_row(n, transaction_id=tid) for n, tid in enumerate(ids))))
    typed = _outcome(_typed_columns, content.encode())
    expected = _outcome(_row_by_row, content.encode())
    # None: the typed path hands the body to the row-by-row path.
    assert typed is None or typed == expected


def _outcome(parse: Any, content: bytes) -> object:
    """The columns, or where the first bad value is."""
    try:
        return parse(content)
    except columns_module.ColumnsError as exc:
        return exc.where


async def test_a_lax_body_the_typed_decoder_refuses_is_still_read() -> None:
    columns = await _columns(_body(_row(1, amount=7, pending="yes"), _row(2, amount=" 1.5")))
    assert columns.amounts == [Decimal(7), Decimal("1.5")] and columns.pending == [True, False]


async def test_dates_that_only_line_up_when_joined_are_refused() -> None:
    # 9 + 11 characters join into two good-looking dates.
    content = json.dumps(_body(_row(1, date="2026-03-0"), _row(2, date="12026-03-01"))).encode()
    assert _typed_columns(content) is None
    with pytest.raises(MalformedResponseError, match=r"transactions\.0\.date"):
        await _columns(content)


async def test_bytes_that_are_not_utf8_are_malformed_not_a_crash() -> None:
    # msgspec raises UnicodeDecodeError here; the client must still say "malformed".
    content = b'{"transactions":[{"transaction_id":"t1","amount":"1","description":"a\xffb"}]}'
    assert _typed_columns(content) is None
    with pytest.raises(MalformedResponseError, match="not JSON"):
        await _columns(content)


async def test_a_surrogate_written_as_bytes_is_read_and_made_visible() -> None:
    content = (
        b'{"transactions":[{"transaction_id":"t1","amount":"1","description":"a\xed\xa0\x80b"}]}'
    )
    assert _typed_columns(content) is None
    columns = await _columns(content)
    assert columns.descriptions == ["a\ufffdb"]


async def test_nesting_too_deep_for_msgspec_is_named_not_a_crash() -> None:
    content = b'{"x":' + b"[" * 1200 + b"]" * 1200 + b', "transactions":[]}'
    with pytest.raises(MalformedResponseError, match="nested too deeply"):
        await _columns(content)


def test_repeated_texts_are_held_once_however_many_rows_name_them() -> None:
    # A million rows of a few merchants keep a few strings, not a million.
    rows = [
        _row(n, description=f"Shop {n % 2}\x1b[2J", date="2026-03-0" + str(1 + n % 2))
        for n in range(6)
    ]
    rows.append(_row(6, category=None, date=None))
    columns = _typed_columns(json.dumps(_body(*rows)).encode())
    assert columns is not None
    assert columns.descriptions[0] == "Shop 0\u241b[2J"  # sanitised, in every row
    for column in (columns.descriptions, columns.categories):
        assert len({id(text) for text in column[:6]}) == len(set(column[:6]))
    assert columns.categories[6] == "" and columns.dates[6] == ""


@settings(max_examples=40, derandomize=True, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(
                ["Coffee", "", "Caf\u00e9 \u00fc\u3000", "a\x1bb", "x" * 2100, "\u202e"]
            ),
            st.sampled_from(["food", None, "", "\u0007bell"]),
            st.sampled_from(["2026-03-01", None, "2024-02-29"]),
        ),
        max_size=8,
    )
)
def test_shared_texts_give_the_row_by_row_path_s_columns(texts: list[Any]) -> None:
    rows = [_row(n, description=d, category=c, date=day) for n, (d, c, day) in enumerate(texts)]
    content = json.dumps(_body(*rows)).encode()
    typed = _typed_columns(content)
    assert typed is not None and typed == _row_by_row(content)
