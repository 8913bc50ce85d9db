"""A scenario pack written as TOML a person can read: tables in order, one transaction a line.

The recorder builds a pack as plain data (dicts, lists, text, numbers,
dates) and :func:`pack_text` writes it: a header of ``#`` comments, the
pack's scalars, then each ``[[users]]`` with its tables; ``rows`` (listed
transactions) as one inline table per line, so a recorded statement reads
like one; a job's ``fail`` as an inline table. Text is written as TOML basic
strings, every control character escaped, so any text the service sent
survives the round trip (a lone surrogate, which UTF-8 cannot hold, becomes
U+FFFD). tomlkit is not used: the layout is fixed, and a recording of
100,000 transactions is written in well under a second this way.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from collections.abc import Iterable
from typing import Any

__all__ = ["pack_text", "toml_string", "toml_value"]

#: Lists of tables written inline, one per line, rather than as [[...]] tables.
_ROW_LISTS = frozenset({"rows"})
#: Tables written inline on their key's line.
_INLINE_TABLES = frozenset({"fail"})
_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
_ESCAPES = {
    "\b": "\\b",
    "\t": "\\t",
    "\n": "\\n",
    "\f": "\\f",
    "\r": "\\r",
    '"': '\\"',
    "\\": "\\\\",
}
_NEEDS_ESCAPE = re.compile(r'[\x00-\x1f\x7f"\\]')
_SURROGATE = re.compile(r"[\ud800-\udfff]")


def toml_string(text: str) -> str:
    """``text`` as a TOML basic string."""
    text = _SURROGATE.sub("\ufffd", text)
    body = _NEEDS_ESCAPE.sub(lambda m: _ESCAPES.get(m.group(), f"\\u{ord(m.group()):04x}"), text)
    return f'"{body}"'


def _key(name: str) -> str:
    return name if _BARE_KEY.fullmatch(name) else toml_string(name)


def toml_value(value: Any) -> str:
    """One TOML value: text, true/false, a number, a date or date-time, a list, an inline table."""
    if isinstance(value, str):
        return toml_string(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError("a pack holds finite numbers only")
        return repr(value)
    if isinstance(value, dt.datetime):
        if value.tzinfo is None:
            raise ValueError("a pack's date-times carry an offset")
        return value.isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, list | tuple):
        return "[" + ", ".join(toml_value(item) for item in value) + "]"
    if isinstance(value, dict):
        if not value:
            return "{}"
        return "{ " + ", ".join(f"{_key(k)} = {toml_value(v)}" for k, v in value.items()) + " }"
    raise TypeError(f"cannot write {type(value).__name__} to a pack")


def pack_text(document: dict[str, Any], header: Iterable[str] = ()) -> str:
    """The whole pack: ``header`` lines as comments, then the document's tables."""
    lines = [f"# {line}".rstrip() for line in header]
    body: list[str] = []
    _table(body, (), document)
    while body and body[0] == "":
        del body[0]
    if lines and body:
        lines.append("")
    return "\n".join(lines + body).rstrip() + "\n"


def _table(lines: list[str], path: tuple[str, ...], table: dict[str, Any]) -> None:
    tables: list[tuple[str, dict[str, Any]]] = []
    arrays: list[tuple[str, list[dict[str, Any]]]] = []
    for name, value in table.items():
        if value is None:
            continue
        if isinstance(value, dict) and name not in _INLINE_TABLES:
            tables.append((name, value))
        elif _is_table_list(value) and name not in _ROW_LISTS:
            arrays.append((name, value))
        elif _is_table_list(value):
            lines.append(f"{_key(name)} = [")
            lines += [f"  {toml_value(row)}," for row in value]
            lines.append("]")
        else:
            lines.append(f"{_key(name)} = {toml_value(value)}")
    for name, sub in tables:
        lines += ["", f"[{_dotted((*path, name))}]"]
        _table(lines, (*path, name), sub)
    for name, items in arrays:
        for item in items:
            lines += ["", f"[[{_dotted((*path, name))}]]"]
            _table(lines, (*path, name), item)


def _is_table_list(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, dict) for v in value)


def _dotted(path: Iterable[str]) -> str:
    return ".".join(_key(part) for part in path)
