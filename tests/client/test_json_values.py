"""value_end: where a JSON value ends, found by msgspec without building it."""

from __future__ import annotations

import msgspec
import pytest

from accountdesk.client.transactions.json_values import ValueProblem, value_end


def test_msgspec_still_says_where_the_bytes_after_a_value_start() -> None:
    # value_end reads this message: a msgspec that words it otherwise fails here first.
    with pytest.raises(
        msgspec.DecodeError, match=r"^JSON is malformed: trailing characters \(byte 9\)"
    ):
        msgspec.json.decode(b"[[],[]] , 1", type=msgspec.Raw)


@pytest.mark.parametrize(
    ("data", "final", "end"),
    [
        (b'[[],[]], "x": 1}', False, 7),
        (b'  {"a": "}"}  , 1', False, 14),
        (b" 123", False, None),  # a number may go on
        (b" 123", True, 4),
        (b"[1, 2", False, None),
        (rb'"lone \ud800 surrogate", 1', False, 23),  # json takes it, msgspec does not
        (rb'"\ud800"', True, 8),
        (b'"\xff\xfe"]', False, 4),  # not UTF-8: stepped over, as the whole read's msgspec does
    ],
)
def test_the_end_of_a_value(data: bytes, final: bool, end: int | None) -> None:
    assert value_end(data, final=final) == end


def test_the_end_from_a_start_and_the_buffer_may_be_resized_after() -> None:
    buffer = bytearray(b'xx["a", 1] ,')
    assert value_end(buffer, 2, final=False) == 11
    del buffer[:2]  # no view of it is left behind
    assert buffer == b'["a", 1] ,'


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        (b"[1, NaN]", "NaN is not a number JSON allows"),
        (b"[1,-Infinity]", "-Infinity is not a number JSON allows"),
        (b"[1,}", "not JSON"),
        (b"[" * 5000 + b"]" * 5000, "JSON nested too deeply"),
        (b"[1, 2", "the body ends early"),
    ],
)
def test_what_is_not_a_value_is_named(data: bytes, problem: str) -> None:
    with pytest.raises(ValueProblem) as caught:
        value_end(data, final=True)
    assert caught.value.problem == problem
