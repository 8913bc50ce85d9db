"""The async client of the Account Data Service."""

from __future__ import annotations

import asyncio
import json as _json
import logging
import re
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from random import Random
from typing import Any, TypeVar

import httpx
from pydantic import SecretStr

from accountdesk.contract import Endpoint, endpoints

from ._auth import BearerAuth, TokenCache
from ._paths import build_path
from ._redact import LOGGER_NAME, install_logger_filter, redact, register_secret
from ._responses import parse_record, raise_for_error
from ._retry import RetryPolicy, transport_reason
from ._urls import normalise_base_url
from .errors import (
    JobWatchTimeout,
    MalformedResponseError,
    TransportError,
)
from .models import (
    Account,
    Balance,
    Identity,
    Job,
    ServiceModel,
    TokenGrant,
    Transactions,
)

logger = logging.getLogger(LOGGER_NAME)
install_logger_filter()

ModelT = TypeVar("ModelT", bound=ServiceModel)
Sleep = Callable[[float], Awaitable[Any]]

_STARTED = "accountdesk.started"
_JSON_TYPE = {"Content-Type": "application/json"}
# Visible ASCII without spaces: what fits in one Authorization header word.
_HEADER_TOKEN = re.compile(r"[\x21-\x7e]+")


def _as_secret(value: str | SecretStr) -> SecretStr:
    return value if isinstance(value, SecretStr) else SecretStr(value)


def _mask(value: str) -> str:
    return value[:4] + "***" if len(value) > 8 else "***"


def _job_state(job: Job) -> Any:
    """What makes two readings of a job different states for ``watch_job``."""
    return (
        job.status,
        job.mfa.model_dump() if job.mfa else None,
        job.error.model_dump() if job.error else None,
    )


#: Bodies larger than this are parsed in a worker thread.
PARSE_IN_THREAD_BYTES = 512 * 1024


