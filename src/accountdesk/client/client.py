"""The async client of the Account Data Service."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from random import Random
from typing import Any, TypeVar

import httpx
from pydantic import SecretStr

from accountdesk.client._auth import TokenCache
from accountdesk.client._paths import build_path
from accountdesk.client._redact import LOGGER_NAME, SecretRegistry, install_logger_filter
from accountdesk.client._responses import (
    PARSE_IN_THREAD_BYTES,
    parse_large,
    parse_record,
    raise_for_error,
)
from accountdesk.client._retry import RetryPolicy
from accountdesk.client._sandbox import SandboxControl
from accountdesk.client._session import Session
from accountdesk.client._token_answer import token_problem
from accountdesk.client._urls import normalise_base_url
from accountdesk.client._wire import Answer, Deadline, JsonBody
from accountdesk.client.errors import JobWatchTimeout, MalformedResponseError
from accountdesk.client.models import (
    Account,
    Balance,
    Identity,
    Job,
    ServiceModel,
    TokenGrant,
    Transactions,
)
from accountdesk.client.transactions.fill import TransactionColumns
from accountdesk.client.transactions.read import (
    check_transactions_body,
    stream_columns,
)
from accountdesk.contract import Endpoint, endpoints

logger = logging.getLogger(LOGGER_NAME)
install_logger_filter()

ModelT = TypeVar("ModelT", bound=ServiceModel)
Sleep = Callable[[float], Awaitable[Any]]

_STARTED = "accountdesk.started"

#: Default whole-request deadline of one attempt, in seconds.
ATTEMPT_TIMEOUT = 10.0
#: Default deadline of one call (token fetch, attempts and pauses), in seconds.
CALL_TIMEOUT = 25.0
#: Default cap on a decoded answer body: user_bulk's ~14 MB with room to spare.
MAX_RESPONSE_BYTES = 64 * 2**20


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


class AccountDataClient:
    """Async, typed client of the Account Data Service.

    Use it as an async context manager (or call :meth:`aclose`)::

        async with AccountDataClient(base_url, api_key, api_secret) as client:
            account = await client.get_account("user_good")

    The access token is fetched on the first call (or by :meth:`sign_in`),
    cached, renewed ahead of its expiry and, when the service refuses it with
    ``AC-001``, renewed and the request replayed once. Transient failures are
    retried per :class:`~accountdesk.client.RetryPolicy`. Every failure
    raises an :class:`~accountdesk.client.AccountDataError`.

    Deadlines: ``timeout`` is httpx's, per connect and per read (not per
    read of a streamed body, which the call's deadline bounds);
    ``attempt_timeout`` (default 10 s) bounds one whole attempt (connect,
    send, read the whole body), so a server dripping a byte a second cannot
    hold a call; ``call_timeout`` (default 25 s) bounds a whole call, token
    fetch, retries and pauses included. Either ends in a
    :class:`~accountdesk.client.TransportError` with reason ``"timeout"``.
    ``max_response_bytes`` (default 64 MiB) caps a decoded body; past it the
    connection is closed and :class:`~accountdesk.client.ResponseTooLargeError`
    raised. ``max_response_rows`` bounds a streamed transactions read the
    same way (default: one row per 128 bytes of the cap, 524,288 at 64 MiB).

    Secrets: ``api_key`` and ``api_secret`` may be ``str`` or ``SecretStr``;
    the client keeps them, and every token, as ``SecretStr``, and its
    :attr:`secret_registry` lets a :class:`~accountdesk.client.RedactingFilter`
    hide them from log records.

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
        attempt_timeout: float = ATTEMPT_TIMEOUT,
        call_timeout: float = CALL_TIMEOUT,
        max_response_bytes: int = MAX_RESPONSE_BYTES,
        max_response_rows: int | None = None,
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
        # Wrapped first, rebinding the parameters: a plain secret must not
        # sit in this frame if the URL check below raises.
        api_secret = _as_secret(api_secret)
        api_key = _as_secret(api_key)
        self._base_url = normalise_base_url(base_url)
        for name, value in (("attempt_timeout", attempt_timeout), ("call_timeout", call_timeout)):
            if not value > 0:
                raise ValueError(f"{name} must be a positive number of seconds")
        if max_response_bytes < 1:
            raise ValueError("max_response_bytes must be at least 1")
        self._api_key = api_key
        self._api_secret = api_secret
        self._registry = SecretRegistry(api_secret)
        policy = RetryPolicy(
            max_attempts=max_attempts,
            backoff_base=backoff_base,
            backoff_cap=backoff_cap,
            retry_after_cap=retry_after_cap,
            rng=rng or Random(),
        )
        self._monotonic = monotonic
        self._sleep = sleep
        self._watch_defaults = (watch_interval, watch_max_interval, watch_backoff, watch_timeout)
        self._http = httpx.AsyncClient(
            base_url=self._base_url,
            transport=transport,
            timeout=timeout,
            follow_redirects=False,
            headers={"Accept": "application/json", "User-Agent": "accountdesk"},
            event_hooks={"request": [self._log_request], "response": [self._log_response]},
        )
        self._tokens = TokenCache(self._fetch_token, monotonic, self._registry)
        self._session = Session(
            self._http,
            policy=policy,
            tokens=self._tokens,
            registry=self._registry,
            attempt_timeout=attempt_timeout,
            call_timeout=call_timeout,
            max_response_bytes=max_response_bytes,
            max_response_rows=max_response_rows,
            sleep=sleep,
            monotonic=monotonic,
        )

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

    @property
    def secret_registry(self) -> SecretRegistry:
        """The exact secrets of this client (API secret, current and previous token).

        Give it to a :class:`~accountdesk.client.RedactingFilter`
        (``registries=[...]`` or :meth:`~accountdesk.client.RedactingFilter.watch`)
        to hide them in an app's log file.
        """
        return self._registry

    @property
    def sandbox(self) -> SandboxControl:
        """The sandbox's control endpoints (outside the contract), without a control token."""
        return SandboxControl(self._session)

    def sandbox_control(self, control_token: str | SecretStr | None = None) -> SandboxControl:
        """The sandbox's control endpoints, sending ``control_token`` when given.

        A sandbox served on a non-loopback interface requires the token
        (header ``X-Sandbox-Control-Token``); it is kept as a secret.
        """
        return SandboxControl(self._session, _as_secret(control_token) if control_token else None)

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
        await self._tokens.renew_now(self._session.deadline())

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
        """``POST /accounts/{user_id}/mfa/{job_id}``: record an answer to the MFA question.

        Pass the answer as a ``SecretStr`` to keep it out of every frame.
        """
        answer = _as_secret(answer)  # rebound: the plain answer leaves this frame
        return await self._call(
            endpoints.MFA_ANSWER, Job, body=JsonBody(answer=answer), user_id=user_id, job_id=job_id
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
        """``GET /accounts/{user_id}/transactions``: every transaction, newest first.

        The streamed read's rules hold: a list missing or sent twice is
        malformed; the service's error envelope, even with HTTP 200, its error.
        """
        return await self._call(
            endpoints.TRANSACTIONS_READ, Transactions, user_id=user_id, then=check_transactions_body
        )

    def stream_transaction_columns(self, user_id: str) -> AsyncIterator[TransactionColumns]:
        """``GET /accounts/{user_id}/transactions`` as batches of columns, as they arrive.

        The one way the client reads a list as columns (no model per row: what
        a table wants), cut into batches as it arrives (the first of a few
        rows, then ~1 MB each), each decoded and checked by the rules of
        :meth:`get_transactions`; each batch carries ``user_id`` and
        ``currency`` as known so far. A list wanted whole is these batches
        collected.
        A bad row raises :class:`~accountdesk.client.MalformedResponseError`
        naming it, an answer cut short
        :class:`~accountdesk.client.StreamInterruptedError` saying after how
        many rows: the batches before either are good.
        """
        path = build_path(endpoints.TRANSACTIONS_READ, user_id=user_id)
        return stream_columns(self._session, path, self._registry)

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

    async def _call(
        self,
        endpoint: Endpoint,
        model: type[ModelT],
        *,
        body: JsonBody | None = None,
        then: Callable[[Answer, str, str, SecretRegistry], None] | None = None,
        **params: str,
    ) -> ModelT:
        """One call's record; ``then``: a further check of the answer once it has parsed."""
        method, path = endpoint.method, build_path(endpoint, **params)
        answer = await self._session.send(
            method, path, body=body, deadline=self._session.deadline()
        )
        raise_for_error(answer, method, path, self._registry)

        def parsed(parse: Callable[..., ModelT]) -> ModelT:
            record = parse(answer, model, method, path, self._registry)
            if then is not None:
                then(answer, method, path, self._registry)
            return record

        if len(answer.content) > PARSE_IN_THREAD_BYTES:
            # Parsing user_bulk's 14 MB takes most of a second: off the event
            # loop, so a UI driving this client keeps painting meanwhile.
            return await asyncio.to_thread(parsed, parse_large)
        return parsed(parse_record)

    async def _fetch_token(self, deadline: Deadline) -> TokenGrant:
        method, path = endpoints.TOKEN.method, endpoints.TOKEN.path
        credentials = JsonBody(api_key=self._api_key, api_secret=self._api_secret)
        answer = await self._session.send(
            method, path, body=credentials, authenticated=False, deadline=deadline
        )
        raise_for_error(answer, method, path, self._registry)
        grant = parse_record(answer, TokenGrant, method, path, self._registry)
        # It goes into a header: CR/LF would split it, non-ASCII make httpx
        # fail with an error text that quotes the token.
        problem = token_problem(grant.access_token.get_secret_value())
        if problem is not None:
            # No excerpt: the body holds the token.
            raise MalformedResponseError(
                answer.status_code, "", problem=problem, method=method, path=path
            )
        return grant

    async def _log_request(self, request: httpx.Request) -> None:
        request.extensions[_STARTED] = time.perf_counter()

    async def _log_response(self, response: httpx.Response) -> None:
        request = response.request
        started = request.extensions.get(_STARTED)
        elapsed = (time.perf_counter() - started) * 1000 if started is not None else float("nan")
        # Only method, path and status: headers and bodies carry credentials.
        logger.debug(
            "%s %s -> %d (%.1f ms to the headers)",
            request.method,
            request.url.raw_path.decode("ascii", "replace"),
            response.status_code,
            elapsed,
        )
