"""Transactions as msgspec decodes them, and their amounts as text.

The usual batch of rows has every field in its usual JSON type, amounts as
decimal text (:data:`ROWS`). A service may write its amounts as JSON
numbers (the contract does not show them): such a batch is decoded again
with each amount kept as the bytes it was written with (:data:`RAW_ROWS`)
and read by :func:`amount_texts` into the same text,
rather than sending every row through ``json.loads`` and the row-by-row
checks (3.3x slower to read).
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from typing import Annotated, Any, Generic, TypeVar

import msgspec

__all__ = [
    "PLAIN_AMOUNTS",
    "PLAIN_AMOUNT_LENGTH",
    "RAW_ROWS",
    "ROWS",
    "WireTransaction",
    "amount_texts",
    "decode_typed",
    "exact_amount",
]

# Amounts written with these characters only, at most 24 of them, are within
# the bounds (<= 24 digits, no exponent, at most 23 decimals) once Decimal
# accepts them: no need to look at each one's tuple.
PLAIN_AMOUNTS = re.compile(r"[-0-9.]*")
PLAIN_AMOUNT_LENGTH = 24

Amount = TypeVar("Amount", str, msgspec.Raw)


class WireTransaction(msgspec.Struct, Generic[Amount], gc=False):
    """A transaction in its usual JSON types; unknown fields are ignored, as the model does.

    ``gc=False``: 100,000 records that hold only strings and bools need not
    be tracked by the cyclic collector.
    """

    transaction_id: Annotated[str, msgspec.Meta(min_length=1, max_length=256)]
    amount: Amount
    date: str | None = None
    description: str = ""
    category: str | None = None
    pending: bool = False


ROWS = msgspec.json.Decoder(list[WireTransaction[str]])
RAW_ROWS = msgspec.json.Decoder(list[WireTransaction[msgspec.Raw]])


def decode_typed(
    content: bytes, usual: msgspec.json.Decoder[Any], raw: msgspec.json.Decoder[Any]
) -> Any:
    """``content`` decoded by ``usual``, else by ``raw`` (amounts as written); None: read row by row.

    None when both refuse a type, or for bytes that are not UTF-8 in a field
    (UnicodeDecodeError) or nesting ~1,000 deep (RecursionError), which the
    row-by-row path reads or names. Bytes that are not JSON raise
    ``msgspec.DecodeError``.
    """
    for decoder in (usual, raw):
        try:
            return decoder.decode(content)
        except msgspec.ValidationError:  # (a DecodeError too: caught first)
            continue
        except (ValueError, RecursionError) as exc:
            if isinstance(exc, msgspec.DecodeError):
                raise
            return None
    return None


def amount_texts(raws: list[msgspec.Raw]) -> list[str] | None:
    """Each amount as the text it was written with (a string's or a number's); None: read row by row.

    A number reads as its text, but ``-0``: ``json.loads`` reads it as the
    integer 0. A string with an escape, or a comma in an amount, is left to
    the row-by-row path.
    """
    joined = b",".join(raws)
    if b"\\" in joined:
        return None
    texts = joined.replace(b'"', b"").decode()
    amounts = texts.split(",") if raws else []
    if len(amounts) != len(raws):
        return None
    if "-0" in amounts:
        for index, text in enumerate(amounts):
            if text == "-0" and bytes(raws[index]) == b"-0":
                amounts[index] = "0"
    return amounts


def exact_amount(text: str) -> Decimal | None:
    """An amount that is not plain cents, as written; None where the checked path must say why."""
    if len(text) > PLAIN_AMOUNT_LENGTH or not PLAIN_AMOUNTS.fullmatch(text):
        return None
    try:
        return Decimal(text)
    except InvalidOperation:  # "1.2.3", "--1", ""
        return None
