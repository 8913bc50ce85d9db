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
        "accountdesk.sandbox.scenario",
        "accountdesk.sandbox.packs.summary",
        "accountdesk.sandbox.records",
        "accountdesk.sandbox.jobs",
        "accountdesk.sandbox.engine",
        "accountdesk.sandbox.errors",
        "accountdesk.sandbox.blocks",
        "accountdesk.sandbox.users",
        "accountdesk.sandbox.world",
        "accountdesk.sandbox.tokens",
        "accountdesk.sandbox.tenants",
        "accountdesk.sandbox.wire.middleware",
        "accountdesk.sandbox.wire.openapi",
        "accountdesk.sandbox.wire.openapi_schemas",
        "accountdesk.sandbox.wire.docs_page",
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


def test_the_api_document_is_built_when_first_asked_for_not_with_the_app() -> None:
    # The embedded sandbox never serves /openapi.json or /docs; building them
    # with the app cost every embedded sign-in 13-14 ms.
    code = """
import asyncio, sys, httpx, accountdesk.sandbox as s
app = s.create_app()
print("accountdesk.sandbox.wire.openapi" in sys.modules)
async def main():
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app), base_url="http://t") as c:
        docs, document = await c.get("/docs"), await c.get("/openapi.json")
    print("accountdesk.sandbox.wire.openapi" in sys.modules, docs.status_code, document.json()["openapi"])
asyncio.run(main())
"""
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    before, after = result.stdout.split("\n")[:2]
    assert before == "False"
    assert after.startswith("True 200 3.")
