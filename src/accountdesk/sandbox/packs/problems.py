"""What is wrong with a scenario pack, one line per problem: the file, the line, the field, what is expected.

pydantic reports a field path (``users.3.account.routing_number``); a person
wants the line. TOML gives no positions after parsing, so :func:`line_index`
reads the text once more, by line, and maps every table header and key to
the line it is on (``[[users]]`` counted, ``[users.account]`` placed in the
last user, each ``{...}`` line of a multi-line ``rows = [...]`` counted), and
:func:`describe_errors` turns each pydantic error into
``pack.toml: line 42: users[4] (case_1).account.routing_number: expected
text in quotes, got an integer``. Never the value itself: it may be a
secret.
"""

from __future__ import annotations

import re
import types
import typing
from typing import Any

from pydantic import BaseModel, ValidationError

from accountdesk.sandbox.packs.fields import did_you_mean
from accountdesk.sandbox.packs.models import ScenarioPack

__all__ = ["MAX_SHOWN", "describe_errors", "line_index", "located"]

#: Problems listed for one file at most (then "and N more").
MAX_SHOWN = 20

Location = tuple[str | int, ...]

_HEADER = re.compile(r"\s*(\[\[?)\s*([^\[\]#]+?)\s*\]\]?\s*(?:#.*)?")
_KEY = re.compile(r"\s*([A-Za-z0-9_\-]+(?:\s*\.\s*[A-Za-z0-9_\-]+)*)\s*=\s*(.*)")

_TYPE_WORDS = {
    str: "text",
    int: "a whole number",
    float: "a number",
    bool: "true or false",
    list: "a list",
    dict: "a table",
}
_EXPECTED = {
    "string_type": "text in quotes",
    "int_type": "a whole number",
    "float_type": "a number",
    "bool_type": "true or false",
    "list_type": "a list [...]",
    "tuple_type": "a list [...]",
    "model_type": "a table",
    "model_attributes_type": "a table",
    "dict_type": "a table",
    "datetime_type": "a date-time with an offset, e.g. 2026-03-02T09:00:00Z",
    "date_type": "a date, e.g. 2026-03-02",
}
_PATTERNS = {
    "api_key": "printable ASCII without spaces, 1 to 128 characters",
}
#: What a numeric bound counts, where "at most N" alone would not say.
_BOUNDED = {"count": "generated transactions per user", "attempts": "wrong answers"}
_COUNTED = {
    "users": "users per pack",
    "rows": "listed transactions per user",
    "answers": "forced answers per user",
    "credentials": "credentials per pack",
}


def line_index(text: str) -> dict[Location, int]:
    """Each table and key of a TOML text, by its path (array items numbered from 0), to its line."""
    index: dict[Location, int] = {}
    counters: dict[Location, int] = {}
    table: Location = ()
    array: Location | None = None  # inside a multi-line array: its path
    items = 0
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if array is not None:
            if stripped.startswith("]"):
                array = None
            elif stripped.startswith("{"):
                index.setdefault((*array, items), number)
                items += 1
            continue
        if not stripped or stripped.startswith("#"):
            continue
        header = _HEADER.fullmatch(line)
        if header is not None and stripped.startswith("["):
            table = _place(header.group(2), header.group(1) == "[[", counters)
            index.setdefault(table, number)
            continue
        key = _KEY.match(line)
        if key is None:
            continue
        path = (*table, *(part.strip() for part in key.group(1).split(".")))
        index.setdefault(path, number)
        value = key.group(2).split("#", 1)[0].strip()
        if value.startswith("[") and value.count("[") > value.count("]"):
            array, items = path, 0
            if value[1:].lstrip().startswith("{"):
                index.setdefault((*path, 0), number)
                items = 1
    return index


def _place(dotted: str, is_array: bool, counters: dict[Location, int]) -> Location:
    """The path of a table header: earlier arrays of tables resolved to their last item."""
    path: Location = ()
    parts = [part.strip().strip('"') for part in dotted.split(".")]
    for position, part in enumerate(parts):
        path = (*path, part)
        last = position == len(parts) - 1
        if last and is_array:
            counters[path] = counters.get(path, -1) + 1
            path = (*path, counters[path])
        elif path in counters:
            path = (*path, counters[path])
    return path


def located(index: dict[Location, int], location: Location) -> int | None:
    """The line of ``location``, or of the nearest table or key that holds it."""
    for end in range(len(location), 0, -1):
        line = index.get(location[:end])
        if line is not None:
            return line
    return None


