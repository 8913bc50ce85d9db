"""Access tokens: fetched lazily, cached, renewed ahead of expiry, one renewal at a time.

:class:`TokenCache` owns the current token and the single-flight renewal.
The token and the ``Authorization`` value are kept as ``SecretStr`` end to
end; the plain text exists only inside the expression that puts it in a
header. A token of unknown lifetime (none announced, or one that cannot be
used: see ``_token_answer``) is kept until the service refuses it; the
session then renews it once and replays the request. Every wait is bounded by the caller's :class:`Deadline`: waiting for
another caller's renewal counts against one's own call, and the lock is
never held past the renewing call's deadline.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from pydantic import SecretStr

from accountdesk.client._redact import LOGGER_NAME, SecretRegistry
from accountdesk.client._wire import Deadline
from accountdesk.client.errors import AccountDataError, TransportError
from accountdesk.client.models import TokenGrant

logger = logging.getLogger(LOGGER_NAME)

#: Renew this long before the announced expiry, at most: min(60 s, 10 %).
RENEWAL_MARGIN_CAP = 60.0
RENEWAL_MARGIN_SHARE = 0.1

TokenFetch = Callable[[Deadline], Awaitable[TokenGrant]]


class TokenCache:
    """The current access token and its renewal, one renewal at a time.

    ``fetch`` performs ``POST /token`` within a deadline and raises an
    :class:`~accountdesk.client.AccountDataError` on failure; ``monotonic``
    is the clock the expiry is measured on (injectable for tests); each new
    token goes into ``registry`` (the client's redaction registry).

    Concurrent callers share one renewal: they wait on one lock, and whoever
    gets it after a renewal finished takes that result (the new token or the
    same error) instead of asking again. So 200 concurrent first calls make
    one token request, and with a wrong secret they all fail on that one
    ``AC-101``; a token request that drips ends in one time-out for all.
    """

    def __init__(
        self, fetch: TokenFetch, monotonic: Callable[[], float], registry: SecretRegistry
    ) -> None:
        self._fetch = fetch
        self._monotonic = monotonic
        self._registry = registry
        self._lock = asyncio.Lock()
        self._authorization: SecretStr | None = None  # "Bearer <token>"
        self._renew_at: float | None = None
        self._finished = 0  # renewals that ended, with a token or an error
        self._failure: AccountDataError | None = None

    def _is_fresh(self) -> bool:
        if self._authorization is None:
            return False
        return self._renew_at is None or self._monotonic() < self._renew_at

    async def authorization(self, deadline: Deadline) -> SecretStr:
        """The ``Authorization`` header value, fetching or renewing the token if due."""
        if self._is_fresh():
            assert self._authorization is not None
            return self._authorization
        finished = self._finished
        async with _Held(self._lock, deadline):
            if self._is_fresh():
                assert self._authorization is not None
                return self._authorization
            self._raise_shared_failure(finished)
            return await self._renew_locked(deadline)

    async def renew(self, stale: SecretStr | None, deadline: Deadline) -> SecretStr:
        """Replace the token ``stale`` (an ``Authorization`` value) unless already replaced."""
        finished = self._finished
        async with _Held(self._lock, deadline):
            current = self._authorization
            if current is not None and current != stale and self._is_fresh():
                return current
            self._raise_shared_failure(finished)
            return await self._renew_locked(deadline)

    async def renew_now(self, deadline: Deadline) -> SecretStr:
        """Fetch a new token whatever the state of the current one (sign-in)."""
        async with _Held(self._lock, deadline):
            return await self._renew_locked(deadline)

    def _raise_shared_failure(self, finished: int) -> None:
        # A renewal ended while we waited for the lock and it failed: share
        # its error rather than asking the token endpoint once per waiter. A
        # caller arriving later (sign-in after a typo fixed) asks again.
        if self._finished != finished and self._failure is not None:
            raise self._failure

    async def _renew_locked(self, deadline: Deadline) -> SecretStr:
        self._failure = None
        started = self._monotonic()
        try:
            grant = await self._fetch(deadline)
        except AccountDataError as exc:
            self._failure = exc
            self._finished += 1
            raise
        self._finished += 1
        self._registry.add_token(grant.access_token)
        for note in grant.notes:  # odd but usable: said once per token, never with it
            logger.log(note.level, "token answer: %s", note.text)
        # token_type is a scheme and the token header-safe (the grant and the fetch saw to it).
        scheme, token = grant.token_type, grant.access_token.get_secret_value()
        self._authorization = SecretStr(f"{scheme} {token}")
        del token
        lifetime = grant.expires_in
        if lifetime is not None:
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


class _Held:
    """``async with``: the lock, acquired within the deadline, or a time-out error."""

    def __init__(self, lock: asyncio.Lock, deadline: Deadline) -> None:
        self._lock = lock
        self._deadline = deadline

    async def __aenter__(self) -> None:
        remaining = self._deadline.remaining()
        try:
            async with asyncio.timeout(max(remaining, 0.0)):
                await self._lock.acquire()
        except TimeoutError:
            raise TransportError(
                "timeout",
                f"No access token within {self._deadline.total:g} s: "
                "the token request did not finish in time.",
                method="POST",
                path="/token",
            ) from None

    async def __aexit__(self, *exc_info: object) -> None:
        self._lock.release()
