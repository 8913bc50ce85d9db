"""Where a JSON value ends in a buffer, found without building the value.

The streaming read (:mod:`._column_stream`) steps over what it does not
need (an unknown top-level key's value) and finds whole rows when a cut
failed. ``json``'s ``raw_decode`` built each value to find its end: a
hostile 63 MB value of 21,000,000 empty lists took 1.8 GB and seconds of
CPU. msgspec's decode into :class:`msgspec.Raw` checks the syntax in C and
builds nothing; on bytes that go on after the value it stops with
``trailing characters (byte N)``, and N is where the value ends. The
message is msgspec's; a test pins its form (``test_json_values``).

msgspec refuses a lone surrogate escape (``"\\ud800"``) that ``json`` and
the whole read accept; a buffer it refuses is tried once more with every
surrogate escape written as ``\\ufffd`` (the same length, so every position
holds).
"""

from __future__ import annotations

import re

import msgspec

__all__ = ["ValueProblem", "value_end"]

_RAW = msgspec.json.Decoder(msgspec.Raw)
_AT_BYTE = re.compile(r"\(byte (\d+)\)")
_TRAILING = "JSON is malformed: trailing characters"
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")
_NUMBER_START = frozenset(b"-0123456789")
_SPACES = re.compile(rb"[ \t\n\r]*")


class ValueProblem(ValueError):
    """The bytes at ``position`` (from the value's start) are not JSON: ``problem`` says why."""

    def __init__(self, problem: str, position: int) -> None:
        super().__init__(problem)
        self.problem = problem
        self.position = position


def value_end(data: bytes | bytearray, start: int = 0, *, final: bool) -> int | None:
    """The end of the JSON value at ``data[start:]`` (whitespace before it skipped).

    The index just past the value and any whitespace after it; None while
    the bytes so far may still become a value (``final``: none will come).
    Raises :class:`ValueProblem` for bytes that cannot (positions from
    ``start``). Nothing is built; ``data`` may be resized once it returns.
    """
    with memoryview(data) as whole, whole[start:] as view:
        end = _end(view, final=final, retried=False)
    return None if end is None else start + end


def _end(view: memoryview | bytes, *, final: bool, retried: bool) -> int | None:
    size = len(view)
    try:
        _RAW.decode(view)  # (the Raw holds the buffer: not kept)
    except msgspec.DecodeError as exc:
        message = str(exc)
        at = _AT_BYTE.search(message)
        if at is not None and message.startswith(_TRAILING):
            return int(at.group(1)) - 1  # N is just past the first byte after the value
        position = int(at.group(1)) if at is not None else size
        if position >= size and not final:
            return None  # cut short (or at its last byte): more may come
        if not retried and _SURROGATE_ESCAPE.search(view) is not None:
            return _end(_SURROGATE_ESCAPE.sub(rb"\\ufffd", view), final=final, retried=True)
        if position >= size:
            raise ValueProblem("the body ends early", size) from None
        raise ValueProblem(_what_is_at(view, position), position) from None
    except RecursionError:
        raise ValueProblem("JSON nested too deeply", 0) from None
    # The whole view is the value: a number at its end may go on in the next bytes.
    first = _SPACES.match(view).end()  # type: ignore[union-attr]  # (matches "" at least)
    if not final and first < size and view[first] in _NUMBER_START:
        return None
    return size


def _what_is_at(view: memoryview | bytes, position: int) -> str:
    """Why msgspec stopped at ``position``: NaN and Infinity named as ``json`` names them."""
    here = bytes(view[position : position + 8])
    for name in (b"NaN", b"Infinity"):
        if here.startswith(name):
            sign = "-" if name == b"Infinity" and view[position - 1 : position] == b"-" else ""
            return f"{sign}{name.decode()} is not a number JSON allows"
    return "not JSON"
