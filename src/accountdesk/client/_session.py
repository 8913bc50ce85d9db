"""One call on the wire: token, attempts with deadlines, the size cap, retries, one replay.

:class:`Session` is the plumbing under :class:`~accountdesk.client.AccountDataClient`
and :class:`~accountdesk.client.SandboxControl`: both send through it, so
they share the connection pool, the token, the deadlines and the size cap.

- Each attempt has a whole-request deadline (``attempt_timeout``: connect,
  send and read the whole body), because httpx's own timeout is per read and
  a server sending a byte a second would hold a request forever.
- Each call has an overall deadline (``call_timeout``) covering the token
  fetch, every attempt and every pause between attempts. A pause that would
  end past it is not taken: the call ends with the last failure at once.
- Bodies are read as a stream and refused past ``max_response_bytes``
  (decoded), so a gzip bomb is cut off rather than inflated.
- A 403 ``AC-001`` (or any 401) on an authenticated call renews the token
  once and replays once (it is not a retry and does not count as an attempt).
"""

from __future__ import annotations

import asyncio
import logging
import sys
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import httpx
from pydantic import SecretStr

from accountdesk.client._auth import TokenCache
from accountdesk.client._bounds import max_rows_for
from accountdesk.client._redact import LOGGER_NAME, SecretRegistry, redact
from accountdesk.client._responses import service_code
from accountdesk.client._retry import RetryPolicy, transport_reason
from accountdesk.client._sanitise import service_text
from accountdesk.client._wire import (
    Answer,
    Deadline,
    JsonBody,
    OpenAnswer,
    cut_frames,
    merged_headers,
    read_capped,
)
from accountdesk.client.errors import MalformedResponseError, NotAuthorizedError, TransportError

logger = logging.getLogger(LOGGER_NAME)

Sleep = Callable[[float], Awaitable[Any]]


class _AttemptTimedOut(Exception):
    def __init__(self, budget: float) -> None:
        super().__init__(budget)
        self.budget = budget


