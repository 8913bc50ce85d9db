"""The sandbox's scenario catalogue as data: credentials, users and their data.

Each scenario user stands for one behaviour of the service (README, "Scenario
users"). Standard library only (plus the stdlib-only contract), so the
dashboard can list scenarios without importing the web framework.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from decimal import Decimal
from types import MappingProxyType

from accountdesk.contract import endpoints as ep
from accountdesk.contract.identifiers import is_sandbox_user_id

__all__ = [
    "CREDENTIALS",
    "SCENARIO_USERS",
    "Address",
    "Credential",
    "Profile",
    "Scenario",
    "catalogue",
    "is_valid_user_id",
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
    street: str
    city: str
    region: str
    postal_code: str
    country: str = "US"


@dataclass(frozen=True, slots=True)
class Profile:
    """The account and owner data the sandbox serves for one user."""

    institution_name: str
    account_name: str
    account_type: str
    account_number: str = field(repr=False)
    routing_number: str = field(repr=False)
    available: Decimal
    current: Decimal
    names: tuple[str, ...]
    emails: tuple[str, ...]
    phone_numbers: tuple[str, ...]
    addresses: tuple[Address, ...]
    currency: str = "USD"

    @property
    def account_number_masked(self) -> str:
        return "••••" + self.account_number[-4:]


@dataclass(frozen=True, slots=True)
class Scenario:
    """One scenario user: its data and which error each endpoint answers.

    ``failures`` maps an endpoint name (``accountdesk.contract.endpoints``) to
    the ``AC-nnn`` code that endpoint always answers for this user.
    """

    user_id: str
    summary: str
    profile: Profile
    link_type: str = "fi"
    failures: Mapping[str, str] = field(default_factory=dict)
    mfa_answer: str | None = None
    transaction_count: int = 60

    @property
    def needs_mfa(self) -> bool:
        """Every job of this user stops at an MFA challenge."""
        return self.mfa_answer is not None

    def failure_for(self, endpoint: ep.Endpoint) -> str | None:
        return self.failures.get(endpoint.name)

    @property
    def mfa_question(self) -> str:
        phone = self.profile.phone_numbers[0]
        return f"Enter the 4-digit code sent to the phone ending {phone[-4:]}"


def _aba(first_eight: str) -> str:
    """A routing number with a valid ABA check digit (weights 3, 7, 1)."""
    weights = (3, 7, 1, 3, 7, 1, 3, 7)
    total = sum(int(digit) * weight for digit, weight in zip(first_eight, weights, strict=True))
    return first_eight + str((10 - total % 10) % 10)


def _profile(
    owner: str,
    *,
    institution: str,
    number: str,
    routing: str,
    available: str,
    current: str,
    phone: str,
    street: str,
    city: str,
    region: str,
    postal_code: str,
    account_type: str = "checking",
) -> Profile:
    first, last = owner.lower().split()
    return Profile(
        institution_name=institution,
        account_name=f"{owner.split()[0]}'s {account_type.title()}",
        account_type=account_type,
        account_number=number,
        routing_number=_aba(routing),
        available=Decimal(available),
        current=Decimal(current),
        names=(owner,),
        emails=(f"{first}.{last}@example.com", f"{first[0]}{last}@mail.example.org"),
        phone_numbers=(phone,),
        addresses=(Address(street, city, region, postal_code),),
    )


_FI_DOWN = MappingProxyType(
    {endpoint.name: "AC-104" for endpoint in ep.ALL_ENDPOINTS if endpoint is not ep.TOKEN}
)
_MANUAL = MappingProxyType(
    {
        ep.BALANCE.name: "AC-105",
        ep.REFRESH.name: "AC-107",
        ep.IDENTITY_START.name: "AC-111",
        ep.TRANSACTIONS_START.name: "AC-114",
        ep.TRANSACTIONS_READ.name: "AC-115",
    }
)

_SCENARIOS = (
    Scenario(
        "user_good",
        "linked; jobs complete without MFA",
        _profile(
            "Avery Johnson",
            institution="Northwind Savings Bank",
            number="4820193756",
            routing="07100001",
            available="1234.56",
            current="1300.00",
            phone="+1 312 555 0142",
            street="1400 N Lake Shore Dr Apt 12B",
            city="Chicago",
            region="IL",
            postal_code="60610",
        ),
    ),
    Scenario(
        "user_mfa",
        "linked; every job stops at MFA; the answer is 1234",
        _profile(
            "Jordan Lee",
            institution="Cascade Federal Credit Union",
            number="7730418826",
            routing="32508112",
            available="842.10",
            current="901.75",
            phone="+1 206 555 0147",
            street="2211 Pine St",
            city="Seattle",
            region="WA",
            postal_code="98101",
        ),
        mfa_answer="1234",
    ),
    Scenario(
        "user_manual",
        "manually linked: account readable; balance AC-105, refresh AC-107, identity start "
        "AC-111, transactions start AC-114, transactions read AC-115",
        _profile(
            "Morgan Patel",
            institution="Manually linked account",
            number="5091827364",
            routing="11100061",
            available="0.00",
            current="0.00",
            phone="+1 512 555 0173",
            street="908 Congress Ave",
            city="Austin",
            region="TX",
            postal_code="78701",
        ),
        link_type="manual",
        failures=_MANUAL,
    ),
    Scenario(
        "user_fi_down",
        "every /accounts/user_fi_down... endpoint: 400 AC-104",
        _profile(
            "Riley Chen",
            institution="Harbor Point Bank",
            number="6624019873",
            routing="02100089",
            available="5120.00",
            current="5120.00",
            phone="+1 617 555 0118",
            street="77 Summer St",
            city="Boston",
            region="MA",
            postal_code="02110",
        ),
        failures=_FI_DOWN,
    ),
    Scenario(
        "user_fi_paused",
        "balance: 400 AC-106",
        _profile(
            "Casey Nguyen",
            institution="Summit Trust",
            number="3307781450",
            routing="10200076",
            available="77.31",
            current="120.04",
            phone="+1 303 555 0196",
            street="1550 Wewatta St",
            city="Denver",
            region="CO",
            postal_code="80202",
        ),
        failures=MappingProxyType({ep.BALANCE.name: "AC-106"}),
    ),
    Scenario(
        "user_fi_incomplete",
        "account read: 400 AC-103",
        _profile(
            "Taylor Brooks",
            institution="Prairie State Bank",
            number="2219046638",
            routing="08100012",
            available="2310.45",
            current="2388.90",
            phone="+1 314 555 0131",
            street="510 Market St",
            city="St. Louis",
            region="MO",
            postal_code="63101",
        ),
        failures=MappingProxyType({ep.ACCOUNT.name: "AC-103"}),
    ),
    Scenario(
        "user_identity_mismatch",
        "identity read: 400 AC-113",
        _profile(
            "Sam Rivera",
            institution="Bayview Community Bank",
            number="9148830275",
            routing="12100035",
            available="15023.18",
            current="15100.00",
            phone="+1 415 555 0164",
            street="350 Mission St",
            city="San Francisco",
            region="CA",
            postal_code="94105",
            account_type="savings",
        ),
        failures=MappingProxyType({ep.IDENTITY_READ.name: "AC-113"}),
    ),
    Scenario(
        "user_bulk",
        f"linked; {BULK_TRANSACTIONS:,} transactions",
        _profile(
            "Drew Okafor",
            institution="Metro Commerce Bank",
            number="8805512349",
            routing="02600959",
            available="48210.77",
            current="49003.12",
            phone="+1 212 555 0109",
            street="200 Park Ave",
            city="New York",
            region="NY",
            postal_code="10166",
        ),
        transaction_count=BULK_TRANSACTIONS,
    ),
)

#: The scenario users by id, in catalogue order.
SCENARIO_USERS: Mapping[str, Scenario] = MappingProxyType({s.user_id: s for s in _SCENARIOS})

#: The credentials the sandbox accepts, in catalogue order.
CREDENTIALS: tuple[Credential, ...] = (
    Credential("sandbox_key", "sandbox_secret"),
    Credential("limited_key", "limited_secret", frozenset({"user_good"})),
)


def with_bulk_transactions(count: int) -> Mapping[str, Scenario]:
    """The scenario users, ``user_bulk`` with ``count`` transactions (for benchmarks)."""
    if isinstance(count, bool) or not isinstance(count, int):
        raise TypeError("bulk_transactions must be an int")
    if not 1 <= count <= MAX_BULK_TRANSACTIONS:
        raise ValueError(f"bulk_transactions must be from 1 to {MAX_BULK_TRANSACTIONS:,}")
    if count == BULK_TRANSACTIONS:
        return SCENARIO_USERS
    bulk = replace(
        SCENARIO_USERS["user_bulk"],
        summary=f"linked; {count:,} transactions",
        transaction_count=count,
    )
    return MappingProxyType({**SCENARIO_USERS, bulk.user_id: bulk})


def catalogue(
    users: Mapping[str, Scenario] = SCENARIO_USERS,
) -> dict[str, list[dict[str, str]]]:
    """The answer of ``GET /_sandbox/scenarios``: users and credentials, in order.

    The sandbox's secrets are public demo values (they are in the README), so
    this one answer may carry them.
    """
    return {
        "users": [{"user_id": s.user_id, "summary": s.summary} for s in users.values()],
        "credentials": [
            {"api_key": c.api_key, "api_secret": c.api_secret, "access": c.access}
            for c in CREDENTIALS
        ],
    }
