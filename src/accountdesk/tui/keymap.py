"""Checks for the ``[keymap]`` table of the config file (binding id = key).

Textual accepts any keymap silently: an id that names no binding, or a key
it cannot parse, simply never fires. :func:`check_keymap` sorts the entries
into the ones to use and the problems to tell the user about, and lists
keys that would end up doing two things on one screen.

Only public Textual API is used: binding ids come from the classes'
``BINDINGS``; key names from :class:`textual.keys.Keys`.
"""

from __future__ import annotations

import logging
import unicodedata
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from textual.binding import Binding
from textual.dom import DOMNode
from textual.keys import Keys

__all__ = ["KeymapCheck", "binding_ids", "check_keymap", "checked_keymap", "key_problem"]

log = logging.getLogger(__name__)

MODIFIERS = frozenset({"ctrl", "shift", "alt", "meta", "super", "hyper"})
#: Key names Textual reports (``f5``, ``pageup``, ``escape``...), without modifiers.
_NAMED_KEYS = frozenset(
    key.value.rsplit("+", 1)[-1] for key in Keys if not key.value.startswith("<")
)


@dataclass
class KeymapCheck:
    """The outcome of :func:`check_keymap`."""

    usable: dict[str, str] = field(default_factory=dict)
    #: Entries left out, one sentence each (unknown id, key that does not parse).
    problems: list[str] = field(default_factory=list)
    #: Keys bound to two different actions on one screen (kept, but worth a log line).
    collisions: list[str] = field(default_factory=list)


def key_problem(keys: str) -> str | None:
    """Why ``keys`` (``"ctrl+r"``, ``"j,f2"``) is not a key Textual understands, or None."""
    for key in (part.strip() for part in keys.split(",")):
        if not key:
            return f"{keys!r} has an empty key"
        *modifiers, name = key.split("+") if len(key) > 1 else [key]
        unknown = [m for m in modifiers if m not in MODIFIERS]
        if unknown:
            return f"{key!r}: unknown modifier {unknown[0]!r}"
        if not _is_key_name(name):
            return f"{key!r}: unknown key {name!r}"
    return None


def _is_key_name(name: str) -> bool:
    if len(name) == 1:
        return name.isprintable() and not name.isspace()
    if name in _NAMED_KEYS:  # case matters: Textual never reports "F5"
        return True
    try:  # a character by name, as Textual spells them: "question_mark", "comma"
        unicodedata.lookup(name.replace("_", " "))
    except KeyError:
        return False
    return True


def _key_name(key: str) -> str:
    """A single character as Textual names its key (``"?"`` -> ``"question_mark"``)."""
    if len(key) != 1 or key.isalnum():
        return key
    try:
        return unicodedata.name(key).lower().replace("-", "_").replace(" ", "_")
    except ValueError:
        return key


def _bindings(owner: type[DOMNode]) -> Iterator[Binding]:
    for cls in owner.__mro__:
        for item in vars(cls).get("BINDINGS", ()):
            if isinstance(item, Binding):
                yield item
            elif isinstance(item, tuple) and len(item) >= 2:
                yield Binding(*item)


def binding_ids(owners: Iterable[type[DOMNode]]) -> set[str]:
    """Ids of every binding of ``owners`` (and their base classes)."""
    return {binding.id for owner in owners for binding in _bindings(owner) if binding.id}


def _collisions(
    keymap: Mapping[str, str], namespaces: Mapping[str, Sequence[type[DOMNode]]]
) -> list[str]:
    found: list[str] = []
    for name, owners in namespaces.items():
        actions: dict[str, set[str]] = {}
        for owner in owners:
            for binding in _bindings(owner):
                keys = keymap.get(binding.id, binding.key) if binding.id else binding.key
                for key in keys.split(","):
                    actions.setdefault(_key_name(key.strip()), set()).add(
                        binding.id or binding.action
                    )
        for key, what in sorted(actions.items()):
            if len(what) > 1:
                found.append(f"{key!r} on {name} is bound to {', '.join(sorted(what))}")
    return found


def check_keymap(
    keymap: Mapping[str, str],
    screens: Sequence[type[DOMNode]],
    app: type[DOMNode],
    widgets: Mapping[type[DOMNode], Sequence[type[DOMNode]]] | None = None,
) -> KeymapCheck:
    """Split ``keymap`` into usable entries and problems; find collisions on each screen.

    On a screen the keys of the screen, of ``widgets[screen]`` (widgets with
    their own bindings) and of the app are active together.
    """
    widgets = widgets or {}
    namespaces = {screen.__name__: [screen, *widgets.get(screen, ()), app] for screen in screens}
    known = binding_ids(owner for owners in namespaces.values() for owner in owners)
    check = KeymapCheck()
    for binding_id, keys in keymap.items():
        if binding_id not in known:
            check.problems.append(f"unknown binding id {binding_id!r}")
            continue
        problem = key_problem(keys)
        if problem is not None:
            check.problems.append(f"{binding_id}: {problem}")
            continue
        check.usable[binding_id] = keys
    check.collisions = _collisions(check.usable, namespaces)
    return check


def checked_keymap(
    keymap: Mapping[str, str], app: type[DOMNode], config_path: object
) -> tuple[dict[str, str], list[str]]:
    """The usable part of the config's keymap and the problems to tell the user (both logged)."""
    from accountdesk.tui.screens import dashboard_screens, keymap_widgets

    check = check_keymap(keymap, dashboard_screens(), app, keymap_widgets())
    for problem in check.problems:
        log.warning("keymap in %s: %s (ignored)", config_path, problem)
    for collision in check.collisions:
        log.warning("keymap in %s: %s", config_path, collision)
    return check.usable, check.problems
