"""A sandbox world: one clock, and the users, jobs, MFA sessions and blocks on it.

Without tenants the sandbox has one world; with them each trainee has one
of their own (:mod:`.tenants`), so one trainee's block or running job never
touches another's. The engine checks the token first and then hands each
operation to the caller's world.

Check order after the token: user id syntax and body (``AC-100``), user
exists (``AC-102``), the user's scenario (its pack's forced answers: the
shipped users' ``AC-103`` to ``AC-107``, ``AC-111``, ``AC-113`` to
``AC-115``), MFA block (``AC-108``), job lookup (``AC-109``), job state
(``AC-110``, ``AC-112``). A forced answer that applies to some calls only
counts the calls of each user and endpoint in this world (a reset forgets
the counts).

Every operation runs start to finish under the world's lock and never
awaits, so concurrent requests (100 identity starts at once) cannot
interleave. Knows nothing of HTTP.
"""

from __future__ import annotations

import datetime as dt
import logging
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from accountdesk.contract import MANUAL_USER_CODES, Endpoint
from accountdesk.contract import endpoints as ep
from accountdesk.sandbox import records
from accountdesk.sandbox.clock import Clock
from accountdesk.sandbox.errors import SandboxError
from accountdesk.sandbox.jobs import Job, JobKind, JobStatus, MfaSession
from accountdesk.sandbox.scenarios import Scenario, is_valid_user_id
from accountdesk.sandbox.users import EXCLUSIVE_KINDS, UserState

__all__ = ["Durations", "World"]

log = logging.getLogger("accountdesk.sandbox")

#: AC-100 has two texts; a malformed body outside the /accounts endpoints
#: (control endpoints) gets the attribute-shaped one, as on POST /token.
BODY_TEXT_ENDPOINT = ep.TOKEN

_KIND_OF = {
    ep.REFRESH.name: JobKind.BALANCE_REFRESH,
    ep.IDENTITY_START.name: JobKind.IDENTITY,
    ep.TRANSACTIONS_START.name: JobKind.TRANSACTIONS,
}
_MAX_ANSWER_LENGTH = 256


@dataclass(frozen=True, slots=True)
class Durations:
    """How long things last in a world (``create_app``'s ``*_seconds``)."""

    job: dt.timedelta
    mfa: dt.timedelta
    token: dt.timedelta
    block: dt.timedelta


