"""The shape of the code: no import circle anywhere in src/, and no module too long.

import-linter (``lint-imports``, run by ``.ci/run``) checks the arrows
between the parts; this checks that no group of modules imports itself round
in a circle (function-level imports included), which layer contracts do not.
"""

from __future__ import annotations

from pathlib import Path

import grimp
import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "accountdesk"
#: A module over ~400 lines is usually two modules (house style); a little slack for docstrings.
MAX_LINES = 420


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
    # Imports under ``if TYPE_CHECKING`` never run: annotations may name a
    # type from a module that imports this one.
    graph = grimp.build_graph("accountdesk", exclude_type_checking_imports=True)
    assert _cycles(graph) == []


def test_the_check_can_fail() -> None:
    graph = grimp.ImportGraph()
    for module in ("accountdesk.a", "accountdesk.b", "accountdesk.c"):
        graph.add_module(module)
    graph.add_import(importer="accountdesk.a", imported="accountdesk.b")
    graph.add_import(importer="accountdesk.b", imported="accountdesk.a")
    graph.add_import(importer="accountdesk.b", imported="accountdesk.c")
    assert _cycles(graph) == [["accountdesk.a", "accountdesk.b"]]


@pytest.mark.parametrize("path", sorted(SRC.rglob("*.py")), ids=lambda p: str(p.relative_to(SRC)))
def test_no_module_is_too_long(path: Path) -> None:
    assert len(path.read_text().splitlines()) <= MAX_LINES


def test_no_two_test_modules_share_a_name() -> None:
    # Test folders are not packages: two test_x.py files would collide when
    # pytest imports them (under xdist, the collection fails).
    names = [p.name for p in (Path(__file__).parent).rglob("test_*.py")]
    assert sorted({n for n in names if names.count(n) > 1}) == []
