"""The ``test`` extra holds every module the suite imports: a new user's install runs it all.

The README's second Quick-start line installs ``.[test]`` and runs pytest; a
module the suite imports that only ``dev`` (or nothing) brings stops that
line at collection, while CI, installing more, stays green. So: every
third-party module imported anywhere under ``tests/`` or ``benchmarks/``
(function-level imports and ``pytest.importorskip`` included) must come from a
distribution the ``test`` extra names, directly or through the extras it
names. Transitive dependencies do not count: a test that imports a package
says so in ``pyproject.toml``.
"""

from __future__ import annotations

import ast
import functools
import importlib.metadata
import re
import sys
import tomllib
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SUITES = ("tests", "benchmarks")


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def declared(extra: str | None, pyproject: dict[str, object] | None = None) -> set[str]:
    """Distributions an extra names (None: the plain install), following ``accountdesk[...]``."""
    project = (pyproject or tomllib.loads((ROOT / "pyproject.toml").read_text()))["project"]
    assert isinstance(project, dict)
    extras: dict[str, list[str]] = project["optional-dependencies"]
    own = _canonical(project["name"])
    found = {
        _canonical(re.split(r"[\s<>=!~;\[]", spec, maxsplit=1)[0])
        for spec in project["dependencies"]
    }
    todo, done = [] if extra is None else [extra], set()
    while todo:
        name = todo.pop()
        if name in done:
            continue
        done.add(name)
        for spec in extras[name]:
            match = re.match(r"([A-Za-z0-9._-]+)(?:\[([^\]]+)\])?", spec)
            assert match, spec
            if _canonical(match[1]) == own:
                todo.extend(part.strip() for part in (match[2] or "").split(","))
            else:
                found.add(_canonical(match[1]))
    return found


def imported_modules(sources: Iterable[Path]) -> dict[str, Path]:
    """Top-level module names imported by these files (first file that does, for the message)."""
    found: dict[str, Path] = {}
    for path in sources:
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            elif (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "importorskip"
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                names = [node.args[0].value]
            for name in names:
                found.setdefault(name.partition(".")[0], path)
    return found


def third_party(modules: dict[str, Path]) -> dict[str, Path]:
    """Leave out the standard library, our package and the suite's own helper modules."""
    local = {"accountdesk", "__future__", *SUITES}
    for suite in SUITES:
        for path in (ROOT / suite).rglob("*.py"):
            local.add(path.stem)
        local.update(path.name for path in (ROOT / suite).rglob("*") if path.is_dir())
    return {
        name: path
        for name, path in modules.items()
        if name not in sys.stdlib_module_names and name not in local
    }


#: Distributions that another pins exactly and that come with it.
PART_OF = {"pydantic-core": "pydantic"}


#: Which distributions own each top-level module (~0.5 s to read: read once per run).
_owners = functools.cache(importlib.metadata.packages_distributions)


def undeclared(modules: dict[str, Path], allowed: set[str], extra: str = "test") -> list[str]:
    owners = _owners()
    problems = []
    for module, path in sorted(modules.items()):
        distributions = {
            PART_OF.get(_canonical(name), _canonical(name)) for name in owners.get(module, [])
        }
        where = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
        if not distributions:
            problems.append(f"{module} (imported by {where}) is not installed")
        elif not distributions & allowed:
            problems.append(
                f"{module} (imported by {where}) comes from {', '.join(sorted(distributions))}, "
                f"which the {extra} extra does not name"
            )
    return problems


def test_the_test_extra_names_every_module_the_suite_imports() -> None:
    sources = [path for suite in SUITES for path in sorted((ROOT / suite).rglob("*.py"))]
    assert sources
    modules = third_party(imported_modules(sources))
    assert {"pytest", "textual", "httpx"} <= modules.keys()  # the scan sees the suite's imports
    assert undeclared(modules, declared("test")) == []


def test_the_check_names_a_module_only_dev_brings(tmp_path: Path) -> None:
    probe = tmp_path / "test_probe.py"
    probe.write_text("def test_x():\n    import grimp\n    import pytest\n")
    modules = third_party(imported_modules([probe]))
    assert set(modules) == {"grimp", "pytest"}
    problems = undeclared(modules, {"pytest"})
    assert problems == [
        f"grimp (imported by {probe}) comes from grimp, which the test extra does not name"
    ]


def test_extras_are_followed_through_the_project_itself() -> None:
    pyproject = {
        "project": {
            "name": "accountdesk",
            "dependencies": ["httpx>=0.27"],
            "optional-dependencies": {
                "app": ["textual==8.2.8", "accountdesk[sandbox]"],
                "sandbox": ["starlette>=0.37"],
                "test": ["accountdesk[app]", "pytest>=8"],
                "dev": ["accountdesk[test]", "grimp"],
            },
        }
    }
    assert declared("test", pyproject) == {"httpx", "textual", "starlette", "pytest"}


#: What each part of the package may import, by the install that brings it
#: (None: ``pip install accountdesk``, the client alone).
PARTS = {
    "contract": None,
    "client": None,
    "sandbox": "sandbox",
    "core": "app",
    "tui": "app",
    "web": "serve",
}


#: Modules a part imports only when their own extra is installed (else it goes without).
OPTIONAL_MODULES = {
    "client/transactions/arrays.py": "arrays",
    "client/transactions/amounts.py": "arrays",
}


def test_each_part_imports_only_what_its_install_brings() -> None:
    package = ROOT / "src" / "accountdesk"
    problems = []
    optional = {package / name: extra for name, extra in OPTIONAL_MODULES.items()}
    for part, extra in PARTS.items():
        sources = sorted(set((package / part).rglob("*.py")) - optional.keys())
        modules = third_party(imported_modules(sources))
        problems += undeclared(modules, declared(extra), extra or "plain install")
    for path, extra in optional.items():
        problems += undeclared(third_party(imported_modules([path])), declared(extra), extra)
    top = third_party(imported_modules(sorted(package.glob("*.py"))))
    problems += undeclared(top, declared("serve"), "serve")
    assert problems == []
