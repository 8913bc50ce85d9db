"""How the app reaches the service: the embedded sandbox or a real base URL.

This is the one place outside ``cli`` that may import the sandbox (an
import-linter contract says so). Nothing here runs before the first frame:
the embedded sandbox (and with it Starlette) is built only when the transport
is first needed, in a thread, so the sign-in screen paints at once.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from accountdesk.core.jobs.sandbox_instance import SandboxLocks

if TYPE_CHECKING:
    import httpx
    from pydantic import SecretStr

    from accountdesk.client import AccountDataClient

__all__ = [
    "ClientFactory",
    "ServiceConnection",
    "WatchedTransport",
    "build_embedded_transport",
    "scenario_pack_problems",
]

log = logging.getLogger(__name__)


#: How the embedded sandbox is addressed (no socket behind it).
EMBEDDED_BASE_URL = "http://sandbox"


class ClientFactory(Protocol):
    def __call__(
        self,
        base_url: str,
        api_key: str,
        api_secret: SecretStr,
        transport: httpx.AsyncBaseTransport | None,
        **options: Any,
    ) -> AccountDataClient: ...


def default_client_factory(
    base_url: str,
    api_key: str,
    api_secret: SecretStr,
    transport: httpx.AsyncBaseTransport | None,
    **options: Any,
) -> AccountDataClient:
    from accountdesk.client import AccountDataClient

    return AccountDataClient(base_url, api_key, api_secret, transport=transport, **options)


def build_embedded_transport(**sandbox_options: Any) -> httpx.AsyncBaseTransport:
    """A transport to a fresh in-process sandbox (imports Starlette: call off the UI's path).

    ``sandbox_options`` go to :func:`accountdesk.sandbox.create_app`; ``frozen_at``
    (a datetime) freezes its clock there, for screenshots and demos that must
    look the same every time.
    """
    from accountdesk.sandbox import FrozenClock, embedded_transport

    frozen_at = sandbox_options.pop("frozen_at", None)
    if frozen_at is not None:
        sandbox_options["clock"] = FrozenClock(frozen_at)
    # Served on its own thread and loop: building user_bulk's 14 MB never
    # stalls the UI's loop.
    return embedded_transport(**sandbox_options)


def scenario_pack_problems(text: str, source: str) -> list[str]:
    """Why the embedded sandbox could not read the scenario pack ``text`` ([] when it can).

    Here because the sandbox reads packs and this is the core's one door to
    it: the recorder checks what it writes with the sandbox's own reader.
    """
    from accountdesk.sandbox.packs.reading import PackError, parse_pack

    try:
        parse_pack(text, source=source)
    except PackError as error:
        return error.problems
    return []


class WatchedTransport:
    """Wraps the transport to notice whether the service answers at all.

    Any HTTP answer (an error status included) means the service is
    reachable; a refused, reset or timed-out connection means it is not.
    Nothing about the request or answer is kept.
    """

    def __init__(
        self,
        inner: httpx.AsyncBaseTransport,
        on_answer: Callable[[], None],
        on_no_answer: Callable[[], None],
    ) -> None:
        self.inner = inner
        self._on_answer = on_answer
        self._on_no_answer = on_no_answer

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        import httpx

        try:
            response = await self.inner.handle_async_request(request)
        except httpx.TransportError:
            self._on_no_answer()
            raise
        self._on_answer()
        return response

    async def aclose(self) -> None:
        await self.inner.aclose()


class ServiceConnection:
    """The service the app talks to, and the transport that reaches it."""

    def __init__(
        self,
        *,
        base_url: str | None,
        transport: httpx.AsyncBaseTransport | None = None,
        client_factory: ClientFactory | None = None,
        client_options: dict[str, Any] | None = None,
        sandbox_options: dict[str, Any] | None = None,
        watch: tuple[Callable[[], None], Callable[[], None]] | None = None,
        sandbox_locks: SandboxLocks | None = None,
    ) -> None:
        #: None: the embedded sandbox.
        self.base_url = base_url
        self._sandbox_options = sandbox_options or {}
        self._built = False  # True once we built the embedded transport (ours to close)
        #: (on_answer, on_no_answer): told about every request's fate.
        self._watch = watch
        self._transport = transport
        self._client_factory: ClientFactory = client_factory or default_client_factory
        self._client_options = client_options or {}
        self._lock = asyncio.Lock()
        #: Which embedded sandbox we run (a new id per build) and the others'.
        self.sandbox_locks = sandbox_locks or SandboxLocks(None)

    @property
    def embedded(self) -> bool:
        return self.base_url is None

    @property
    def url(self) -> str:
        """The URL requests go to (the embedded sandbox's pseudo-URL included)."""
        return self.base_url or EMBEDDED_BASE_URL

    async def transport(self) -> httpx.AsyncBaseTransport | None:
        """The injected transport, the embedded sandbox's (built once), or None (network)."""
        if self._transport is None and self.embedded:
            async with self._lock:
                if self._transport is None:
                    log.info("starting the embedded sandbox")
                    self._transport = await asyncio.to_thread(
                        build_embedded_transport, **self._sandbox_options
                    )
                    self._built = True
                    await asyncio.to_thread(self.sandbox_locks.start)
        return self._transport

    async def warm_up(self) -> None:
        """Build the embedded sandbox ahead of sign-in; a failure is only logged (sign-in reports it)."""
        try:
            await self.transport()
        except Exception:
            log.exception("the embedded sandbox failed to start")

    async def prepare_transactions(self, user_id: str | None) -> None:
        """The embedded sandbox we built: have it build ``user_id``'s transactions now.

        ``user_id`` None: every large generated answer (before any lookup).

        Off the request path: its first read finds the answer built (or
        being built), not a half-second build competing with the first
        batch. Nothing for another service or an injected transport.
        """
        if not self._built or self._transport is None:
            return
        from accountdesk.sandbox import prepare_large_transactions, prepare_transactions

        # A wrapped transport (tests, a recorder) may hide the sandbox: then nothing.
        app = getattr(self._transport, "app", None)
        if app is None:
            return
        try:
            if user_id is None:
                await asyncio.to_thread(prepare_large_transactions, app)
            else:
                await asyncio.to_thread(prepare_transactions, app, user_id)
        except Exception:  # only a head start: the read builds it anyway
            log.exception("the embedded sandbox could not build %s's transactions ahead", user_id)

    async def _client_transport(self) -> httpx.AsyncBaseTransport | None:
        transport = await self.transport()
        if self._watch is None:
            return transport
        if transport is None:
            import httpx

            transport = httpx.AsyncHTTPTransport()
        return WatchedTransport(transport, *self._watch)  # type: ignore[return-value]

    async def sign_in(self, api_key: str, api_secret: SecretStr) -> AccountDataClient:
        """A client whose credentials the service accepted (raises the client's errors)."""
        client = self._client_factory(
            self.url, api_key, api_secret, await self._client_transport(), **self._client_options
        )
        try:
            await client.sign_in()
        except BaseException:
            await client.aclose()
            raise
        return client

    async def aclose(self) -> None:
        """Stop the embedded sandbox's thread, if this connection built one."""
        if self.embedded and self._transport is not None and self._built:
            self.sandbox_locks.stop()
            await self._transport.aclose()

    @property
    def sandbox_options(self) -> dict[str, Any]:
        """What the embedded sandbox is (or will be) built with."""
        return dict(self._sandbox_options)

    async def rebuild_sandbox(self, **changes: Any) -> None:
        """A fresh embedded sandbox with ``changes`` to its options (a tour's own packs).

        Only a sandbox this connection built is replaced; the next request
        builds the new one. Sign out first: the old one's tokens are gone.
        """
        if not self.embedded or (self._transport is not None and not self._built):
            return
        async with self._lock:
            old, self._transport = self._transport, None
            self._sandbox_options = {**self._sandbox_options, **changes}
            self.sandbox_locks.stop()  # its jobs are gone with it
        if old is not None:
            await old.aclose()

    def with_base_url(self, base_url: str) -> ServiceConnection:
        """The same kind of connection to another live base URL."""
        return ServiceConnection(
            base_url=base_url,
            transport=self._transport,
            client_factory=self._client_factory,
            client_options=self._client_options,
            watch=self._watch,
        )
