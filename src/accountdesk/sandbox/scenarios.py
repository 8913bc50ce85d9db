"""The sandbox's shipped scenario users and credentials, and the catalogue it answers.

Scenario users are data (:mod:`.scenario`, read from packs by
:mod:`.packs`). :data:`SCENARIO_USERS` and :data:`CREDENTIALS` are the
shipped default pack's, read on first use (docs/developer/sandbox.md, "Scenario users"), so
importing the engine reads no pack; :func:`catalogue` is ``GET
/_sandbox/scenarios``. Standard library only at import.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from types import MappingProxyType
from typing import overload

from accountdesk.contract.identifiers import is_sandbox_user_id

# The records, re-exported: the engine and the tests name them from here.
from accountdesk.sandbox.scenario import (
    AccountData,
    Address,
    BalanceData,
    Credential,
    ForcedAnswer,
    GeneratedTransactions,
    IdentityData,
    JobFailure,
    JobPlan,
    MfaPlan,
    Scenario,
    ScenarioSet,
)

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


_SHIPPED: list[ScenarioSet] = []


def shipped_scenarios() -> ScenarioSet:
    """The shipped default pack: the eight users and the two credentials (read once)."""
    if not _SHIPPED:
        from accountdesk.sandbox.packs.reading import load_scenarios

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

    Served to anyone. The shipped demo credentials' secrets are public (the
    manual prints them), so they are listed; a pack's own credentials are
    named with who they reach, never with their secret: the trainer hands
    those out, not the sandbox.
    """
    shipped = shipped_scenarios()
    users = users if users is not None else shipped.users
    credentials = credentials if credentials is not None else shipped.credentials
    public = set(shipped.credentials)
    return {
        "users": [{"user_id": s.user_id, "summary": s.summary} for s in users.values()],
        "credentials": [
            {"api_key": c.api_key, "api_secret": c.api_secret, "access": c.access}
            if c in public
            else {"api_key": c.api_key, "access": c.access}
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
