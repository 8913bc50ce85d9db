"""Bounds on what the service may send: amounts, identifiers, counts, lifetimes.

Every limit is far beyond any real answer and far below what would hurt:

- Amounts (balances, transaction amounts): finite, at most
  :data:`MAX_AMOUNT_DIGITS` significant digits, exponent within
  ±:data:`MAX_AMOUNT_EXPONENT` (so at most 48 digits when written out).
  Checked on ``Decimal.as_tuple()`` before any arithmetic: an 11-byte
  ``"1e3000000"`` is a cheap Decimal until something formats it, which
  takes 23 s and 165 MB. Text longer than :data:`MAX_AMOUNT_TEXT` is refused
  before a Decimal is even built.
- Identifiers the client sends back in paths (``job_id``, ``user_id``,
  ``transaction_id``): not empty, at most :data:`MAX_ID_LENGTH` characters,
  nothing the sanitiser would replace, and sendable
  (:func:`~accountdesk.client.identifier_problem`). They are refused, never
  altered: an altered id would name another job.
- Rows of a transactions read: at most one per :data:`BYTES_PER_ROW` bytes of
  the client's ``max_response_bytes`` (:func:`max_rows_for`: 524,288 at the
  default 64 MiB). The byte cap alone let small rows through in numbers
  that cost far more than their bytes: a row held in the app costs ~41 bytes
  when it reads like user_bulk's (145 bytes of JSON, an amount of two
  decimals), ~220 for a 41-byte row whose amount needs a ``Decimal``
  (``"1"``), ~500 for one with a description and category of its own
  (measured, tracemalloc, 200,000 rows each). 64 MiB of the 41-byte rows
  were 1.6 million rows and ~590 MB in the app. A usual row is longer than
  128 bytes, so the row bound stops no read the byte cap would not.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from accountdesk.client._identifiers import identifier_problem
from accountdesk.client._sanitise import has_unsafe_characters

__all__ = [
    "AMOUNT_OUT_OF_RANGE",
    "BYTES_PER_ROW",
    "MAX_AMOUNT_DIGITS",
    "MAX_AMOUNT_EXPONENT",
    "MAX_AMOUNT_TEXT",
    "MAX_ATTEMPTS_REMAINING",
    "MAX_ID_LENGTH",
    "MAX_LIST_ITEMS",
    "MAX_TOKEN_LIFETIME",
    "amount_from_wire",
    "amount_in_range",
    "max_rows_for",
    "service_id_problem",
]

MAX_AMOUNT_DIGITS = 24
MAX_AMOUNT_EXPONENT = 24
MAX_AMOUNT_TEXT = 64
MAX_ID_LENGTH = 256
#: Longest list of names, emails, phone numbers or addresses in an identity.
MAX_LIST_ITEMS = 100
MAX_ATTEMPTS_REMAINING = 1000
#: A token said to live longer than a year is not believed.
MAX_TOKEN_LIFETIME = 365 * 24 * 3600.0

#: Bytes of the size cap per row allowed (see the module docstring).
BYTES_PER_ROW = 128

AMOUNT_OUT_OF_RANGE = (
    f"amount out of range (finite, at most {MAX_AMOUNT_DIGITS} significant digits, "
    f"exponent within ±{MAX_AMOUNT_EXPONENT})"
)


def amount_in_range(amount: Decimal) -> bool:
    """Whether ``amount`` is finite and within the digit and exponent bounds."""
    if not amount.is_finite():
        return False
    _sign, digits, exponent = amount.as_tuple()
    assert isinstance(exponent, int)  # finite
    return (
        len(digits) <= MAX_AMOUNT_DIGITS and -MAX_AMOUNT_EXPONENT <= exponent <= MAX_AMOUNT_EXPONENT
    )


def amount_from_wire(value: object) -> Decimal:
    """An amount as the wire may carry it (decimal text or a JSON number); ValueError if not.

    The message is :data:`AMOUNT_OUT_OF_RANGE` for anything too big, too
    precise or not finite.
    """
    if isinstance(value, bool):
        raise ValueError("amount must be a decimal number, not true/false")
    if isinstance(value, str):
        if len(value) > MAX_AMOUNT_TEXT:
            raise ValueError(AMOUNT_OUT_OF_RANGE)
        try:
            amount = Decimal(value.strip())
        except InvalidOperation:
            raise ValueError("amount is not a decimal number") from None
    elif isinstance(value, int):
        if value.bit_length() > 4 * MAX_AMOUNT_TEXT:
            raise ValueError(AMOUNT_OUT_OF_RANGE)
        amount = Decimal(value)
    elif isinstance(value, float):
        # repr: the shortest text that reads back as this float ("0.1", not
        # the 55 digits of its binary value).
        amount = Decimal(repr(value))
    elif isinstance(value, Decimal):
        amount = value
    else:
        raise ValueError(f"amount must be a decimal number, not {type(value).__name__}")
    if not amount_in_range(amount):
        raise ValueError(AMOUNT_OUT_OF_RANGE)
    return amount


def service_id_problem(value: str) -> str | None:
    """Why an identifier from the service cannot be used as one, or None."""
    if not value:
        return "empty identifier"
    if len(value) > MAX_ID_LENGTH:
        return f"identifier longer than {MAX_ID_LENGTH} characters ({len(value)})"
    if has_unsafe_characters(value):
        return "identifier holds control or bidirectional characters"
    problem = identifier_problem("identifier", value)
    return problem.rstrip(".") if problem else None


def max_rows_for(max_response_bytes: int) -> int:
    """The most rows a transactions read may hand out under ``max_response_bytes``."""
    return max(max_response_bytes // BYTES_PER_ROW, 1)
