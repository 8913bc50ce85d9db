"""The dashboard as the benchmarks run it: a real desk and app in a scratch folder.

The same pieces ``accountdesk`` builds (settings through the real loader, a
:class:`~accountdesk.core.desk.Desk`, :class:`~accountdesk.tui.app.AccountDeskApp`),
with only what a benchmark must control swapped: the folders (a scratch
one), the keyring (none), and, for floors, the transport.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
from pydantic import SecretStr

from accountdesk.client import AccountDataClient
from accountdesk.core.connection import default_client_factory
from accountdesk.core.desk import Desk
from accountdesk.core.settings.model import load_settings
from accountdesk.core.settings.paths import AppDirs

__all__ = ["NoKeyring", "make_desk", "stub_transport"]

#: The sandbox's public demo credential (README, "Credentials").
API_KEY = "sandbox_key"
API_SECRET = "sandbox_secret"


class NoKeyring:
    """A keyring backend that is not there: the machine's keyring is not what we measure."""

    priority = -1


def make_desk(
    home: Path,
    *,
    base_url: str | None = None,
    transport: httpx.AsyncBaseTransport | None = None,
    sandbox_options: dict[str, Any] | None = None,
    poll_interval: float = 1.0,
    client_options: dict[str, Any] | None = None,
) -> Desk:
    """A desk on the embedded sandbox (``base_url`` None) or a live URL, files under ``home``.

    ``client_options`` go to every ``AccountDataClient`` the desk makes.
    """
    dirs = AppDirs(home / "config" / "config.toml", home / "data", home / "logs")
    flags = {
        "base_url": base_url or "sandbox",
        "api_key": API_KEY,
        "api_secret": API_SECRET,
    }
    settings = load_settings(dirs.config_path, flags=flags)
    factory = None
    if client_options:
        options = dict(client_options)

        def factory(
            base_url: str,
            api_key: str,
            api_secret: SecretStr,
            transport: httpx.AsyncBaseTransport | None,
            **given: Any,
        ) -> AccountDataClient:
            return default_client_factory(
                base_url, api_key, api_secret, transport, **{**given, **options}
            )

    return Desk(
        settings,
        dirs,
        transport=transport,
        client_factory=factory,
        sandbox_options=sandbox_options,
        poll_interval=poll_interval,
        secret_backend=NoKeyring(),
    )


def stub_transport() -> httpx.MockTransport:
    """Answers sign-in and the scenario list at once, as the sandbox would (no sandbox built).

    The floor of "sign-in to lookup": the same screens, the same client and
    requests, without the embedded sandbox (Starlette import, app build, its
    thread).
    """
    from accountdesk.sandbox.scenarios import catalogue

    scenarios = json.dumps(catalogue()).encode()
    grant = json.dumps(
        {"access_token": "stub-token", "token_type": "Bearer", "expires_in": 3600}
    ).encode()

    def answer(request: httpx.Request) -> httpx.Response:
        headers = {"content-type": "application/json"}
        if request.url.path == "/token":
            return httpx.Response(200, content=grant, headers=headers)
        if request.url.path == "/_sandbox/scenarios":
            return httpx.Response(200, content=scenarios, headers=headers)
        return httpx.Response(404, json={"error": {"code": "AC-904", "message": "not in the stub"}})

    return httpx.MockTransport(answer)