class AccountDataClient:
    """Async, typed client of the Account Data Service.

    Use it as an async context manager (or call :meth:`aclose`)::

        async with AccountDataClient(base_url, api_key, api_secret) as client:
            account = await client.get_account("user_good")

    The access token is fetched on the first call (or by :meth:`sign_in`),
    cached, renewed ahead of its expiry and, when the service refuses it with
    ``AC-001``, renewed and the request replayed once. Transient failures are
    retried per :class:`~accountdesk.client._retry.RetryPolicy`; ``timeout``
    applies to each attempt. Every failure raises an
    :class:`~accountdesk.client.AccountDataError`.

    ``transport`` lets tests and the embedded sandbox plug in
    ``httpx.ASGITransport`` or ``httpx.MockTransport``; ``sleep``,
    ``monotonic`` and ``rng`` make retry and watch timing testable.
    """

    def __init__(
        self,
        base_url: str,
        api_key: str | SecretStr,
        api_secret: str | SecretStr,
        transport: httpx.AsyncBaseTransport | None = None,
        timeout: float | httpx.Timeout = 10.0,
        *,
        max_attempts: int = 3,
        backoff_base: float = 0.1,
        backoff_cap: float = 2.0,
        retry_after_cap: float = 30.0,
        sleep: Sleep = asyncio.sleep,
        monotonic: Callable[[], float] = time.monotonic,
        rng: Random | None = None,
        watch_interval: float = 1.0,
        watch_max_interval: float = 10.0,
        watch_backoff: float = 1.5,
        watch_timeout: float = 600.0,
    ) -> None:
        self._base_url = normalise_base_url(base_url)
        self._api_key = _as_secret(api_key)
        self._api_secret = _as_secret(api_secret)
        register_secret(self._api_secret.get_secret_value())
        self._policy = RetryPolicy(
            max_attempts=max_attempts,
            backoff_base=backoff_base,
            backoff_cap=backoff_cap,
            retry_after_cap=retry_after_cap,
            rng=rng or Random(),
        )
        self._sleep = sleep
        self._monotonic = monotonic
        self._watch_defaults = (watch_interval, watch_max_interval, watch_backoff, watch_timeout)
        self._http = httpx.AsyncClient(
            base_url=self._base_url,
            transport=transport,
            timeout=timeout,
            follow_redirects=False,
            headers={"Accept": "application/json", "User-Agent": "accountdesk"},
            event_hooks={"request": [self._log_request], "response": [self._log_response]},
        )
        self._tokens = TokenCache(self._fetch_token, monotonic)
        self._auth = BearerAuth(self._tokens)

    # -- lifecycle ---------------------------------------------------------

    @property
    def base_url(self) -> str:
        """The service URL, without a trailing slash."""
        return self._base_url

    async def __aenter__(self) -> AccountDataClient:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        """Close the connection pool (and the transport)."""
        await self._http.aclose()

    def __repr__(self) -> str:
        key = _mask(self._api_key.get_secret_value())
        return f"{type(self).__name__}(base_url={self._base_url!r}, api_key={key!r})"

    # -- the service's operations -----------------------------------------

    async def sign_in(self) -> None:
        """Fetch a new token now, validating the credentials.

        Raises :class:`~accountdesk.client.InvalidCredentialsError` (AC-101)
        or :class:`~accountdesk.client.InvalidRequestError` (AC-100) when the
        service refuses them.
        """
        await self._tokens.renew_now()

    async def get_account(self, user_id: str) -> Account:
        """``GET /accounts/{user_id}``."""
        return await self._call(endpoints.ACCOUNT, Account, user_id=user_id)

    async def get_balance(self, user_id: str) -> Balance:
        """``GET /accounts/{user_id}/balance``."""
        return await self._call(endpoints.BALANCE, Balance, user_id=user_id)

    async def refresh_balance(self, user_id: str) -> Job:
        """``POST /accounts/{user_id}/refresh``: start a balance refresh job."""
        return await self._call(endpoints.REFRESH, Job, user_id=user_id)

    async def submit_mfa(self, user_id: str, job_id: str, answer: str | SecretStr) -> Job:
        """``POST /accounts/{user_id}/mfa/{job_id}``: record an answer to the MFA question."""
        text = answer.get_secret_value() if isinstance(answer, SecretStr) else answer
        return await self._call(
            endpoints.MFA_ANSWER, Job, json={"answer": text}, user_id=user_id, job_id=job_id
        )

    async def resolve_mfa(self, user_id: str, job_id: str) -> Job:
        """``POST /accounts/{user_id}/mfa/{job_id}/resolve``: check the recorded answer."""
        return await self._call(endpoints.MFA_RESOLVE, Job, user_id=user_id, job_id=job_id)

    async def start_identity(self, user_id: str) -> Job:
        """``POST /accounts/{user_id}/identity``: start an identity job."""
        return await self._call(endpoints.IDENTITY_START, Job, user_id=user_id)

    async def get_identity(self, user_id: str) -> Identity:
        """``GET /accounts/{user_id}/identity``."""
        return await self._call(endpoints.IDENTITY_READ, Identity, user_id=user_id)

    async def start_transactions(self, user_id: str) -> Job:
        """``POST /accounts/{user_id}/transactions``: start a transaction job."""
        return await self._call(endpoints.TRANSACTIONS_START, Job, user_id=user_id)

    async def get_transactions(self, user_id: str) -> Transactions:
        """``GET /accounts/{user_id}/transactions``: every transaction, newest first."""
        return await self._call(endpoints.TRANSACTIONS_READ, Transactions, user_id=user_id)

    async def get_job(self, user_id: str, job_id: str) -> Job:
        """``GET /accounts/{user_id}/job/{job_id}``: a job of any kind."""
        return await self._call(endpoints.JOB, Job, user_id=user_id, job_id=job_id)

    async def watch_job(
        self,
        user_id: str,
        job_id: str,
        *,
        interval: float | None = None,
        max_interval: float | None = None,
        backoff: float | None = None,
        timeout: float | None = None,  # noqa: ASYNC109 (the watch deadline, public API)
    ) -> AsyncIterator[Job]:
        """Poll a job and yield each new state until it ends or waits for MFA.

        The first state is always yielded, then only changes. Polling stops
        after a ``completed``/``failed`` or ``mfa_required`` state (answer the
        MFA, then watch again). The pause between polls starts at
        ``interval`` and grows by ``backoff`` up to ``max_interval``;
        :class:`~accountdesk.client.JobWatchTimeout` is raised once
        ``timeout`` seconds have passed without an end. Cancelling the
        consuming task stops the polling; nothing runs in the background.
        """
        default_interval, default_max, default_backoff, default_timeout = self._watch_defaults
        pause = default_interval if interval is None else interval
        cap = default_max if max_interval is None else max_interval
        growth = default_backoff if backoff is None else backoff
        limit = default_timeout if timeout is None else timeout
        if not pause > 0 or not growth >= 1:
            # Either would poll the service in a tight loop until the deadline.
            raise ValueError("watch_job needs interval > 0 and backoff >= 1")
        path = build_path(endpoints.JOB, user_id=user_id, job_id=job_id)
        deadline = self._monotonic() + limit
        last_state: Any = object()
        while True:
            job = await self.get_job(user_id, job_id)
            state = _job_state(job)
            if state != last_state:
                last_state = state
                yield job
            if job.is_terminal or job.needs_mfa:
                return
            remaining = deadline - self._monotonic()
            if remaining <= 0:
                raise JobWatchTimeout(job, limit, method=endpoints.JOB.method, path=path)
            await self._sleep(min(pause, remaining))
            pause = min(pause * growth, cap)

    # -- plumbing ----------------------------------------------------------

    def _secrets(self) -> tuple[str | None, ...]:
        return (self._api_secret.get_secret_value(), self._tokens.token)

    async def _call(
        self, endpoint: Endpoint, model: type[ModelT], *, json: Any = None, **params: str
    ) -> ModelT:
        path = build_path(endpoint, **params)
        response = await self._send(endpoint.method, path, json=json, auth=self._auth)
        raise_for_error(response, endpoint.method, path, self._secrets())
        if len(response.content) > PARSE_IN_THREAD_BYTES:
            # Parsing user_bulk's 14 MB takes most of a second: off the event
            # loop, so a UI driving this client keeps painting meanwhile.
            return await asyncio.to_thread(
                parse_record, response, model, endpoint.method, path, self._secrets()
            )
        return parse_record(response, model, endpoint.method, path, self._secrets())

    async def _fetch_token(self) -> TokenGrant:
        method, path = endpoints.TOKEN.method, endpoints.TOKEN.path
        credentials = {
            "api_key": self._api_key.get_secret_value(),
            "api_secret": self._api_secret.get_secret_value(),
        }
        response = await self._send(method, path, json=credentials, auth=None)
        raise_for_error(response, method, path, self._secrets())
        grant = parse_record(response, TokenGrant, method, path, self._secrets())
        # Both go into a header: a space, CR/LF or non-ASCII would split it or
        # make httpx fail with an error text that quotes the token.
        problem = None
        if not _HEADER_TOKEN.fullmatch(grant.access_token.get_secret_value()):
            problem = "access_token is empty or not a header-safe token"
        elif not _HEADER_TOKEN.fullmatch(grant.token_type.strip() or "Bearer"):
            problem = "token_type is not a single word"
        if problem is not None:
            # No excerpt: the body holds the token.
            raise MalformedResponseError(
                response.status_code, "", problem=problem, method=method, path=path
            )
        return grant

    async def _send(
        self, method: str, path: str, *, json: Any, auth: httpx.Auth | None
    ) -> httpx.Response:
        """Send with the retry policy; the body is read. Raises TransportError."""
        policy = self._policy
        # Serialised here with ensure_ascii: httpx's own encoding fails on a
        # lone surrogate (UnicodeEncodeError); its escape is valid JSON.
        body = None if json is None else _json.dumps(json).encode("ascii")
        headers = None if body is None else _JSON_TYPE
        attempt = 1
        while True:
            request = self._http.build_request(method, path, content=body, headers=headers)
            try:
                response = await self._http.send(request, auth=auth)
            except httpx.TransportError as exc:
                reason = transport_reason(exc)
                if attempt < policy.max_attempts and policy.retries_exception(method, exc):
                    await self._pause(attempt, None, method, path, type(exc).__name__)
                    attempt += 1
                    continue
                raise TransportError(
                    reason,
                    f"{method} {path} failed after {attempt} attempt(s): {self._describe(exc)}",
                    method=method,
                    path=path,
                ) from exc
            except httpx.DecodingError as exc:
                raise MalformedResponseError(
                    None, "", problem="the body could not be decoded", method=method, path=path
                ) from exc
            except httpx.HTTPError as exc:  # redirects loop and the like: still ours to raise
                raise TransportError(
                    "network",
                    f"{method} {path} failed: {self._describe(exc)}",
                    method=method,
                    path=path,
                ) from exc
            if attempt < policy.max_attempts and policy.retries_response(method, response):
                await self._pause(attempt, response, method, path, f"HTTP {response.status_code}")
                attempt += 1
                continue
            return response

    def _describe(self, exc: httpx.HTTPError) -> str:
        # httpx's texts may quote a header value; never let one carry a credential.
        text = redact(str(exc).strip(), self._secrets())
        name = type(exc).__name__
        return f"{name}: {text}" if text else name

    async def _pause(
        self, attempt: int, response: httpx.Response | None, method: str, path: str, why: str
    ) -> None:
        delay = self._policy.delay(attempt, response, time.time())
        logger.debug(
            "%s %s: %s; retry %d/%d in %.2f s",
            method,
            path,
            why,
            attempt,
            self._policy.max_attempts - 1,
            delay,
        )
        await self._sleep(delay)

    async def _log_request(self, request: httpx.Request) -> None:
        request.extensions[_STARTED] = time.perf_counter()

    async def _log_response(self, response: httpx.Response) -> None:
        request = response.request
        started = request.extensions.get(_STARTED)
        elapsed = (time.perf_counter() - started) * 1000 if started is not None else float("nan")
        # Only method, path and status: headers and bodies carry credentials.
        logger.debug(
            "%s %s -> %d (%.1f ms)",
            request.method,
            request.url.raw_path.decode("ascii", "replace"),
            response.status_code,
            elapsed,
        )
