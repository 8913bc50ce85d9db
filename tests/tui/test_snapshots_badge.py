"""Snapshots at 80x24 of the badge before sign-in: a sandbox over HTTP, and not known yet."""

from __future__ import annotations

from typing import Any

import httpx
from tui_helpers import settle

SIZE = (80, 24)


def test_a_sandbox_over_http_says_sandbox_before_sign_in(snap_compare: Any, make_app: Any) -> None:
    # The in-process sandbox behind a base URL, as `accountdesk sandbox` serves it.
    app = make_app(sandbox=False, base_url="http://127.0.0.1:8765")

    async def run_before(pilot: Any) -> None:
        await settle(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_a_service_that_has_not_answered_gets_a_neutral_badge(
    snap_compare: Any, make_app: Any
) -> None:
    def refuse(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("connection refused", request=request)

    app = make_app(
        sandbox=False, base_url="https://api.bank.example", transport=httpx.MockTransport(refuse)
    )

    async def run_before(pilot: Any) -> None:
        await settle(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)
