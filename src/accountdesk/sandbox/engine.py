"""The sandbox's domain engine: tokens, users, jobs, MFA sessions and blocks.

It knows nothing of HTTP: each operation is named after a contract endpoint,
runs the checks in the documented order and either returns a JSON-ready
record or raises :class:`SandboxError` carrying the catalogue's code. The ASGI
layer (``api.py``) only translates.

Check order on every ``/accounts`` operation: token (``AC-001``), user id
syntax and request body (``AC-100``), user exists (``AC-102``), the user's
scenario (``AC-103`` to ``AC-107``, ``AC-111``, ``AC-113`` to ``AC-115``),
MFA block (``AC-108``), job lookup (``AC-109``), job state (``AC-110``,
``AC-112``).

Every public method runs start to finish under one lock and never awaits, so
concurrent requests (100 identity starts at once) cannot interleave.
"""

from __future__ import annotations

import datetime as dt
import itertools
import logging
import math
import random
import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from accountdesk.contract import ERRORS, SANDBOX_CODES, Endpoint, ErrorSpec
from accountdesk.contract import endpoints as ep

from . import records
from .clock import MAX_DURATION, Clock, SystemClock
from .jobs import Job, JobKind, JobStatus, MfaSession
from .scenarios import (
    CREDENTIALS,
    SCENARIO_USERS,
    Credential,
    Scenario,
    is_valid_user_id,
)

__all__ = ["IdSource", "SandboxEngine", "SandboxError", "make_id_source"]

log = logging.getLogger("accountdesk.sandbox")

#: Makes a new identifier; called with ``"job"`` or ``"token"``.
IdSource = Callable[[str], str]

#: AC-100 has two texts; a malformed body outside the /accounts endpoints
#: (control endpoints) gets the attribute-shaped one, as on POST /token.
BODY_TEXT_ENDPOINT = ep.TOKEN

_KIND_OF = {
    ep.REFRESH.name: JobKind.BALANCE_REFRESH,
    ep.IDENTITY_START.name: JobKind.IDENTITY,
    ep.TRANSACTIONS_START.name: JobKind.TRANSACTIONS,
}
#: Kinds limited to one active job per user (AC-112); balance refresh is not.
_EXCLUSIVE_KINDS = frozenset({JobKind.IDENTITY, JobKind.TRANSACTIONS})
_MAX_ANSWER_LENGTH = 256


class SandboxError(Exception):
    """A service error: a catalogue code, answered as the error envelope."""

    def __init__(
        self,
        code: str,
        endpoint: Endpoint | None = None,
        *,
        user_id: str = "",
        job_id: str = "",
    ) -> None:
        spec: ErrorSpec = ERRORS.get(code) or SANDBOX_CODES[code]
        self.spec = spec
        self.code = code
        self.endpoint = endpoint
        self.status = spec.status_for(endpoint)
        self.message = spec.message_for(endpoint, user_id=user_id, job_id=job_id)
        super().__init__(f"{code} {self.status}: {self.message}")

    @property
    def body(self) -> dict[str, dict[str, str]]:
        """The error envelope of contract section 2."""
        return {"error": {"code": self.code, "message": self.message}}


def make_id_source(ids: int | IdSource | None = None) -> IdSource:
    """Turn the ``ids`` option of :func:`create_app` into an id source.

    None: random ids (a restarted sandbox never reuses a job id a dashboard
    may have stored). An int seed: ``job_0001``, ``job_0002``... and tokens
    from a seeded generator, for snapshot tests. A callable is used as is.
    """
    if callable(ids):
        return ids
    if ids is None:
        return lambda kind: (
            f"job_{secrets.token_hex(8)}" if kind == "job" else secrets.token_urlsafe(32)
        )
    rng = random.Random(ids)
    counter = itertools.count(1)
    return lambda kind: (
        f"job_{next(counter):04d}" if kind == "job" else f"tok_{rng.getrandbits(128):032x}"
    )


@dataclass(slots=True)
class _Token:
    credential: Credential
    expires_at: dt.datetime


def _whole(seconds: float) -> int | float:
    """3600 rather than 3600.0 on the wire, when the lifetime is whole seconds."""
    return int(seconds) if seconds.is_integer() else seconds


def _seconds(name: str, value: float) -> dt.timedelta:
    # Capped like a clock step, so "now + duration" can never leave the calendar.
    if not math.isfinite(value) or not 0 < value <= MAX_DURATION.total_seconds():
        raise ValueError(f"{name} must be > 0 and at most {MAX_DURATION.days} days")
    return dt.timedelta(seconds=value)


