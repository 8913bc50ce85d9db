"""Checks for the ``[keymap]`` table of the config file (binding id = key).

Textual accepts any keymap silently: an id that names no binding, or a key
it cannot parse, simply never fires. :func:`check_keymap` sorts the entries
into the ones to use and the problems to tell the user about, and lists
keys that would end up doing two things on one screen.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from textual.binding import Binding, BindingsMap
from textual.dom import DOMNode
from textual.keys import Keys, _character_to_key

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


def known_binding_ids(owners: Iterable[type[DOMNode]] | None = None) -> set[str]:
    """Ids of every binding of ``owners`` (default: every loaded widget, screen and app class)."""
    ids: set[str] = set()
    for owner in owners if owners is not None else _loaded_node_classes():
        for bindings in owner._merge_bindings().key_to_bindings.values():
            ids.update(binding.id for binding in bindings if binding.id)
    return ids


def _loaded_node_classes() -> Iterable[type[DOMNode]]:
    pending: list[type[DOMNode]] = [DOMNode]
    seen: set[type[DOMNode]] = set()
    while pending:
        cls = pending.pop()
        if cls in seen:
            continue
        seen.add(cls)
        pending.extend(cls.__subclasses__())
    return seen


def collisions(
    keymap: Mapping[str, str], namespaces: Mapping[str, Iterable[type[DOMNode]]]
) -> list[str]:
    """Keys that do two different things in one namespace list (a screen and the app)."""
    normalised = {binding_id: _normalise(keys) for binding_id, keys in keymap.items()}
    found: list[str] = []
    for name, owners in namespaces.items():
        actions: dict[str, set[str]] = {}
        for owner in owners:
            bindings_map: BindingsMap = owner._merge_bindings()
            bindings_map.apply_keymap(normalised)
            for key, bindings in bindings_map.key_to_bindings.items():
                for binding in bindings:
                    actions.setdefault(key, set()).add(_describe(binding))
        for key, what in sorted(actions.items()):
            if len(what) > 1:
                found.append(f"{key!r} on {name} is bound to {', '.join(sorted(what))}")
    return found


def _describe(binding: Binding) -> str:
    return binding.id or binding.action


def _normalise(keys: str) -> str:
    parts = [part.strip() for part in keys.split(",")]
    return ",".join(_character_to_key(part) if len(part) == 1 else part for part in parts)


def check_keymap(
    keymap: Mapping[str, str],
    namespaces: Mapping[str, Iterable[type[DOMNode]]],
    known_ids: set[str] | None = None,
) -> KeymapCheck:
    """Split ``keymap`` into usable entries and problems; find collisions on each screen.

    ``namespaces`` maps a screen's name to the classes whose bindings are
    active together on it (the screen and the app).
    """
    known = known_binding_ids() if known_ids is None else known_ids
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
    check.collisions = collisions(check.usable, namespaces)
    return check


def dashboard_namespaces() -> dict[str, list[type[DOMNode]]]:
    """Each screen of the dashboard with the classes whose keys work on it together."""
    from .app import AccountDeskApp
    from .screens.account import AccountScreen
    from .screens.error_log import ErrorLogScreen
    from .screens.help import HelpScreen
    from .screens.identity import IdentityScreen
    from .screens.jobs import JobsScreen
    from .screens.login import LoginScreen
    from .screens.lookup import LookupScreen
    from .screens.mfa import MfaDialog
    from .screens.transactions import TransactionsScreen
    from .widgets.transaction_table import TransactionTable

    screens: list[list[type[DOMNode]]] = [
        [LoginScreen],
        [LookupScreen],
        [AccountScreen],
        [IdentityScreen],
        [ErrorLogScreen],
        [JobsScreen],
        [TransactionsScreen, TransactionTable],
        [MfaDialog],
        [HelpScreen],
    ]
    return {owners[0].__name__: [*owners, AccountDeskApp] for owners in screens}
