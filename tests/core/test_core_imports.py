"""The core never loads Textual or the sandbox; the client loads neither either."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

CORE_MODULES = [
    "accountdesk.core.desk",
    "accountdesk.core.settings.model",
    "accountdesk.core.settings.file",
    "accountdesk.core.store",
    "accountdesk.core.jobs.tracker",
    "accountdesk.core.jobs.poller",
    "accountdesk.core.recents",
    "accountdesk.core.mfa",
    "accountdesk.core.transactions.view",
    "accountdesk.core.jobs.rows",
    "accountdesk.core.errors.log",
    "accountdesk.core.logs",
]


def _loaded_after(modules: list[str]) -> set[str]:
    code = (
        "import importlib, json, sys\n"
        f"for name in {modules!r}: importlib.import_module(name)\n"
        "print(json.dumps(sorted(sys.modules)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return set(json.loads(out.stdout))


@pytest.mark.parametrize(
    "forbidden", ["textual", "rich", "accountdesk.sandbox", "fastapi", "accountdesk.tui"]
)
def test_the_core_loads_no_textual_and_no_sandbox(forbidden: str) -> None:
    loaded = _loaded_after(CORE_MODULES)
    assert not {m for m in loaded if m == forbidden or m.startswith(forbidden + ".")}


def test_the_client_loads_no_textual_no_web_framework_no_core() -> None:
    loaded = _loaded_after(["accountdesk.client"])
    for forbidden in ("textual", "fastapi", "starlette", "accountdesk.core", "accountdesk.sandbox"):
        assert not {m for m in loaded if m == forbidden or m.startswith(forbidden + ".")}, forbidden
