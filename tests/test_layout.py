"""The shape of the code: no import circle anywhere in src/, and a concept per module.

import-linter (``lint-imports``, run by ``.ci/run``) checks the arrows
between the parts; this checks that no group of modules imports itself round
in a circle (function-level and ``TYPE_CHECKING`` imports included), which
layer contracts do not, and what "a concept per module" can be checked by:
each module says in its first line what it holds, and none is so long it is
surely two (a module may be long when it reads top to bottom: the anchors'
longest are 1,400-2,000 lines; cut by concept, never to fit a count).
"""

from __future__ import annotations

import ast
from pathlib import Path

import grimp
import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "accountdesk"
#: Past this a module is two concepts, whatever its first line says (see the docstring).
MAX_LINES = 1_500


def _cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0

    def visit(module: str) -> None:
        nonlocal counter
        index[module] = low[module] = counter
        counter += 1
        stack.append(module)
        on_stack.add(module)
        for imported in graph.find_modules_directly_imported_by(module):
            if not imported.startswith("accountdesk"):
                continue
            if imported not in index:
                visit(imported)
                low[module] = min(low[module], low[imported])
            elif imported in on_stack:
                low[module] = min(low[module], index[imported])
        if low[module] == index[module]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == module:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for module in sorted(graph.modules):
        if module.startswith("accountdesk") and module not in index:
            visit(module)
    return found


def test_no_import_circle_in_src() -> None:
    # Imports under ``if TYPE_CHECKING`` count too: they never run, but two
    # modules that name each other's types are one concept cut in two, or a
    # seam cut in the wrong place.
    graph = grimp.build_graph("accountdesk", exclude_type_checking_imports=False)
    assert _cycles(graph) == []


def test_the_check_can_fail() -> None:
    graph = grimp.ImportGraph()
    for module in ("accountdesk.a", "accountdesk.b", "accountdesk.c"):
        graph.add_module(module)
    graph.add_import(importer="accountdesk.a", imported="accountdesk.b")
    graph.add_import(importer="accountdesk.b", imported="accountdesk.a")
    graph.add_import(importer="accountdesk.b", imported="accountdesk.c")
    assert _cycles(graph) == [["accountdesk.a", "accountdesk.b"]]


MODULES = sorted(SRC.rglob("*.py"))


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(SRC)))
def test_each_module_says_what_it_holds(path: Path) -> None:
    docstring = ast.get_docstring(ast.parse(path.read_text())) or ""
    first = docstring.strip().splitlines()[0] if docstring.strip() else ""
    assert first and len(first) > 12, "a module's first line says the one concept it holds"
    assert len(path.read_text().splitlines()) <= MAX_LINES


def test_no_two_test_modules_share_a_name() -> None:
    # Test folders are not packages: two test_x.py files would collide when
    # pytest imports them (under xdist, the collection fails).
    names = [p.name for p in (Path(__file__).parent).rglob("test_*.py")]
    assert sorted({n for n in names if names.count(n) > 1}) == []


def _single_bases(sources: dict[str, str]) -> list[str]:
    """Classes that are the base of exactly one other class and named nowhere else.

    Such a class only moves lines into another file (a mixin that exists for
    one subclass): compose an object, or keep the lines in their class.
    """
    defined: dict[str, str] = {}
    subclasses: dict[str, list[str]] = {}
    named: dict[str, int] = {}
    for where, text in sources.items():
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ClassDef):
                defined[node.name] = where
                for base in node.bases:
                    if isinstance(base, ast.Subscript):
                        base = base.value
                    name = base.id if isinstance(base, ast.Name) else getattr(base, "attr", None)
                    if name:
                        subclasses.setdefault(name, []).append(node.name)
            elif isinstance(node, ast.Name):
                named[node.id] = named.get(node.id, 0) + 1
            elif isinstance(node, ast.Attribute):
                named[node.attr] = named.get(node.attr, 0) + 1
    return sorted(
        f"{where}: {name} (only the base of {subclasses[name][0]})"
        for name, where in defined.items()
        if len(subclasses.get(name, [])) == 1 and named.get(name, 0) == 1
    )


def test_no_class_is_only_the_base_of_one_other() -> None:
    sources = {str(path.relative_to(SRC)): path.read_text() for path in MODULES}
    assert _single_bases(sources) == []


def test_a_class_that_is_only_a_base_is_found() -> None:
    sources = {
        "a.py": "class Part:\n    pass\nclass Whole(Part):\n    pass\n",
        "b.py": "class Used:\n    pass\nclass Other(Used):\n    pass\nx = Used()\n",
    }
    assert _single_bases(sources) == ["a.py: Part (only the base of Whole)"]