class Session:
    """Sends requests for one client; see the module docstring."""

    def __init__(
        self,
        http: httpx.AsyncClient,
        *,
        policy: RetryPolicy,
        tokens: TokenCache,
        registry: SecretRegistry,
        attempt_timeout: float,
        call_timeout: float,
        max_response_bytes: int,
        max_response_rows: int | None,
        sleep: Sleep,
        monotonic: Callable[[], float],
    ) -> None:
        self.http = http
        self.policy = policy
        self.tokens = tokens
        self.registry = registry
        self.attempt_timeout = attempt_timeout
        self.call_timeout = call_timeout
        self.max_response_bytes = max_response_bytes
        if max_response_rows is None:  # one row per BYTES_PER_ROW of the cap
            max_response_rows = max_rows_for(max_response_bytes)
        if max_response_rows < 1:
            raise ValueError("max_response_rows must be at least 1")
        #: The most rows a streamed transactions read hands out.
        self.max_response_rows = max_response_rows
        self._sleep = sleep
        self._monotonic = monotonic

    def deadline(self) -> Deadline:
        """A new call's deadline, ``call_timeout`` from now."""
        return Deadline.after(self.call_timeout, self._monotonic)

    async def send(
        self,
        method: str,
        path: str,
        *,
        deadline: Deadline,
        body: JsonBody | None = None,
        authenticated: bool = True,
        headers: Mapping[str, str | SecretStr] | None = None,
        keep_open: bool = False,
    ) -> Answer:
        """One call: the final answer (any status), or TransportError / ResponseTooLargeError.

        ``keep_open``: a 2xx answer is an :class:`OpenAnswer` whose body is
        still to be read (the caller reads it and closes it); other answers
        are read whole, as always, for their error.
        """
        attempt = 1
        stale: SecretStr | None = None
        replayed = False
        while True:
            authorization: SecretStr | None = None
            if authenticated:
                if stale is None:
                    authorization = await self.tokens.authorization(deadline)
                else:
                    authorization = await self.tokens.renew(stale, deadline)
            try:
                answer = await self._attempt(
                    method, path, deadline, body, authorization, headers, keep_open=keep_open
                )
            except (httpx.TransportError, _AttemptTimedOut) as exc:
                maybe_retry = (
                    self.policy.retries_exception(method, exc)
                    if isinstance(exc, httpx.TransportError)
                    else self.policy.retries_timeout(method)
                )
                if (
                    attempt < self.policy.max_attempts
                    and maybe_retry
                    and await self._pause(attempt, None, method, path, _name(exc), deadline)
                ):
                    attempt += 1
                    continue
                raise self._transport_error(exc, method, path, attempt, deadline) from (
                    None if isinstance(exc, _AttemptTimedOut) else exc
                )
            except httpx.DecodingError as exc:
                raise MalformedResponseError(
                    None, "", problem="the body could not be decoded", method=method, path=path
                ) from exc
            except httpx.HTTPError as exc:  # anything else httpx raises: still ours to raise
                raise TransportError(
                    "network",
                    f"{method} {path} failed: {self._describe(exc)}",
                    method=method,
                    path=path,
                ) from exc
            if authorization is not None and not replayed and _refuses_token(answer):
                # The token may have expired (its lifetime may be unknown) or
                # been revoked; a refusal with a fresh token is final (one
                # replay, so no loop).
                logger.debug(
                    "%s %s refused the token (HTTP %d); renewing and replaying once",
                    method,
                    path,
                    answer.status_code,
                )
                replayed, stale = True, authorization
                continue
            if attempt < self.policy.max_attempts and self.policy.retries_response(method, answer):
                why = f"HTTP {answer.status_code}"
                if await self._pause(attempt, answer, method, path, why, deadline):
                    attempt += 1
                    continue
            return answer

    async def _attempt(
        self,
        method: str,
        path: str,
        deadline: Deadline,
        body: JsonBody | None,
        authorization: SecretStr | None,
        headers: Mapping[str, str | SecretStr] | None,
        *,
        keep_open: bool = False,
    ) -> Answer:
        budget = min(self.attempt_timeout, deadline.remaining())
        if budget <= 0:
            raise _AttemptTimedOut(min(self.attempt_timeout, deadline.total))
        request = self.http.build_request(
            method,
            path,
            content=None if body is None else body.encode(),
            headers=merged_headers(authorization, body, headers),
            # A body read as it streams is bounded by the call's deadline (its
            # reader's): httpx's per-read timeout ended a stalled one first,
            # as a "network" failure that said nothing.
            timeout=_without_read_timeout(self.http.timeout)
            if keep_open
            else httpx.USE_CLIENT_DEFAULT,
        )
        scope = asyncio.timeout(budget)
        try:
            async with scope:
                response = await self.http.send(request, stream=True)
                if keep_open and response.is_success:
                    return OpenAnswer(response)
                try:
                    # Straight into an Answer (its repr hides the body): the
                    # bytes of a token answer never sit in a local here.
                    return Answer(
                        response.status_code,
                        response.headers,
                        await read_capped(
                            response, self.max_response_bytes, lambda: (method, path)
                        ),
                    )
                finally:
                    await response.aclose()
        except TimeoutError:
            if not scope.expired():
                raise
            raise _AttemptTimedOut(budget) from None
        except BaseException as exc:
            cut_frames(exc, sys.exc_info()[2])
            raise

    def _transport_error(
        self, exc: Exception, method: str, path: str, attempts: int, deadline: Deadline
    ) -> TransportError:
        tries = f"{attempts} attempt{'s' if attempts != 1 else ''}"
        if isinstance(exc, _AttemptTimedOut):
            within = exc.budget if deadline.remaining() > 0 else deadline.total
            detail = f"{method} {path}: no complete answer within {within:g} s ({tries})."
            return TransportError("timeout", detail, method=method, path=path)
        assert isinstance(exc, httpx.TransportError)
        detail = f"{method} {path} failed after {tries}: {self._describe(exc)}"
        return TransportError(transport_reason(exc), detail, method=method, path=path)

    def _describe(self, exc: httpx.HTTPError) -> str:
        # httpx's texts may quote a header value or server bytes: redacted, inert, short.
        text = service_text(redact(str(exc).strip(), registries=[self.registry]), 300)
        name = type(exc).__name__
        return f"{name}: {text}" if text else name

    async def _pause(
        self,
        attempt: int,
        answer: Answer | None,
        method: str,
        path: str,
        why: str,
        deadline: Deadline,
    ) -> bool:
        """Wait before the next attempt; False when the wait would cross the deadline."""
        delay = self.policy.delay(attempt, answer, time.time())
        if delay >= deadline.remaining():
            logger.debug("%s %s: %s; no retry, the call's deadline is nearer", method, path, why)
            return False
        logger.debug(
            "%s %s: %s; retry %d/%d in %.2f s",
            method,
            path,
            why,
            attempt,
            self.policy.max_attempts - 1,
            delay,
        )
        await self._sleep(delay)
        return True


def _without_read_timeout(timeout: httpx.Timeout) -> httpx.Timeout:
    return httpx.Timeout(connect=timeout.connect, read=None, write=timeout.write, pool=timeout.pool)


def _refuses_token(answer: Answer) -> bool:
    """The service's 403 ``AC-001``, or any 401: a gateway's answer to an expired token.

    The contract answers 403 ``AC-001`` on every endpoint but ``/token``; a 401
    there comes from something in front of the service that no longer takes
    the token (``WWW-Authenticate: Bearer error="invalid_token"``).
    """
    if answer.status_code == 401:
        return True
    return answer.status_code == 403 and service_code(answer) == NotAuthorizedError.code


def _name(exc: Exception) -> str:
    return "no complete answer in time" if isinstance(exc, _AttemptTimedOut) else type(exc).__name__
