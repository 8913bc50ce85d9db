"""Shared test configuration.

Async tests use anyio's pytest plugin (it ships with httpx's dependency anyio),
so no extra plugin is needed: mark a test ``@pytest.mark.anyio``.
"""

from __future__ import annotations

import pytest


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"
