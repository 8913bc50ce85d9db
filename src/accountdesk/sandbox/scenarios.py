"""The sandbox's scenario users as the engine uses them: credentials, users, their data and behaviour.

Scenario users are data: every user, the nine shipped ones included, comes
from a scenario pack (a TOML file, :mod:`.packs`), checked against the pack
models (:mod:`.pack_models`) and resolved here into plain frozen records:
defaults filled in, durations as ``timedelta``, endpoints as names. The
engine reads only these. Standard library only (plus the stdlib-only
contract), so the engine modules import no pydantic: reading a pack does.

:data:`SCENARIO_USERS` and :data:`CREDENTIALS` are the shipped default pack's,
read on first use (README, "Scenario users").
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Literal, overload

from accountdesk.contract import JobKind
from accountdesk.contract.identifiers import is_sandbox_user_id

if TYPE_CHECKING:
    from .packs import PackSource

__all__ = [
    "BULK_TRANSACTIONS",
    "CREDENTIALS",
    "MAX_BULK_TRANSACTIONS",
    "SCENARIO_USERS",
    "AccountData",
    "Address",
    "BalanceData",
    "Credential",
    "ForcedAnswer",
    "GeneratedTransactions",
    "IdentityData",
    "JobFailure",
    "JobPlan",
    "MfaPlan",
    "Scenario",
    "ScenarioSet",
    "catalogue",
    "is_valid_user_id",
    "shipped_scenarios",
    "with_bulk_transactions",
]

#: How many transactions ``user_bulk`` has unless told otherwise.
BULK_TRANSACTIONS = 100_000
#: The most ``create_app(bulk_transactions=...)`` accepts (about 140 MB of JSON).
MAX_BULK_TRANSACTIONS = 10_000_000


def is_valid_user_id(user_id: str) -> bool:
    """1 to 64 of ``A-Z a-z 0-9 _ . -``, but not ``.`` or ``..`` (path tricks)."""
    return is_sandbox_user_id(user_id)


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


_SHIPPED: list[ScenarioSet] = []


def shipped_scenarios() -> ScenarioSet:
    """The shipped default pack: the nine users and the two credentials (read once)."""
    if not _SHIPPED:
        from .packs import load_scenarios

        _SHIPPED.append(load_scenarios(()))
    return _SHIPPED[0]


def with_bulk_transactions(
    count: int, scenarios: ScenarioSet | None = None
) -> Mapping[str, Scenario]:
    """The users of ``scenarios`` (the shipped ones), ``user_bulk`` with ``count`` transactions."""
    if isinstance(count, bool) or not isinstance(count, int):
        raise TypeError("bulk_transactions must be an int")
    if not 1 <= count <= MAX_BULK_TRANSACTIONS:
        raise ValueError(f"bulk_transactions must be from 1 to {MAX_BULK_TRANSACTIONS:,}")
    users = (scenarios or shipped_scenarios()).users
    bulk = users.get("user_bulk")
    if count == BULK_TRANSACTIONS or bulk is None:
        return users
    if not isinstance(bulk.transactions, GeneratedTransactions):
        return users  # a pack's own user_bulk, with listed rows: left as written
    bulk = replace(
        bulk,
        summary=f"linked; {count:,} transactions",
        transactions=replace(bulk.transactions, count=count),
    )
    return MappingProxyType({**users, bulk.user_id: bulk})


def catalogue(
    users: Mapping[str, Scenario] | None = None,
    credentials: tuple[Credential, ...] | None = None,
) -> dict[str, list[dict[str, str]]]:
    """The answer of ``GET /_sandbox/scenarios``: users and credentials, in order.

    The sandbox's secrets are public demo values (they are in the README, and
    a pack's are the trainer's to hand out), so this one answer may carry them.
    """
    shipped = shipped_scenarios() if users is None or credentials is None else None
    users = users if users is not None else shipped.users  # type: ignore[union-attr]
    credentials = credentials if credentials is not None else shipped.credentials  # type: ignore[union-attr]
    return {
        "users": [{"user_id": s.user_id, "summary": s.summary} for s in users.values()],
        "credentials": [
            {"api_key": c.api_key, "api_secret": c.api_secret, "access": c.access}
            for c in credentials
        ],
    }


class _ShippedUsers(Mapping[str, Scenario]):
    """The shipped users, read from the default pack on first use (not at import)."""

    def __getitem__(self, user_id: str) -> Scenario:
        return shipped_scenarios().users[user_id]

    def __iter__(self) -> Iterator[str]:
        return iter(shipped_scenarios().users)

    def __len__(self) -> int:
        return len(shipped_scenarios().users)


class _ShippedCredentials(Sequence[Credential]):
    """The shipped credentials, read from the default pack on first use."""

    @overload
    def __getitem__(self, index: int) -> Credential: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[Credential, ...]: ...
    def __getitem__(self, index: int | slice) -> Credential | tuple[Credential, ...]:
        return shipped_scenarios().credentials[index]

    def __len__(self) -> int:
        return len(shipped_scenarios().credentials)


#: The shipped scenario users by id, in the default pack's order (read on first use:
#: importing the engine must not read and check a pack).
SCENARIO_USERS: Mapping[str, Scenario] = _ShippedUsers()
#: The credentials the shipped default pack gives, in order.
CREDENTIALS: Sequence[Credential] = _ShippedCredentials()
