"""Access tokens: fetched lazily, cached, renewed once at a time, replayed once.

:class:`TokenCache` owns the current token and the single-flight renewal;
:class:`BearerAuth` is the httpx ``Auth`` flow that puts the token on every
request and, when the service refuses it with 403 ``AC-001``, renews it once
and replays the request once.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncGenerator, Awaitable, Callable, Generator

import httpx

from ._redact import LOGGER_NAME, register_secret
from ._responses import service_code
from .errors import AccountDataError, NotAuthorizedError
from .models import TokenGrant

logger = logging.getLogger(LOGGER_NAME)

#: Renew this long before the announced expiry, at most: min(60 s, 10 %).
RENEWAL_MARGIN_CAP = 60.0
RENEWAL_MARGIN_SHARE = 0.1


class TokenCache:
    """The current access token and its renewal, one renewal at a time.

    ``fetch`` performs ``POST /token`` and raises an
    :class:`~accountdesk.client.AccountDataError` on failure; ``monotonic``
    is the clock the expiry is measured on (injectable for tests).

    Concurrent callers share one renewal: they wait on one lock, and whoever
    gets it after a renewal finished takes that result (the new token or the
    same error) instead of asking again. So 200 concurrent first calls make
    one token request, and with a wrong secret they all fail on that one
    ``AC-101``.
    """

    def __init__(
        self, fetch: Callable[[], Awaitable[TokenGrant]], monotonic: Callable[[], float]
    ) -> None:
        self._fetch = fetch
        self._monotonic = monotonic
        self._lock = asyncio.Lock()
        self._authorization: str | None = None  # "Bearer <token>"
        self._token: str | None = None
        self._renew_at: float | None = None
        self._finished = 0  # renewals that ended, with a token or an error
        self._failure: AccountDataError | None = None

    @property
    def token(self) -> str | None:
        """The raw token, for redaction only; never log or display it."""
        return self._token

    def _is_fresh(self) -> bool:
        if self._authorization is None:
            return False
        return self._renew_at is None or self._monotonic() < self._renew_at

    async def authorization(self) -> str:
        """The ``Authorization`` header value, fetching or renewing the token if due."""
        if self._is_fresh():
            assert self._authorization is not None
            return self._authorization
        finished = self._finished
        async with self._lock:
            if self._is_fresh():
                assert self._authorization is not None
                return self._authorization
            self._raise_shared_failure(finished)
            return await self._renew_locked()

    async def renew(self, stale: str | None) -> str:
        """Replace the token ``stale`` (an ``Authorization`` value) unless already replaced."""
        finished = self._finished
        async with self._lock:
            current = self._authorization
            if current is not None and current != stale and self._is_fresh():
                return current
            self._raise_shared_failure(finished)
            return await self._renew_locked()

    async def renew_now(self) -> str:
        """Fetch a new token whatever the state of the current one (sign-in)."""
        async with self._lock:
            return await self._renew_locked()

    def _raise_shared_failure(self, finished: int) -> None:
        # A renewal ended while we waited for the lock and it failed: share
        # its error rather than asking the token endpoint once per waiter. A
        # caller arriving later (sign-in after a typo fixed) asks again.
        if self._finished != finished and self._failure is not None:
            raise self._failure

    async def _renew_locked(self) -> str:
        self._failure = None
        started = self._monotonic()
        try:
            grant = await self._fetch()
        except AccountDataError as exc:
            self._failure = exc
            self._finished += 1
            raise
        self._finished += 1
        token = grant.access_token.get_secret_value()
        register_secret(token)
        scheme = grant.token_type.strip() or "Bearer"
        if scheme.lower() == "bearer":
            scheme = "Bearer"
        self._token = token
        self._authorization = f"{scheme} {token}"
        lifetime = grant.expires_in
        if lifetime is not None and lifetime > 0:
            margin = min(RENEWAL_MARGIN_CAP, RENEWAL_MARGIN_SHARE * lifetime)
            # Measured from before the request went out, so never late.
            self._renew_at = started + lifetime - margin
        else:
            self._renew_at = None
        logger.debug(
            "access token renewed (lifetime %s)",
            f"{lifetime:g} s" if lifetime is not None else "unknown",
        )
        return self._authorization


class BearerAuth(httpx.Auth):
    """httpx auth flow: bearer token on each request, one renewal and replay on AC-001."""

    # The flow reads a 403 body to tell AC-001 from other refusals.
    requires_response_body = True

    def __init__(self, tokens: TokenCache) -> None:
        self._tokens = tokens

    def sync_auth_flow(
        self, request: httpx.Request
    ) -> Generator[httpx.Request, httpx.Response, None]:
        raise RuntimeError("AccountDataClient is async only")

    async def async_auth_flow(
        self, request: httpx.Request
    ) -> AsyncGenerator[httpx.Request, httpx.Response]:
        authorization = await self._tokens.authorization()
        request.headers["Authorization"] = authorization
        response = yield request
        if response.status_code != 403:
            return
        # Overriding async_auth_flow skips httpx's own read for
        # requires_response_body, so read the (small) refusal here.
        await response.aread()
        if service_code(response) != NotAuthorizedError.code:
            return
        # The token may have expired early or been revoked; a refusal with a
        # fresh token is final (no second replay, so no loop).
        renewed = await self._tokens.renew(stale=authorization)
        path = request.url.raw_path.decode("ascii", "replace")
        logger.debug("%s %s refused with AC-001; replaying once", request.method, path)
        request.headers["Authorization"] = renewed
        yield request
