"""How the app reaches the service: the embedded sandbox or a real base URL.

Nothing here runs before the first frame: the embedded sandbox (and with it
FastAPI) is imported and built only when the transport is first needed, in
a thread, so the login screen paints at once.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

import httpx

if TYPE_CHECKING:
    from accountdesk.client import AccountDataClient

#: ``factory(base_url, api_key, api_secret, transport) -> AccountDataClient``.
ClientFactory = Callable[[str, str, str, "httpx.AsyncBaseTransport | None"], "AccountDataClient"]

log = logging.getLogger(__name__)


def default_client_factory(
    base_url: str, api_key: str, api_secret: str, transport: httpx.AsyncBaseTransport | None
) -> AccountDataClient:
    from accountdesk.client import AccountDataClient

    return AccountDataClient(base_url, api_key, api_secret, transport=transport)


def build_embedded_transport() -> httpx.AsyncBaseTransport:
    """An in-process transport to a fresh sandbox (imports FastAPI: call off the UI path)."""
    from accountdesk.sandbox import create_app

    return httpx.ASGITransport(app=create_app())


class ServiceConnection:
    """The service the app talks to, and the transport that reaches it."""

    def __init__(
        self,
        *,
        base_url: str,
        sandbox: bool,
        transport: httpx.AsyncBaseTransport | None = None,
        client_factory: ClientFactory | None = None,
    ) -> None:
        self.base_url = base_url
        self.sandbox = sandbox
        self._transport = transport
        self._client_factory = client_factory or default_client_factory
        self._lock = asyncio.Lock()

    @property
    def base_url_key(self) -> str:
        """``"sandbox"`` for the embedded service, else the base URL."""
        return "sandbox" if self.sandbox else self.base_url

    async def transport(self) -> httpx.AsyncBaseTransport | None:
        """The injected transport, the embedded sandbox's (built once), or None (network)."""
        if self._transport is None and self.sandbox:
            async with self._lock:
                if self._transport is None:
                    log.info("starting the embedded sandbox")
                    self._transport = await asyncio.to_thread(build_embedded_transport)
        return self._transport

    async def sign_in(self, api_key: str, api_secret: str) -> AccountDataClient:
        """A client whose credentials the service accepted (raises the client's errors)."""
        client = self._client_factory(self.base_url, api_key, api_secret, await self.transport())
        try:
            await client.sign_in()
        except BaseException:
            await client.aclose()
            raise
        return client

    def with_base_url(self, base_url: str) -> ServiceConnection:
        """The same kind of connection to another live base URL."""
        return ServiceConnection(
            base_url=base_url,
            sandbox=False,
            transport=self._transport,
            client_factory=self._client_factory,
        )
