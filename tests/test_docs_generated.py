"""The manual's generated pages (docs/reference/) are what the code makes now.

``docs/generate.py`` writes them from the bindings, the contract, the parser,
the settings model, the OpenAPI document and the screenshot list; a change to
any of those without running it fails here, saying the command.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("docs_generate", ROOT / "docs" / "generate.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def made(generator: ModuleType) -> dict[str, str]:
    pages: dict[str, str] = generator.pages()
    return pages


def test_every_generated_page_is_current(generator: ModuleType, made: dict[str, str]) -> None:
    stale = generator.stale(made)
    assert stale == [], f"stale generated pages {stale}: run `{generator.COMMAND}` and commit"


def test_a_changed_source_makes_its_page_stale(generator: ModuleType, made: dict[str, str]) -> None:
    changed = {**made, "reference/errors.md": made["reference/errors.md"] + "\nAC-999\n"}
    assert generator.stale(changed) == ["reference/errors.md"]


def test_the_pages_hold_what_their_sources_define(made: dict[str, str]) -> None:
    from accountdesk.contract import ERRORS, FAILURE_GUIDANCE
    from accountdesk.core.settings.model import environment_variables
    from accountdesk.sandbox import openapi_document
    from accountdesk.tui.screenshots import SCREENS

    errors = made["reference/errors.md"]
    assert all(f"### {code} {{#{code.lower()}}}" in errors for code in ERRORS)
    assert all(f"### {kind} {{#{kind}}}" in errors for kind in FAILURE_GUIDANCE)
    # The guidance's own words (the generator escapes Markdown, so compare words).
    words = re.sub(r"\\(.)", r"\1", errors).replace("&lt;", "<")
    assert all(" ".join(spec.next_step.split()) in words for spec in ERRORS.values())
    settings = made["reference/settings.md"]
    assert all(f"`{name}`" in settings for name, _ in environment_variables())
    http = made["reference/http-api.md"]
    for path, operations in openapi_document()["paths"].items():
        assert all(f"`{method.upper()} {path}`" in http for method in operations)
    assert all(f"../screenshots/{name}.svg" in made["reference/screenshots.md"] for name in SCREENS)
    keys = made["reference/keys.md"]
    assert "| `r` | Show or mask the account and routing numbers | `reveal_numbers` | yes |" in keys
    cli = made["reference/cli.md"]
    assert "## `accountdesk completion`" in cli and "`--tenants`" in cli


def test_the_committed_screenshots_are_the_screens_drawn() -> None:
    from accountdesk.tui.screenshots import SCREENS

    committed = {path.stem for path in (ROOT / "screenshots").glob("*.svg")}
    assert committed == set(SCREENS)


def _screen_names() -> list[str]:
    from accountdesk.tui.screenshots import SCREENS

    return list(SCREENS)


@pytest.mark.parametrize("name", _screen_names())
def test_each_committed_screenshot_is_the_screen_drawn_now(name: str, tmp_path: Path) -> None:
    # The names alone (above) let a picture go stale: the tour's showed its
    # toast over the caption's words long after the toasts moved above it.
    from accountdesk.tui.screenshots import write_screenshots

    [drawn] = write_screenshots(tmp_path, [name])
    committed = ROOT / "screenshots" / f"{name}.svg"
    assert drawn.read_bytes() == committed.read_bytes(), (
        f"screenshots/{name}.svg is stale: run `accountdesk screenshots screenshots/` and look at it"
    )


def test_the_settings_guide_describes_every_setting() -> None:
    # The operator's table (what each setting is for) is prose beside the
    # generated reference; a new setting must get its line there too.
    from accountdesk.core.settings.model import Settings

    guide = (ROOT / "docs" / "operator" / "settings.md").read_text(encoding="utf-8")
    described = set(re.findall(r"^\| `\[?(\w+)", guide, re.M))
    fields = {name for name in Settings.model_fields if name != "ignored_keys"}
    assert fields - described == set()


def test_the_sandbox_guide_describes_every_flag_of_the_sandbox_command() -> None:
    # The developer's table says what each flag does beyond its help line; a
    # new flag must get its row there too.
    import argparse

    from accountdesk.cli.parser import build_parser

    [commands] = [
        action
        for action in build_parser(every=True)._actions
        if isinstance(action, argparse._SubParsersAction)
    ]
    flags = {
        option
        for action in commands.choices["sandbox"]._actions
        for option in action.option_strings
        if option.startswith("--") and option != "--help"
    }
    guide = (ROOT / "docs" / "developer" / "sandbox.md").read_text(encoding="utf-8")
    described = set(re.findall(r"^\| `(--[\w-]+)", guide, re.M))
    assert flags - described == set()


def _first_session_keys(readme: str) -> list[str]:
    """The keys of the README's "A first session" table (its first column)."""
    section = readme.split("## A first session", 1)[1].split("\n## ", 1)[0]
    keys: list[str] = []
    for line in section.splitlines():
        if not line.startswith("| ") or line.startswith(("| key ", "|---")):
            continue
        cell = line.split("|")[1]
        keys += re.findall(r"`([^`]+)`|\b(F\d+|Ctrl\+\w|Esc)\b", cell)
    return [quoted or bare for quoted, bare in keys]


def test_the_readmes_first_session_keys_are_bound(generator: ModuleType) -> None:
    # The README's short key table is written by hand (a few keys, in a
    # person's words); each key it names must be a key the app binds, as the
    # generated reference shows it.
    from textual.binding import Binding

    from accountdesk.tui.app import AccountDeskApp
    from accountdesk.tui.screens import dashboard_screens

    bound = {
        generator._key_text(key.strip())
        for owner in (AccountDeskApp, *dashboard_screens())
        for cls in owner.__mro__
        for item in vars(cls).get("BINDINGS", ())
        for key in (item if isinstance(item, Binding) else Binding(*item)).key.split(",")
    }
    bound.add(generator._key_text(AccountDeskApp.COMMAND_PALETTE_BINDING))
    named = _first_session_keys((ROOT / "README.md").read_text(encoding="utf-8"))
    assert len(named) >= 10, named
    assert [key for key in named if key not in bound] == []
    assert "Ctrl+Z" not in bound  # the check can fail: a key nobody binds is not found
