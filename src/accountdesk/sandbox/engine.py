"""The sandbox's domain engine: tokens first, then the caller's world.

It knows nothing of HTTP: each operation is named after a contract endpoint,
checks the bearer token (``AC-001``), hands the rest to the token's
:class:`~.world.World` (which runs the documented check order) and either
returns a JSON-ready record or raises :class:`SandboxError` carrying the
catalogue's code. The ASGI layer (``api.py``) only translates.

Its users and credentials come from scenario packs (:class:`ScenarioSet`;
the shipped default pack when none is given). Without tenants there is one
world. With them (:mod:`.tenants`) each
``trainee_<name>`` key has its own; ``sandbox_key`` and ``limited_key`` share
the default world. Control operations act on the world of the token they are
given, and on the default world without one; when the sandbox has a control
token (served beyond loopback, or a training room), acting on the shared
default world needs it (``AC-903`` otherwise).

The trainer's operations (:meth:`SandboxEngine.trainees`, a reset or clock
move naming a trainee) need the control token the same way. Resetting the
shared world resets every trainee's world with it: the trainer's "start the
exercise again" for the whole room.
"""

from __future__ import annotations

import datetime as dt
import itertools
import logging
import math
import random
import secrets
from collections.abc import Callable
from typing import Any

from accountdesk.contract import endpoints as ep
from accountdesk.sandbox import records
from accountdesk.sandbox.clock import MAX_DURATION, Clock, OffsetClock, SystemClock, wire_time
from accountdesk.sandbox.errors import SandboxError
from accountdesk.sandbox.scenario import GeneratedTransactions, Scenario
from accountdesk.sandbox.scenarios import (
    BULK_TRANSACTIONS,
    Credential,
    ScenarioSet,
    shipped_scenarios,
    with_bulk_transactions,
)
from accountdesk.sandbox.tenants import DEFAULT_MAX_TENANTS, TRAINEE_SECRET, Tenants, trainee_name
from accountdesk.sandbox.tokens import TokenRegistry
from accountdesk.sandbox.world import BODY_TEXT_ENDPOINT, Durations, World

__all__ = [
    "BODY_TEXT_ENDPOINT",
    "IdSource",
    "SandboxEngine",
    "SandboxError",
    "make_id_source",
]

log = logging.getLogger("accountdesk.sandbox")

#: Makes a new identifier; called with ``"job"`` or ``"token"``.
IdSource = Callable[[str], str]
DEFAULT_WORLD = "default"
#: Generated answers built ahead of any lookup (embedded): from this many rows
#: (smaller ones build in milliseconds on the read) up to this many (user_bulk
#: is 14 MB for 100,000; a million rows would be ~3 s of CPU and 142 MB for a
#: user nobody may open: those wait for their account).
BUILT_AHEAD_ROWS = (10_000, 250_000)


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


def _whole(seconds: float) -> int | float:
    """3600 rather than 3600.0 on the wire, when the lifetime is whole seconds."""
    return int(seconds) if seconds.is_integer() else seconds


def _seconds(name: str, value: float) -> dt.timedelta:
    # Capped like a clock step, so "now + duration" can never leave the calendar.
    if not math.isfinite(value) or not 0 < value <= MAX_DURATION.total_seconds():
        raise ValueError(f"{name} must be > 0 and at most {MAX_DURATION.days} days")
    return dt.timedelta(seconds=value)