class SandboxEngine:
    """The stateful fake of the Account Data Service, without the HTTP."""

    def __init__(
        self,
        clock: Clock | None = None,
        *,
        job_seconds: float = 2.0,
        mfa_seconds: float = 300.0,
        token_seconds: float = 3600.0,
        block_seconds: float = 900.0,
        ids: int | IdSource | None = None,
    ) -> None:
        self.clock: Clock = clock if clock is not None else SystemClock()
        self.job_duration = _seconds("job_seconds", job_seconds)
        self.mfa_duration = _seconds("mfa_seconds", mfa_seconds)
        self.token_lifetime = _seconds("token_seconds", token_seconds)
        self.block_duration = _seconds("block_seconds", block_seconds)
        self._new_id = make_id_source(ids)
        self._lock = threading.RLock()
        self._tokens: dict[str, _Token] = {}
        self._jobs: dict[str, Job] = {}
        self._blocked_until: dict[str, dt.datetime] = {}
        self._started_at = self.clock.now()
        self._transactions_cache: dict[str, bytes] = {}

    # -- POST /token ----------------------------------------------------------

    def issue_token(self, api_key: object, api_secret: object) -> dict[str, Any]:
        """Exchange a key and secret for a bearer token (README, "Wire format")."""
        if not (
            isinstance(api_key, str) and isinstance(api_secret, str) and api_key and api_secret
        ):
            raise SandboxError("AC-100", ep.TOKEN)
        credential = next(
            (
                c
                for c in CREDENTIALS
                if c.api_key == api_key
                # bytes: compare_digest refuses non-ASCII str; surrogatepass:
                # JSON may carry a lone surrogate ("\ud800"), which UTF-8 cannot.
                and secrets.compare_digest(
                    c.api_secret.encode(), api_secret.encode("utf-8", "surrogatepass")
                )
            ),
            None,
        )
        if credential is None:
            raise SandboxError("AC-101", ep.TOKEN)
        with self._lock:
            now = self.clock.now()
            # Drop expired tokens here so a long demo does not grow without bound.
            self._tokens = {t: r for t, r in self._tokens.items() if r.expires_at > now}
            token = self._new_id("token")
            self._tokens[token] = _Token(credential, now + self.token_lifetime)
        log.info("issued a token for api key %s", credential.api_key)
        return {
            "access_token": token,
            "token_type": "Bearer",
            "expires_in": _whole(self.token_lifetime.total_seconds()),
        }

    # -- reads ----------------------------------------------------------------

    def get_account(self, token: str | None, user_id: str) -> dict[str, Any]:
        with self._lock:
            return records.account_record(self._check(ep.ACCOUNT, token, user_id))

    def get_balance(self, token: str | None, user_id: str) -> dict[str, Any]:
        with self._lock:
            scenario = self._check(ep.BALANCE, token, user_id)
            return records.balance_record(scenario, self._balance_as_of(user_id))

    def get_identity(self, token: str | None, user_id: str) -> dict[str, Any]:
        """Identity data; answered whether or not an identity job ran."""
        with self._lock:
            return records.identity_record(self._check(ep.IDENTITY_READ, token, user_id))

    def get_transactions(self, token: str | None, user_id: str) -> bytes:
        """All transactions as JSON bytes, built once per user and cached."""
        with self._lock:
            scenario = self._check(ep.TRANSACTIONS_READ, token, user_id)
            cached = self._transactions_cache.get(user_id)
            if cached is None:
                newest = self._started_at.date()
                cached = records.transactions_json(scenario, newest)
                self._transactions_cache[user_id] = cached
            return cached

    def get_job(self, token: str | None, user_id: str, job_id: str) -> dict[str, Any]:
        with self._lock:
            self._check(ep.JOB, token, user_id)
            return self._job(ep.JOB, user_id, job_id).record()

    # -- job starts -----------------------------------------------------------

    def refresh_balance(self, token: str | None, user_id: str) -> dict[str, Any]:
        return self._start(ep.REFRESH, token, user_id)

    def start_identity(self, token: str | None, user_id: str) -> dict[str, Any]:
        return self._start(ep.IDENTITY_START, token, user_id)

    def start_transactions(self, token: str | None, user_id: str) -> dict[str, Any]:
        return self._start(ep.TRANSACTIONS_START, token, user_id)

    def _start(self, endpoint: Endpoint, token: str | None, user_id: str) -> dict[str, Any]:
        kind = _KIND_OF[endpoint.name]
        with self._lock:
            scenario = self._check(endpoint, token, user_id)
            now = self.clock.now()
            if endpoint is ep.REFRESH and self._is_blocked(user_id, now):
                raise SandboxError("AC-108", endpoint, user_id=user_id)
            if kind in _EXCLUSIVE_KINDS and any(
                job.user_id == user_id and job.kind is kind and job.settle(now).is_active
                for job in self._jobs.values()
            ):
                raise SandboxError("AC-112", endpoint, user_id=user_id)
            mfa = None
            if scenario.mfa_answer is not None:
                mfa = MfaSession(
                    scenario.mfa_question, scenario.mfa_answer, now + self.mfa_duration
                )
            job = Job.start(self._new_id("job"), user_id, kind, now, self.job_duration, mfa)
            self._jobs[job.job_id] = job
            log.info("job %s (%s) started for %s", job.job_id, kind.value, user_id)
            return job.record()

    # -- MFA ------------------------------------------------------------------

    def submit_mfa(
        self, token: str | None, user_id: str, job_id: str, answer: object
    ) -> dict[str, Any]:
        """Record an MFA answer; it is checked by :meth:`resolve_mfa`.

        A job that is not waiting for MFA (running, finished, expired) keeps
        its state and the answer is ignored: AC-110 is not among this
        endpoint's codes.
        """
        with self._lock:
            self._check(ep.MFA_ANSWER, token, user_id, answer=answer)
            job = self._job(ep.MFA_ANSWER, user_id, job_id)
            if job.status is JobStatus.MFA_REQUIRED and job.mfa is not None:
                assert isinstance(answer, str)
                job.mfa.answer = answer
            return job.record()

    def resolve_mfa(self, token: str | None, user_id: str, job_id: str) -> dict[str, Any]:
        """Check the recorded answer: resume, count a wrong attempt, or block."""
        endpoint = ep.MFA_RESOLVE
        with self._lock:
            self._check(endpoint, token, user_id)
            job = self._job(endpoint, user_id, job_id)
            if job.mfa_expired:
                raise SandboxError("AC-110", endpoint, user_id=user_id, job_id=job_id)
            if job.status is not JobStatus.MFA_REQUIRED or job.mfa is None:
                return job.record()
            session = job.mfa
            if session.answer is None:
                raise SandboxError("AC-100", endpoint, user_id=user_id, job_id=job_id)
            now = self.clock.now()
            if session.answer.strip() == session.expected_answer:
                job.resume(now)
                log.info("job %s: MFA answered, resumed", job_id)
                return job.record()
            session.answer = None
            session.attempts_remaining -= 1
            job.updated_at = now
            if session.attempts_remaining <= 0:
                job.fail("AC-108", now)
                self._blocked_until[user_id] = now + self.block_duration
                log.info("job %s: too many wrong MFA answers; %s blocked", job_id, user_id)
            return job.record()

    # -- control (the /_sandbox endpoints) ------------------------------------

    def reset(self) -> None:
        """Forget jobs, MFA sessions and blocks; rewind the clock; keep tokens.

        Tokens stay valid (a dashboard stays signed in) but for no longer than
        a full lifetime from the rewound time.
        """
        with self._lock:
            self._jobs.clear()
            self._blocked_until.clear()
            self.clock.reset()
            latest = self.clock.now() + self.token_lifetime
            for record in self._tokens.values():
                record.expires_at = min(record.expires_at, latest)

    def advance_clock(self, seconds: object) -> dt.datetime:
        """Move the sandbox clock forward; returns the new time."""
        with self._lock:
            try:
                # The clock refuses a step that is not a number, negative, not
                # finite, over a year, or past its 100-year bound.
                self.clock.advance(seconds)  # type: ignore[arg-type]
            except (TypeError, ValueError):
                raise SandboxError("AC-100", BODY_TEXT_ENDPOINT) from None
            return self.clock.now()

    # -- checks ---------------------------------------------------------------

    def _check(
        self, endpoint: Endpoint, token: str | None, user_id: str, **body: object
    ) -> Scenario:
        """Token, user id and body syntax, user, scenario: in that order."""
        record = self._tokens.get(token) if token else None
        if (
            record is None
            or self.clock.now() >= record.expires_at
            or not record.credential.allows(user_id)
        ):
            raise SandboxError("AC-001", endpoint, user_id=user_id)
        if not is_valid_user_id(user_id) or not self._body_is_valid(body):
            raise SandboxError("AC-100", endpoint, user_id=user_id)
        scenario = SCENARIO_USERS.get(user_id)
        if scenario is None:
            raise SandboxError("AC-102", endpoint, user_id=user_id)
        code = scenario.failure_for(endpoint)
        if code is not None:
            raise SandboxError(code, endpoint, user_id=user_id)
        return scenario

    @staticmethod
    def _body_is_valid(body: dict[str, object]) -> bool:
        """The only body an /accounts operation takes: ``{"answer": "..."}``."""
        if "answer" not in body:
            return True
        answer = body["answer"]
        return isinstance(answer, str) and 0 < len(answer.strip()) <= _MAX_ANSWER_LENGTH

    def _job(self, endpoint: Endpoint, user_id: str, job_id: str) -> Job:
        job = self._jobs.get(job_id)
        # Another user's job is unknown to this user: no cross-user probing.
        if job is None or job.user_id != user_id:
            raise SandboxError("AC-109", endpoint, user_id=user_id, job_id=job_id)
        return job.settle(self.clock.now())

    def _is_blocked(self, user_id: str, now: dt.datetime) -> bool:
        until = self._blocked_until.get(user_id)
        if until is not None and now >= until:
            del self._blocked_until[user_id]
            return False
        return until is not None

    def _balance_as_of(self, user_id: str) -> dt.datetime:
        now = self.clock.now()
        refreshed = [
            job.completed_at
            for job in self._jobs.values()
            if job.user_id == user_id
            and job.kind is JobKind.BALANCE_REFRESH
            and job.settle(now).completed_at is not None
        ]
        return max(refreshed, default=self._started_at)
