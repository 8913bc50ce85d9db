"""Textual's private names: each one a seam relies on is still there, and none is used outside the seams.

``accountdesk.tui.seams`` is the one folder that reaches into Textual's (and
rich's) private names, each with its gain and its upstream issue. A Textual
upgrade that drops a name fails here first, naming the seam to review; a
private name used anywhere else fails here too, so the next person finds
every such reach in one folder.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
from pathlib import Path

import pytest
import rich
import textual

import accountdesk
from accountdesk.tui.seams import RELIED_ON

SRC = Path(accountdesk.__file__).parent
SEAMS = SRC / "tui" / "seams"


def _has(where: str, name: str) -> bool:
    module_name, _, class_name = where.partition(":")
    module = importlib.import_module(module_name)
    if not class_name:
        return hasattr(module, name)
    owner = getattr(module, class_name)
    for cls in owner.__mro__:
        if name in vars(cls):
            return True
        try:
            source = inspect.getsource(cls)
        except (OSError, TypeError):
            continue
        if f"self.{name} =" in source or f"self.{name}:" in source:
            return True  # set on each instance
    return False


@pytest.mark.parametrize(("where", "name"), RELIED_ON, ids=[f"{w}.{n}" for w, n in RELIED_ON])
def test_each_private_name_a_seam_relies_on_is_still_there(where: str, name: str) -> None:
    assert _has(where, name), f"{where} has no {name}: review the seam that uses it"


def test_the_check_can_fail() -> None:
    assert not _has("textual.app:App", "_no_such_name")
    assert not _has("textual._xterm_parser", "NoSuchParser")


def _private_names_of(package: Path) -> set[str]:
    """Every single-underscore name a package's source defines (functions, attributes, modules)."""
    names: set[str] = set()
    for path in package.rglob("*.py"):
        if path.stem.startswith("_") and not path.stem.startswith("__"):
            names.add(path.stem)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                names.add(node.name)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                names.add(node.attr)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
    return {n for n in names if n.startswith("_") and not n.startswith("__")}


def _reaches(path: Path, private: set[str], ours: set[str]) -> list[str]:
    """Where ``path`` reaches a private name of Textual's or rich's."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            parts = node.module.split(".")
            if parts[0] in {"textual", "rich"} and any(p.startswith("_") for p in parts):
                found.append(f"{node.lineno}: from {node.module}")
        elif isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                if parts[0] in {"textual", "rich"} and any(p.startswith("_") for p in parts):
                    found.append(f"{node.lineno}: import {alias.name}")
        elif isinstance(node, ast.Attribute) and node.attr in private and node.attr not in ours:
            found.append(f"{node.lineno}: .{node.attr}")
    return found


def test_no_private_name_of_textual_or_rich_outside_the_seams() -> None:
    private = _private_names_of(Path(textual.__file__).parent) | _private_names_of(
        Path(rich.__file__).parent
    )
    outside = [path for path in SRC.rglob("*.py") if SEAMS not in path.parents]
    # A name our own code defines as well (a lock, a task) is ours where we use it.
    ours = set().union(*(_private_names_of_file(path) for path in outside))
    reaches = {
        str(path.relative_to(SRC)): found
        for path in outside
        if (found := _reaches(path, private, ours))
    }
    assert reaches == {}


def _private_names_of_file(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
    return {n for n in names if n.startswith("_") and not n.startswith("__")}


def test_no_class_of_ours_overrides_a_private_method_of_textual_outside_the_seams() -> None:
    # A method named as a private one of a Textual base (``_on_resize``) is
    # Textual's machinery replaced: a seam, whatever file it sits in.
    for info in pkgutil.walk_packages(accountdesk.__path__, "accountdesk."):
        if info.name.startswith(("accountdesk.tui.seams", "accountdesk.web")):
            continue
        try:
            module = importlib.import_module(info.name)
        except ImportError:
            continue
        for cls in vars(module).values():
            if not inspect.isclass(cls) or cls.__module__ != module.__name__:
                continue
            textual_bases = [
                base for base in cls.__mro__ if base.__module__.startswith(("textual.", "rich."))
            ]
            if not textual_bases:
                continue
            # What Textual's metaclass puts on every class of its own kind.
            automatic = {"_decorated_handlers", *vars(type("Probe", (textual_bases[0],), {}))}
            # Its own names, and its mixins' (a base of ours in its line, outside the seams).
            ours = [
                base
                for base in cls.__mro__
                if base.__module__.startswith("accountdesk.")
                and not base.__module__.startswith("accountdesk.tui.seams")
            ]
            for owner in ours:
                for name in vars(owner):
                    if not name.startswith("_") or name.startswith("__") or name in automatic:
                        continue
                    overridden = [base for base in textual_bases if name in vars(base)]
                    assert not overridden, f"{owner.__qualname__}.{name} overrides {overridden[0]}"