class World:
    """The state one trainee (or everybody, without tenants) sees."""

    def __init__(
        self,
        name: str,
        clock: Clock,
        durations: Durations,
        scenarios: Mapping[str, Scenario],
        transactions: records.TransactionCache,
        new_id: Callable[[str], str],
    ) -> None:
        self.name = name
        self.clock = clock
        self.durations = durations
        self.scenarios = scenarios
        self.lock = threading.RLock()
        self._transactions = transactions
        self._new_id = new_id
        self._jobs: dict[str, Job] = {}
        self._users: dict[str, UserState] = {}
        #: Calls that reached each user's scenario, per (user, endpoint name).
        self._calls: dict[tuple[str, str], int] = {}
        self.started_at = clock.now()

    def __repr__(self) -> str:
        return f"World({self.name!r}, {len(self._jobs)} jobs)"

    # -- reads ----------------------------------------------------------------

    def account(self, user_id: str) -> dict[str, Any]:
        """``GET /accounts/{user_id}``."""
        with self.lock:
            return records.account_record(self._check(ep.ACCOUNT, user_id))

    def balance(self, user_id: str) -> dict[str, Any]:
        """``GET .../balance``: as of the last completed refresh (or the world's start)."""
        with self.lock:
            scenario = self._check(ep.BALANCE, user_id)
            refreshed = self._user(scenario).refreshed_as_of(self.clock.now())
            if refreshed is None and scenario.balance.as_of is None:
                refreshed = self.started_at
            return records.balance_record(scenario, refreshed)

    def identity(self, user_id: str) -> dict[str, Any]:
        """``GET .../identity``; answered whether or not an identity job ran."""
        with self.lock:
            return records.identity_record(self._check(ep.IDENTITY_READ, user_id))

    def transactions(self, user_id: str) -> records.Pieces:
        """``GET .../transactions`` as pieces of JSON, as they are built (checked first)."""
        with self.lock:
            scenario = self._check(ep.TRANSACTIONS_READ, user_id)
        # Outside the world's lock: the first build of user_bulk takes a while.
        return self._transactions.pieces(scenario)

    def job(self, user_id: str, job_id: str) -> dict[str, Any]:
        """``GET .../job/{job_id}``: a job of any kind."""
        with self.lock:
            self._check(ep.JOB, user_id, job_id=job_id)
            return self._job(ep.JOB, user_id, job_id).record(self.clock.now())

    # -- job starts -----------------------------------------------------------

    def start(self, endpoint: Endpoint, user_id: str) -> dict[str, Any]:
        """Start a job of the kind ``endpoint`` starts (refresh, identity, transactions)."""
        kind = _KIND_OF[endpoint.name]
        with self.lock:
            scenario = self._check(endpoint, user_id)
            now = self.clock.now()
            user = self._user(scenario)
            # Only refresh answers AC-108: the one start the contract lets answer it.
            if endpoint is ep.REFRESH and user.budget.blocked_at(now) is not None:
                raise SandboxError(
                    "AC-108", endpoint, user_id=user_id, retry_after=user.budget.retry_after(now)
                )
            if kind in EXCLUSIVE_KINDS and user.has_active(kind, now):
                raise SandboxError("AC-112", endpoint, user_id=user_id)
            mfa = None
            plan = scenario.mfa_for(kind)
            if plan is not None:
                mfa = MfaSession(
                    plan.question,
                    plan.answer,
                    now + (plan.session or self.durations.mfa),
                    budget=user.budget,
                )
            job_plan = scenario.job_plan(kind)
            job = Job.start(
                self._new_id("job"),
                user_id,
                kind,
                now,
                job_plan.seconds or self.durations.job,
                mfa,
                job_plan.failure,
            )
            self._jobs[job.job_id] = job
            user.started(job)
            log.info("job %s (%s) started for %s", job.job_id, kind.value, user_id)
            return job.record(now)

    # -- MFA ------------------------------------------------------------------

    def submit_mfa(self, user_id: str, job_id: str, answer: object) -> dict[str, Any]:
        """Record an MFA answer; it is checked by :meth:`resolve_mfa`.

        A job that is not waiting for MFA (running, finished, expired) keeps
        its state and the answer is ignored: AC-110 is not among this
        endpoint's codes.
        """
        with self.lock:
            self._check(ep.MFA_ANSWER, user_id, job_id=job_id, answer=answer)
            job = self._job(ep.MFA_ANSWER, user_id, job_id)
            if job.status is JobStatus.MFA_REQUIRED and job.mfa is not None:
                assert isinstance(answer, str)
                job.mfa.answer = answer
            return job.record(self.clock.now())

    def resolve_mfa(self, user_id: str, job_id: str) -> dict[str, Any]:
        """Check the recorded answer: resume, count a wrong answer, or block the user."""
        endpoint = ep.MFA_RESOLVE
        with self.lock:
            scenario = self._check(endpoint, user_id, job_id=job_id)
            job = self._job(endpoint, user_id, job_id)
            now = self.clock.now()
            if job.mfa_expired:
                raise SandboxError("AC-110", endpoint, user_id=user_id, job_id=job_id)
            if job.status is not JobStatus.MFA_REQUIRED or job.mfa is None:
                return job.record(now)
            session = job.mfa
            if session.answer is None:
                raise SandboxError("AC-100", endpoint, user_id=user_id, job_id=job_id)
            user = self._user(scenario)
            blocked_until = user.budget.blocked_at(now)
            if blocked_until is not None:
                # No answer is checked while the user is blocked, a right one included.
                job.fail("AC-108", now, blocked_until=blocked_until)
                user.stopped_waiting(job)
                log.info("job %s: MFA answered while %s is blocked", job_id, user_id)
                return job.record(now)
            if session.answer.strip() == session.expected_answer:
                job.resume(now)
                user.resumed(job)
                user.budget.refill()
                log.info("job %s: MFA answered, resumed", job_id)
                return job.record(now)
            session.answer = None
            job.updated_at = now
            block = scenario.mfa.block if scenario.mfa is not None else None
            blocked_until = user.budget.spend(now, block or self.durations.block)
            if blocked_until is not None:
                failed = user.fail_waiting(now, blocked_until)
                log.info(
                    "job %s: too many wrong MFA answers; %s blocked, %d jobs failed",
                    job_id,
                    user_id,
                    len(failed),
                )
            return job.record(now)

    # -- control --------------------------------------------------------------

    def reset(self) -> dt.datetime:
        """Forget jobs, MFA sessions and blocks; rewind the clock. Returns the new time."""
        with self.lock:
            self._jobs.clear()
            self._users.clear()
            self._calls.clear()
            self.clock.reset()
            return self.clock.now()

    def summary(self) -> dict[str, Any]:
        """What a trainer sees of this world: its time, its jobs and its blocks.

        Settles every job (a finished job stops counting as open): a walk over
        the world's jobs, fine for a room's list read every few seconds.
        """
        with self.lock:
            now = self.clock.now()
            open_jobs = waiting = 0
            for job in self._jobs.values():
                job.settle(now)
                open_jobs += job.is_active
                waiting += job.status is JobStatus.MFA_REQUIRED
            blocks = sorted(
                (user_id, until)
                for user_id, user in self._users.items()
                if (until := user.budget.blocked_at(now)) is not None
            )
            return {
                "clock": now,
                "jobs": len(self._jobs),
                "open_jobs": open_jobs,
                "waiting_for_mfa": waiting,
                "blocks": blocks,
            }

    def advance(self, seconds: object) -> dt.datetime:
        """Move this world's clock forward; returns the new time."""
        with self.lock:
            try:
                # The clock refuses a step that is not a number, negative, not
                # finite, over a year, or past its 100-year bound.
                self.clock.advance(seconds)  # type: ignore[arg-type]
            except (TypeError, ValueError):
                raise SandboxError("AC-100", BODY_TEXT_ENDPOINT) from None
            return self.clock.now()

    # -- checks ---------------------------------------------------------------

    def _check(
        self, endpoint: Endpoint, user_id: str, job_id: str = "", **body: object
    ) -> Scenario:
        """User id and body syntax, user, scenario: in that order (the token is checked)."""
        if not is_valid_user_id(user_id) or not _body_is_valid(body):
            raise SandboxError("AC-100", endpoint, user_id=user_id)
        scenario = self.scenarios.get(user_id)
        if scenario is None:
            raise SandboxError("AC-102", endpoint, user_id=user_id)
        if scenario.answers:
            key = (user_id, endpoint.name)
            call = self._calls[key] = self._calls.get(key, 0) + 1
            for answer in scenario.answers:
                if answer.applies(endpoint.name, call):
                    raise SandboxError(
                        answer.code,
                        endpoint,
                        user_id=user_id,
                        job_id=job_id,
                        retry_after=answer.retry_after,
                        status=answer.status,
                        message=answer.message,
                    )
        # Rule 3 of the contract: a manually linked user has no bank behind
        # it, whatever the pack lists (a forced answer above still wins).
        manual_code = (
            MANUAL_USER_CODES.get(endpoint.name) if scenario.link_type == "manual" else None
        )
        if manual_code is not None:
            raise SandboxError(manual_code, endpoint, user_id=user_id)
        return scenario

    def _user(self, scenario: Scenario) -> UserState:
        # Only scenario users get here (after _check): the map stays small.
        user = self._users.get(scenario.user_id)
        if user is None:
            attempts = scenario.mfa.attempts if scenario.mfa is not None else None
            user = self._users[scenario.user_id] = UserState(attempts)
        return user

    def _job(self, endpoint: Endpoint, user_id: str, job_id: str) -> Job:
        job = self._jobs.get(job_id)
        # Another user's job is unknown to this user: no cross-user probing.
        if job is None or job.user_id != user_id:
            raise SandboxError("AC-109", endpoint, user_id=user_id, job_id=job_id)
        return job.settle(self.clock.now())


def _body_is_valid(body: dict[str, object]) -> bool:
    """The only body an /accounts operation takes: ``{"answer": "..."}``."""
    if "answer" not in body:
        return True
    answer = body["answer"]
    return isinstance(answer, str) and 0 < len(answer.strip()) <= _MAX_ANSWER_LENGTH
