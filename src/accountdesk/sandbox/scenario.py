"""A scenario user as the engine uses it: its data, the errors it answers, how its jobs behave.

Scenario users are data: every user, the eight shipped ones included, comes
from a scenario pack (a TOML file, :mod:`.packs`), checked against the pack
models (:mod:`.pack_models`) and resolved into these plain frozen records:
defaults filled in, durations as ``timedelta``, endpoints as names. The
engine reads only these. Standard library only (plus the stdlib-only
contract), so the engine modules import no pydantic: reading a pack does.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from accountdesk.contract import JobKind

__all__ = [
    "AccountData",
    "Address",
    "BalanceData",
    "Credential",
    "FailStep",
    "ForcedAnswer",
    "GeneratedTransactions",
    "IdentityData",
    "JobFailure",
    "JobPlan",
    "MfaPlan",
    "PackSource",
    "Scenario",
    "ScenarioSet",
]


@dataclass(frozen=True, slots=True)
class Credential:
    """An API key and secret the sandbox accepts at ``POST /token``.

    ``user_ids`` is None for a credential allowed for every user.
    """

    api_key: str
    api_secret: str = field(repr=False)
    user_ids: frozenset[str] | None = None

    def allows(self, user_id: str) -> bool:
        """Whether a token from this credential may touch ``user_id``."""
        return self.user_ids is None or user_id in self.user_ids

    @property
    def access(self) -> str:
        """Who this credential reaches, in words."""
        if self.user_ids is None:
            return "every user"
        return ", ".join(sorted(self.user_ids)) + " only"


@dataclass(frozen=True, slots=True)
class Address:
    street: str | None = None
    city: str | None = None
    region: str | None = None
    postal_code: str | None = None
    country: str | None = None


@dataclass(frozen=True, slots=True)
class AccountData:
    """What ``GET /accounts/{user_id}`` answers; None fields are sent as null."""

    institution_name: str | None
    account_name: str | None
    account_type: str | None
    account_number: str | None = field(repr=False)
    account_number_masked: str | None
    routing_number: str | None = field(repr=False)
    currency: str | None


@dataclass(frozen=True, slots=True)
class BalanceData:
    """What ``GET .../balance`` answers; amounts are sent as written (decimal text).

    ``as_of`` is the time the balance reads as of until a refresh completes
    (None: the world's start, as for every shipped user).
    """

    available: str | None
    current: str | None
    currency: str | None
    as_of: dt.datetime | None = None


@dataclass(frozen=True, slots=True)
class IdentityData:
    names: tuple[str, ...] = ()
    emails: tuple[str, ...] = ()
    phone_numbers: tuple[str, ...] = ()
    addresses: tuple[Address, ...] = ()


@dataclass(frozen=True, slots=True)
class GeneratedTransactions:
    """How a user's transactions are made up: ``count`` rows over ``days`` days.

    Seeded (``seed``, else the user id), so the same user on the same day
    always gets the same list. ``categories`` keeps only those merchants;
    ``amount_cents`` puts every amount in that range (debits negative).
    """

    count: int = 60
    days: int | None = None
    seed: int | None = None
    categories: frozenset[str] | None = None
    amount_cents: tuple[int, int] | None = None


@dataclass(frozen=True, slots=True)
class ForcedAnswer:
    """An error one or every endpoint of a user answers, always or for some calls.

    ``endpoints`` None: every endpoint of the user. Calls are counted per
    endpoint and world, from 1; the answer applies from call ``from_call``
    on, for ``calls`` calls (None: every call after). ``status`` and
    ``message`` None: the catalogue's, for that endpoint.
    """

    code: str
    endpoints: frozenset[str] | None = None
    status: int | None = None
    message: str | None = None
    from_call: int = 1
    calls: int | None = None
    retry_after: int | None = None

    def applies(self, endpoint: str, call: int) -> bool:
        """Whether the ``call``-th call of ``endpoint`` gets this answer."""
        if self.endpoints is not None and endpoint not in self.endpoints:
            return False
        if call < self.from_call:
            return False
        return self.calls is None or call < self.from_call + self.calls


@dataclass(frozen=True, slots=True)
class MfaPlan:
    """The MFA challenge jobs of ``kinds`` stop at; durations None: the sandbox's."""

    question: str
    answer: str = field(repr=False)
    attempts: int = 3
    session: dt.timedelta | None = None
    block: dt.timedelta | None = None
    kinds: frozenset[JobKind] = frozenset(JobKind)


#: The steps a job can fail at: as it would start running, or as it would complete.
FailStep = Literal["pending", "in_progress"]


@dataclass(frozen=True, slots=True)
class JobFailure:
    """A job that fails with ``code`` at ``at`` (message None: the catalogue's)."""

    code: str
    message: str | None = None
    at: FailStep = "in_progress"


@dataclass(frozen=True, slots=True)
class JobPlan:
    """How one kind of job runs for a user: its length (None: the sandbox's) and end."""

    seconds: dt.timedelta | None = None
    failure: JobFailure | None = None


_DEFAULT_PLAN = JobPlan()


@dataclass(frozen=True, slots=True)
class Scenario:
    """One scenario user: its data, the errors it answers and how its jobs behave.

    ``transactions`` is a tuple of listed rows (JSON-ready dicts, sent in
    order) or a :class:`GeneratedTransactions`. ``source`` names the pack it
    came from (for messages).
    """

    user_id: str
    summary: str
    account: AccountData
    balance: BalanceData
    identity: IdentityData
    transactions: tuple[dict[str, Any], ...] | GeneratedTransactions = GeneratedTransactions()
    transactions_currency: str | None = "USD"
    link_type: str = "fi"
    answers: tuple[ForcedAnswer, ...] = ()
    mfa: MfaPlan | None = None
    jobs: Mapping[JobKind, JobPlan] = field(default_factory=dict)
    source: str = ""

    def job_plan(self, kind: JobKind) -> JobPlan:
        return self.jobs.get(kind, _DEFAULT_PLAN)

    def mfa_for(self, kind: JobKind) -> MfaPlan | None:
        """The challenge a job of ``kind`` stops at, or None."""
        return self.mfa if self.mfa is not None and kind in self.mfa.kinds else None

    @property
    def transaction_count(self) -> int:
        plan = self.transactions
        return plan.count if isinstance(plan, GeneratedTransactions) else len(plan)


@dataclass(frozen=True, slots=True)
class PackSource:
    """Where scenario users came from: one pack read, its name in messages, its title, its users."""

    name: str
    title: str | None
    user_ids: tuple[str, ...]
    shipped: bool = False
    description: str | None = None
    #: The shipped users this pack's users of the same id replace.
    replaces: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ScenarioSet:
    """Every scenario user and credential of the packs a sandbox serves, merged.

    ``clock_start`` is where the sandbox's clock starts when a pack says;
    ``sources`` names each pack read, shipped first.
    """

    users: Mapping[str, Scenario]
    credentials: tuple[Credential, ...]
    clock_start: dt.datetime | None = None
    sources: tuple[PackSource, ...] = ()

    def credential(self, api_key: str) -> Credential | None:
        for credential in self.credentials:
            if credential.api_key == api_key:
                return credential
        return None
