"""Import hygiene: only the ASGI layer pulls in the web framework."""

from __future__ import annotations

import subprocess
import sys

import pytest

_CHECK = """
import sys
import {module}
third_party = sorted(
    name for name in {{m.split(".")[0] for m in sys.modules}}
    if name not in sys.stdlib_module_names and name != "accountdesk" and not name.startswith("_")
)
print(",".join(third_party))
"""


@pytest.mark.parametrize(
    "module",
    [
        "accountdesk.sandbox",
        "accountdesk.sandbox.clock",
        "accountdesk.sandbox.scenarios",
        "accountdesk.sandbox.records",
        "accountdesk.sandbox.jobs",
        "accountdesk.sandbox.engine",
        "accountdesk.sandbox.errors",
        "accountdesk.sandbox.blocks",
        "accountdesk.sandbox.users",
        "accountdesk.sandbox.world",
        "accountdesk.sandbox.tokens",
        "accountdesk.sandbox.tenants",
        "accountdesk.sandbox.middleware",
        "accountdesk.sandbox.openapi",
        "accountdesk.sandbox.openapi_schemas",
        "accountdesk.sandbox.docs_page",
    ],
)
def test_domain_modules_import_only_the_standard_library(module: str) -> None:
    result = subprocess.run(
        [sys.executable, "-c", _CHECK.format(module=module)],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    assert result.stdout.strip() == "", f"{module} imports {result.stdout.strip()}"


def test_creating_an_app_imports_starlette_but_not_fastapi() -> None:
    # The check above must be able to fail: the ASGI layer does import Starlette.
    # FastAPI is not imported at all: it cost a quarter of a second of every
    # embedded sign-in and bought nothing the sandbox uses.
    code = (
        "import sys, accountdesk.sandbox as s; s.create_app(); "
        "print('starlette' in sys.modules, 'fastapi' in sys.modules)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert result.stdout.strip() == "True False"