def describe_errors(
    error: ValidationError, document: dict[str, Any], source: str, index: dict[Location, int]
) -> list[str]:
    """One line per problem of ``error`` (the first :data:`MAX_SHOWN`, then how many more)."""
    found = []
    for detail in error.errors(include_url=False):
        location = tuple(detail.get("loc", ()))
        line = located(index, location)
        where = f"{source}: line {line}" if line is not None else source
        path = render_path(location, document)
        problem = _problem(detail, location)
        found.append((line or 0, f"{where}: {path}: {problem}" if path else f"{where}: {problem}"))
    # In the file's order: a person fixes a file from the top.
    problems = [text for _, text in sorted(found, key=lambda item: item[0])]
    if len(problems) > MAX_SHOWN:
        more = len(problems) - MAX_SHOWN
        problems = [
            *problems[:MAX_SHOWN],
            f"{source}: and {more} more problem{'s' if more > 1 else ''}",
        ]
    return problems


def render_path(location: Location, document: dict[str, Any]) -> str:
    """``users[4] (case_1).account.routing_number``: items counted from 1, a user named by its id."""
    text = ""
    for position, part in enumerate(location):
        if isinstance(part, int):
            text += f"[{part + 1}]"
            if location[:position] == ("users",):
                user_id = _user_id(document, part)
                if user_id:
                    text += f" ({user_id})"
        else:
            text += f".{part}" if text else str(part)
    return text


def _user_id(document: dict[str, Any], position: int) -> str:
    users = document.get("users")
    if isinstance(users, list) and position < len(users) and isinstance(users[position], dict):
        user_id = users[position].get("id")
        if isinstance(user_id, str) and len(user_id) <= 64 and user_id.isprintable():
            return user_id
    return ""


def _problem(detail: Any, location: Location) -> str:
    kind = detail.get("type", "")
    context = detail.get("ctx") or {}
    field = next((part for part in reversed(location) if isinstance(part, str)), "")
    if kind == "missing":
        return "required"
    if kind == "extra_forbidden":
        names = sorted(_fields_at(location[:-1]))
        hint = did_you_mean(str(location[-1]), names)
        return f"unknown key{hint}" if hint else f"unknown key; the keys here: {', '.join(names)}"
    if kind in _EXPECTED:
        return f"expected {_EXPECTED[kind]}, got {_type_word(detail.get('input'))}"
    if kind == "string_too_long":
        length = len(detail.get("input") or "")
        return f"at most {context.get('max_length'):,} characters (this has {length:,})"
    if kind == "string_too_short":
        return "cannot be empty"
    if kind == "too_long":
        noun = _COUNTED.get(field, "items")
        return f"at most {context.get('max_length'):,} {noun} (this has {context.get('actual_length'):,})"
    if kind == "too_short":
        return f"at least {context.get('min_length')} item{'s' if context.get('min_length') != 1 else ''}"
    if kind == "string_pattern_mismatch":
        return f"expected {_PATTERNS.get(field, 'text of another form')}"
    if kind in {"greater_than", "greater_than_equal", "less_than", "less_than_equal"}:
        word = {"greater_than": "more than", "greater_than_equal": "at least"}.get(kind)
        word = word or {"less_than": "less than", "less_than_equal": "at most"}[kind]
        bound = next(iter(context.values()), "")
        shown = f"{bound:,}" if isinstance(bound, int | float) else str(bound)
        noun = f" {_BOUNDED[field]}" if field in _BOUNDED else ""
        return f"{word} {shown}{noun}"
    if kind in {"literal_error", "enum"}:
        expected = str(context.get("expected", ""))
        given = detail.get("input")
        choices = re.findall(r"'([^']*)'", expected)
        hint = did_you_mean(given, choices) if isinstance(given, str) else ""
        return f"expected {expected}{hint}"
    message = str(detail.get("msg", "invalid"))
    return message.removeprefix("Value error, ").removeprefix("Assertion failed, ")


def _type_word(value: object) -> str:
    import datetime as dt

    if isinstance(value, dt.datetime):
        return "a date-time" if value.tzinfo is not None else "a date-time without an offset"
    if isinstance(value, dt.date):
        return "a date"
    if isinstance(value, dt.time):
        return "a time"
    for kind in (bool, int, float, str, list, dict):
        if isinstance(value, kind):
            word = _TYPE_WORDS[kind]
            return "an integer" if kind is int else ("a boolean" if kind is bool else word)
    return type(value).__name__


def _fields_at(location: Location) -> set[str]:
    """The keys a table at ``location`` may hold (for "did you mean")."""
    model: Any = ScenarioPack
    for part in location:
        if isinstance(part, int):
            continue
        if not (isinstance(model, type) and issubclass(model, BaseModel)):
            return set()
        field = model.model_fields.get(part)
        if field is None:
            return set()
        model = _inner_model(field.annotation)
    if isinstance(model, type) and issubclass(model, BaseModel):
        return set(model.model_fields)
    return set()


def _inner_model(annotation: Any) -> Any:
    """The model inside ``X | None`` or ``list[X]`` (or the annotation itself)."""
    for _ in range(4):
        origin = typing.get_origin(annotation)
        if origin in (typing.Union, types.UnionType):
            annotation = next(a for a in typing.get_args(annotation) if a is not type(None))
        elif origin in (list, tuple):
            annotation = typing.get_args(annotation)[0]
        else:
            break
    return annotation