def _same_secret(expected: str, given: str) -> bool:
    # bytes: compare_digest refuses non-ASCII str; surrogatepass: JSON may
    # carry a lone surrogate ("\ud800"), which UTF-8 cannot.
    return secrets.compare_digest(expected.encode(), given.encode("utf-8", "surrogatepass"))


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
        tenants: bool = False,
        max_tenants: int = DEFAULT_MAX_TENANTS,
        bulk_transactions: int = BULK_TRANSACTIONS,
        control_token: str | None = None,
        scenarios: ScenarioSet | None = None,
    ) -> None:
        self.clock: Clock = clock if clock is not None else SystemClock()
        self.durations = Durations(
            job=_seconds("job_seconds", job_seconds),
            mfa=_seconds("mfa_seconds", mfa_seconds),
            token=_seconds("token_seconds", token_seconds),
            block=_seconds("block_seconds", block_seconds),
        )
        if control_token is not None and len(control_token) < 16:
            raise ValueError("a control token has at least 16 characters")
        self.control_token = control_token
        #: The packs served: users and credentials (the shipped default pack alone by default).
        self.scenario_set = scenarios if scenarios is not None else shipped_scenarios()
        self.scenarios = with_bulk_transactions(bulk_transactions, self.scenario_set)
        self._new_id = make_id_source(ids)
        # Transaction dates count back from the day the sandbox started, in
        # every world alike, so the (large) lists are built once for all.
        self._transactions = records.TransactionCache(self.clock.now().date())
        self.tenants: Tenants | None = None
        if tenants:
            # Every world, the shared one included, runs on the app's clock
            # plus an offset of its own: advancing one moves no other, and
            # advancing the app's clock (a test's FrozenClock) moves them all.
            self.default_world = self._world_on(DEFAULT_WORLD, OffsetClock(self.clock))
            self.tenants = Tenants(
                lambda name: self._world_on(name, OffsetClock(self.clock)), max_tenants
            )
        else:
            self.default_world = self._world_on(DEFAULT_WORLD, self.clock)
        self._tokens = TokenRegistry(self._new_id)

    def _world_on(self, name: str, clock: Clock) -> World:
        return World(name, clock, self.durations, self.scenarios, self._transactions, self._new_id)

    # -- POST /token ----------------------------------------------------------

    def issue_token(self, api_key: object, api_secret: object) -> dict[str, Any]:
        """Exchange a key and secret for a bearer token (docs/developer/sandbox.md, "Wire format")."""
        if not (
            isinstance(api_key, str) and isinstance(api_secret, str) and api_key and api_secret
        ):
            raise SandboxError("AC-100", ep.TOKEN)
        credential, world = self._sign_in(api_key, api_secret)
        token = self._tokens.issue(credential, world, self.durations.token)
        log.info("issued a token for api key %s", credential.api_key)
        return {
            "access_token": token,
            "token_type": "Bearer",
            "expires_in": _whole(self.durations.token.total_seconds()),
        }

    def _sign_in(self, api_key: str, api_secret: str) -> tuple[Credential, World]:
        for credential in self.scenario_set.credentials:
            if credential.api_key == api_key and _same_secret(credential.api_secret, api_secret):
                return credential, self.default_world
        name = trainee_name(api_key) if self.tenants is not None else None
        if self.tenants is None or name is None or not _same_secret(TRAINEE_SECRET, api_secret):
            raise SandboxError("AC-101", ep.TOKEN)
        world = self.tenants.world_for(api_key, self.clock.now())
        if world is None:
            log.warning("no room for trainee %s: %d tenants", name, len(self.tenants))
            raise SandboxError("AC-929", ep.TOKEN)
        return Credential(api_key, TRAINEE_SECRET), world

    # -- the /accounts operations ----------------------------------------------

    def get_account(self, token: str | None, user_id: str) -> dict[str, Any]:
        """``GET /accounts/{user_id}``."""
        return self._world(ep.ACCOUNT, token, user_id).account(user_id)

    def get_balance(self, token: str | None, user_id: str) -> dict[str, Any]:
        """``GET /accounts/{user_id}/balance``."""
        return self._world(ep.BALANCE, token, user_id).balance(user_id)

    def get_identity(self, token: str | None, user_id: str) -> dict[str, Any]:
        """``GET /accounts/{user_id}/identity``."""
        return self._world(ep.IDENTITY_READ, token, user_id).identity(user_id)

    def get_transactions(self, token: str | None, user_id: str) -> bytes:
        """All transactions as JSON bytes, built once per user and cached."""
        return b"".join(self.transaction_pieces(token, user_id))

    def transaction_pieces(self, token: str | None, user_id: str) -> records.Pieces:
        """:meth:`get_transactions` in pieces, the first at once (errors raised here, first)."""
        return self._world(ep.TRANSACTIONS_READ, token, user_id).transactions(user_id)

    def prepare_transactions(self, user_id: str) -> bool:
        """Start building ``user_id``'s transactions answer now, ahead of its first read.

        The embedded sandbox's own help to the app (no token: the answer is
        the same for every world and built once for all; a read still
        checks the caller's rights). The same bytes as a build on the first
        read. False for a user no pack names (nothing to build).
        """
        scenario = self.scenarios.get(user_id)
        if scenario is None:
            return False
        self._transactions.prepare(scenario)
        return True

    def prepare_large_transactions(self) -> list[str]:
        """Start building the large generated answers now (see :data:`BUILT_AHEAD_ROWS`).

        The embedded sandbox's help before an account is even looked up: a
        person takes seconds to type an id, the build ~0.3 s of a thread, which
        on the read itself takes GIL turns from the app's first rows. As many
        as the cache keeps (:data:`~.records.CACHE_BYTES`), in the packs'
        order; the users whose build started (or had).
        """
        low, high = BUILT_AHEAD_ROWS
        chosen: list[Scenario] = []
        guessed = 0
        for scenario in self.scenarios.values():
            plan = scenario.transactions
            if not (isinstance(plan, GeneratedTransactions) and low <= plan.count <= high):
                continue
            # No more than the cache keeps: a pack of many such users would
            # start a build (a child process) for each, to let most go.
            guessed += plan.count * records.BYTES_PER_ROW
            if chosen and guessed > records.CACHE_BYTES:
                break
            chosen.append(scenario)
        for scenario in chosen:
            self._transactions.prepare(scenario, apart=True)
        return [scenario.user_id for scenario in chosen]

    def get_job(self, token: str | None, user_id: str, job_id: str) -> dict[str, Any]:
        """``GET /accounts/{user_id}/job/{job_id}``."""
        return self._world(ep.JOB, token, user_id).job(user_id, job_id)

    def refresh_balance(self, token: str | None, user_id: str) -> dict[str, Any]:
        """``POST .../refresh``: a balance refresh job (429 ``AC-108`` while blocked)."""
        return self._world(ep.REFRESH, token, user_id).start(ep.REFRESH, user_id)

    def start_identity(self, token: str | None, user_id: str) -> dict[str, Any]:
        """``POST .../identity``: an identity job (409 ``AC-112`` if one is active)."""
        world = self._world(ep.IDENTITY_START, token, user_id)
        return world.start(ep.IDENTITY_START, user_id)

    def start_transactions(self, token: str | None, user_id: str) -> dict[str, Any]:
        """``POST .../transactions``: a transactions job (409 ``AC-112`` if one is active)."""
        world = self._world(ep.TRANSACTIONS_START, token, user_id)
        return world.start(ep.TRANSACTIONS_START, user_id)

    def submit_mfa(
        self, token: str | None, user_id: str, job_id: str, answer: object
    ) -> dict[str, Any]:
        """``POST .../mfa/{job_id}``: record an answer (checked on resolve)."""
        world = self._world(ep.MFA_ANSWER, token, user_id)
        return world.submit_mfa(user_id, job_id, answer)

    def resolve_mfa(self, token: str | None, user_id: str, job_id: str) -> dict[str, Any]:
        """``POST .../mfa/{job_id}/resolve``: resume, count a wrong answer, or block."""
        return self._world(ep.MFA_RESOLVE, token, user_id).resolve_mfa(user_id, job_id)

    def _world(self, endpoint: ep.Endpoint, token: str | None, user_id: str) -> World:
        """The world of a live token allowed for ``user_id``; else ``AC-001``."""
        record = self._tokens.find(token)
        if record is None or not record.credential.allows(user_id):
            raise SandboxError("AC-001", endpoint, user_id=user_id)
        if self.tenants is not None:
            self.tenants.seen(record.world, self.clock.now())
        return record.world

    # -- control (the /_sandbox endpoints) ------------------------------------

    def reset(
        self,
        token: str | None = None,
        control_token: str | None = None,
        *,
        trainee: str | None = None,
    ) -> dt.datetime:
        """Forget jobs, MFA sessions and blocks and rewind the clock; keep tokens.

        Acts on the token's world, or on the shared world and with it every
        trainee's; ``trainee`` names one trainee's world instead (the
        trainer's call: control token, ``AC-924`` for a name never seen).
        Tokens stay valid (a dashboard stays signed in) but for no longer than
        a full lifetime from the rewound time. Returns the world's new time.
        """
        if trainee is not None:
            worlds = [self._trainee_world(trainee, control_token)]
        else:
            worlds = [self.control_world(token, control_token, acting=True)]
            if worlds[0] is self.default_world and self.tenants is not None:
                worlds += [one.world for one in self.tenants.trainees()]
        for world in worlds:
            now = world.reset()
            self._tokens.clamp(world, now + self.durations.token)
        return worlds[0].clock.now()

    def advance_clock(
        self,
        seconds: object,
        token: str | None = None,
        control_token: str | None = None,
        *,
        trainee: str | None = None,
    ) -> dt.datetime:
        """Move a world's clock forward (``trainee``: that trainee's); returns the new time."""
        if trainee is not None:
            return self._trainee_world(trainee, control_token).advance(seconds)
        return self.control_world(token, control_token, acting=True).advance(seconds)

    def clock_now(self, token: str | None = None) -> dt.datetime:
        """The time on a world's clock."""
        return self.control_world(token, None, acting=False).clock.now()

    def trainees(self, control_token: str | None = None) -> dict[str, Any]:
        """The trainer's list: every trainee seen, their clock, open jobs and blocks."""
        self._check_control(control_token)
        now = self.clock.now()
        rows = []
        for trainee in self.tenants.trainees() if self.tenants is not None else []:
            summary = trainee.world.summary()
            # The world's own offset, not the gap between two reads of a
            # running clock (microseconds, either way).
            clock = trainee.world.clock
            ahead = clock.offset.total_seconds() if isinstance(clock, OffsetClock) else 0.0
            rows.append(
                {
                    "name": trainee.name,
                    "api_key": trainee.api_key,
                    "first_request": wire_time(trainee.first_request),
                    "last_request": wire_time(trainee.last_request),
                    "clock": wire_time(summary["clock"]),
                    "clock_ahead_seconds": _whole(ahead),
                    "jobs": summary["jobs"],
                    "open_jobs": summary["open_jobs"],
                    "waiting_for_mfa": summary["waiting_for_mfa"],
                    "blocks": [
                        {"user_id": user_id, "until": wire_time(until)}
                        for user_id, until in summary["blocks"]
                    ],
                }
            )
        return {
            "tenants": self.tenants is not None,
            "max_trainees": self.tenants.max_tenants if self.tenants is not None else 0,
            "now": wire_time(now),
            "trainees": rows,
        }

    def control_world(self, token: str | None, control_token: str | None, *, acting: bool) -> World:
        """The world a control call acts on: the token's, or the default world.

        A token given must be live (``AC-001``). Acting on the shared default
        world needs the control token when one is set (``AC-903``); reading it
        does not.
        """
        world = self.default_world
        if token is not None:
            record = self._tokens.find(token)
            if record is None:
                raise SandboxError("AC-001")
            world = record.world
            if self.tenants is not None:
                self.tenants.seen(world, self.clock.now())
        if acting and world is self.default_world:
            self._check_control(control_token)
        return world

    def _check_control(self, control_token: str | None) -> None:
        """The trainer's calls need the control token, when the sandbox has one (``AC-903``)."""
        expected = self.control_token
        if expected is not None and (
            control_token is None or not _same_secret(expected, control_token)
        ):
            raise SandboxError("AC-903")

    def _trainee_world(self, name: str, control_token: str | None) -> World:
        """The world of trainee ``name`` for the trainer (control token first, then ``AC-924``)."""
        self._check_control(control_token)
        trainee = self.tenants.find(name) if self.tenants is not None else None
        if trainee is None:
            raise SandboxError("AC-924")
        return trainee.world
