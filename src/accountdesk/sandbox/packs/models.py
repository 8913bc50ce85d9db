"""The scenario pack format: pydantic models of a pack file, and its JSON Schema.

A pack is a TOML file (docs/trainer/scenario-packs.md has the whole format and an
example). These models are the format: :mod:`.packs` reads a file through
them, ``accountdesk scenarios schema`` prints :func:`pack_schema` (generated
from them) so an editor can check a pack as it is typed, and the recorder
writes what they accept. Every field is checked strictly (a number is not
text, a list is not a table) and unknown keys are refused.

Bounds (named in the message when exceeded): :data:`MAX_USERS` users per
pack, :data:`MAX_LISTED` listed and :data:`MAX_GENERATED` generated
transactions per user, :data:`MAX_TEXT` characters of text (shorter for
titles and summaries), :data:`MAX_ITEMS` items in an identity list, forced
answers per user and credentials per pack. The file size is checked before
it is read (:data:`MAX_PACK_BYTES`, in :mod:`.packs`).
"""

from __future__ import annotations

import datetime as dt
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from accountdesk.contract import ALL_ENDPOINTS, JobKind, known_spec
from accountdesk.contract import endpoints as ep
from accountdesk.contract.identifiers import sandbox_user_id_problem
from accountdesk.sandbox.blocks import MAX_MFA_ATTEMPTS, MFA_ATTEMPTS
from accountdesk.sandbox.clock import MAX_DURATION, MAX_OFFSET
from accountdesk.sandbox.generated import CATEGORIES
from accountdesk.sandbox.packs.fields import (
    MAX_TEXT,
    Currency,
    Paragraph,
    Question,
    Seconds,
    Summary,
    Text,
    Title,
    Token,
    amount_text,
    aware,
    error_code,
    one_of,
)

__all__ = [
    "ENDPOINT_NAMES",
    "MAX_GENERATED",
    "MAX_ITEMS",
    "MAX_LISTED",
    "MAX_PACK_BYTES",
    "MAX_TEXT",
    "MAX_USERS",
    "PackModel",
    "ScenarioPack",
    "UserSpec",
    "pack_schema",
]

#: The largest pack file read (a recorded user with 100,000 transactions is about 15 MB).
MAX_PACK_BYTES = 16 * 2**20
MAX_USERS = 1_000
#: Transactions listed one by one, per user.
MAX_LISTED = 100_000
#: Transactions made up by the generator, per user (``--bulk-transactions`` goes further).
MAX_GENERATED = 1_000_000
#: Items of an identity list, forced answers of a user, credentials of a pack.
MAX_ITEMS = 100
_MAX_SECONDS = MAX_DURATION.total_seconds()
_MAX_DAYS = MAX_OFFSET.days

#: The endpoints a forced answer may name (every one but ``POST /token``), and ``*``.
ENDPOINT_NAMES: tuple[str, ...] = tuple(e.name for e in ALL_ENDPOINTS if e is not ep.TOKEN)
EVERY_ENDPOINT = "*"


class PackModel(BaseModel):
    """Every table of a pack: strict types, no unknown keys, read-only."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class ClockSpec(PackModel):
    """``[clock]``: where the sandbox's clock starts (it runs on from there)."""

    start: dt.datetime = Field(description="A TOML date-time with an offset.")

    _start = field_validator("start")(aware)


class CredentialSpec(PackModel):
    """``[[credentials]]``: an API key and secret the sandbox accepts, for every user or some."""

    api_key: str = Field(pattern=r"^[!-~]{1,128}$", description="Printable ASCII, no spaces.")
    api_secret: Token = Field(repr=False)
    users: list[str] | None = Field(
        default=None, min_length=1, max_length=MAX_USERS, description="Only these users."
    )

    @field_validator("api_key")
    @classmethod
    def _not_a_trainee_key(cls, key: str) -> str:
        if key.startswith("trainee_"):
            raise ValueError("trainee_ keys belong to the training room (--tenants)")
        return key


class AccountSpec(PackModel):
    """``[users.account]``: what ``GET /accounts/{user_id}`` answers (defaults when absent)."""

    institution_name: Text | None = None
    account_name: Text | None = None
    account_type: Text | None = None
    account_number: Text | None = Field(default=None, repr=False)
    account_number_masked: Text | None = Field(
        default=None, description="Default: •••• and the account number's last four."
    )
    routing_number: Text | None = Field(default=None, repr=False)
    currency: Currency | None = None
    nulls: list[
        Literal[
            "institution_name",
            "account_name",
            "account_type",
            "account_number",
            "account_number_masked",
            "routing_number",
            "currency",
        ]
    ] = Field(default_factory=list, description="Fields the service sent as null (no default).")


class BalanceSpec(PackModel):
    """``[users.balance]``: amounts as decimal text, sent as written."""

    available: str | None = None
    current: str | None = None
    currency: Currency | None = None
    as_of: dt.datetime | None = Field(
        default=None, description="What the balance reads as of before a refresh completes."
    )
    nulls: list[Literal["available", "current", "currency", "as_of"]] = Field(
        default_factory=list, description="Fields the service sent as null."
    )

    _amounts = field_validator("available", "current")(amount_text)
    _as_of = field_validator("as_of")(aware)


class AddressSpec(PackModel):
    street: Text | None = None
    city: Text | None = None
    region: Text | None = None
    postal_code: Text | None = None
    country: Text | None = None


class IdentitySpec(PackModel):
    """``[users.identity]``: who owns the account."""

    names: list[Text] = Field(default_factory=list, max_length=MAX_ITEMS)
    emails: list[Text] = Field(default_factory=list, max_length=MAX_ITEMS)
    phone_numbers: list[Text] = Field(default_factory=list, max_length=MAX_ITEMS)
    addresses: list[AddressSpec] = Field(default_factory=list, max_length=MAX_ITEMS)


class TransactionRow(PackModel):
    """One listed transaction; ``date``, or ``days_ago`` (counted back from the sandbox's start)."""

    transaction_id: Token
    date: dt.date | None = None
    days_ago: int | None = Field(default=None, ge=0, le=_MAX_DAYS)
    amount: str
    description: Text = ""
    category: Text | None = None
    pending: bool = False

    _amount = field_validator("amount")(amount_text)

    @model_validator(mode="after")
    def _one_date(self) -> TransactionRow:
        if self.date is not None and self.days_ago is not None:
            raise ValueError("give date or days_ago, not both")
        return self


class TransactionsSpec(PackModel):
    """``[users.transactions]``: listed ``rows``, or generated (``count``, ``days``, ``seed``...)."""

    rows: list[TransactionRow] | None = Field(default=None, max_length=MAX_LISTED)
    count: int | None = Field(default=None, ge=0, le=MAX_GENERATED)
    days: int | None = Field(default=None, ge=1, le=_MAX_DAYS)
    seed: int | None = Field(default=None, ge=0, le=2**63 - 1)
    categories: list[str] | None = Field(default=None, min_length=1)
    amounts: list[str] | None = Field(
        default=None,
        min_length=2,
        max_length=2,
        description="[smallest, largest], e.g. ['1.00', '250.00']",
    )
    currency: Currency | None = None

    @field_validator("categories")
    @classmethod
    def _known_categories(cls, names: list[str] | None) -> list[str] | None:
        known = sorted(CATEGORIES)
        for name in names or ():
            if name not in CATEGORIES:
                raise one_of("category", name, known)
        return names

    @field_validator("amounts")
    @classmethod
    def _amount_range(cls, amounts: list[str] | None) -> list[str] | None:
        if amounts is None:
            return None
        for size in amounts:
            amount_text(size)
            if size.startswith("-") or float(size) <= 0 or float(size) > 10**13:
                raise ValueError(
                    f"{size!r}: amounts are sizes, more than 0 (debits are made negative)"
                )
        if float(amounts[0]) > float(amounts[1]):
            raise ValueError("the smallest amount comes first")
        return amounts

    @model_validator(mode="after")
    def _listed_or_generated(self) -> TransactionsSpec:
        generated = [
            name
            for name in ("count", "days", "seed", "categories", "amounts")
            if getattr(self, name) is not None
        ]
        if self.rows is not None and generated:
            raise ValueError(f"rows are listed, so {', '.join(generated)} cannot be given too")
        return self


class AnswerSpec(PackModel):
    """``[[users.answers]]``: an error an endpoint answers, always or for some calls."""

    endpoint: str = Field(description="An endpoint's name (get_balance...) or * for every one.")
    code: str
    status: int | None = Field(default=None, ge=400, le=599)
    message: Text | None = Field(default=None, description="Default: the catalogue's text.")
    from_call: int = Field(default=1, ge=1, le=10**9)
    calls: int | None = Field(default=None, ge=1, le=10**9, description="Default: every call.")
    retry_after: int | None = Field(default=None, ge=1, le=int(_MAX_SECONDS))

    _code = field_validator("code")(error_code)

    @field_validator("endpoint")
    @classmethod
    def _known_endpoint(cls, name: str) -> str:
        if name != EVERY_ENDPOINT and name not in ENDPOINT_NAMES:
            raise one_of("endpoint", name, [*ENDPOINT_NAMES, EVERY_ENDPOINT])
        return name

    @model_validator(mode="after")
    def _unknown_code_says_all(self) -> AnswerSpec:
        if known_spec(self.code) is None and (self.status is None or self.message is None):
            raise ValueError(f"{self.code} is not in the catalogue: give its status and message")
        return self


class MfaSpec(PackModel):
    """``[users.mfa]``: the challenge jobs stop at, and the user's lockout."""

    question: Question | None = None
    answer: Token = Field(repr=False)
    attempts: int = Field(default=MFA_ATTEMPTS, ge=1, le=MAX_MFA_ATTEMPTS)
    session_seconds: Seconds | None = None
    block_seconds: Seconds | None = None
    kinds: list[JobKind] | None = Field(
        default=None, min_length=1, description="Default: every kind."
    )

    @field_validator("answer")
    @classmethod
    def _answerable(cls, answer: str) -> str:
        if not answer.strip():
            raise ValueError("an answer cannot be blank")
        return answer

    @field_validator("kinds", mode="before")
    @classmethod
    def _known_kinds(cls, kinds: Any) -> Any:
        names = [kind.value for kind in JobKind]
        for kind in kinds if isinstance(kinds, list) else ():
            if isinstance(kind, str) and kind not in names:
                raise one_of("job kind", kind, names)
        # Strict mode takes an enum member only: the names were checked above.
        return (
            [JobKind(kind) if isinstance(kind, str) else kind for kind in kinds]
            if isinstance(kinds, list)
            else kinds
        )


class FailSpec(PackModel):
    """A job that fails with ``code``: at the end of ``pending`` or when it would complete."""

    code: str
    message: Text | None = Field(default=None, description="Default: the catalogue's text.")
    at: Literal["pending", "in_progress"] = "in_progress"

    _code = field_validator("code")(error_code)

    @model_validator(mode="after")
    def _unknown_code_says_all(self) -> FailSpec:
        if known_spec(self.code) is None and self.message is None:
            raise ValueError(f"{self.code} is not in the catalogue: give its message")
        return self


class JobKindSpec(PackModel):
    seconds: Seconds | None = None
    fail: FailSpec | None = None


class JobsSpec(PackModel):
    """``[users.jobs]``: how long jobs run (every kind), and each kind's own behaviour."""

    seconds: Seconds | None = None
    balance_refresh: JobKindSpec | None = None
    identity: JobKindSpec | None = None
    transactions: JobKindSpec | None = None


class RecordedSpec(PackModel):
    """``[users.recorded]``: where a recorded user came from (written by ``accountdesk record``)."""

    service: Text
    at: dt.datetime
    redacted: list[Text] = Field(default_factory=list, max_length=MAX_ITEMS)
    by: Text | None = None
    notes: list[Text] = Field(default_factory=list, max_length=MAX_ITEMS)


class UserSpec(PackModel):
    """``[[users]]``: one scenario user."""

    id: str
    summary: Summary | None = Field(default=None, description="Default: made from what it does.")
    description: Paragraph | None = None
    link_type: Literal["fi", "manual"] = "fi"
    account: AccountSpec = Field(default_factory=AccountSpec)
    balance: BalanceSpec = Field(default_factory=BalanceSpec)
    identity: IdentitySpec = Field(default_factory=IdentitySpec)
    transactions: TransactionsSpec = Field(default_factory=TransactionsSpec)
    answers: list[AnswerSpec] = Field(default_factory=list, max_length=MAX_ITEMS)
    mfa: MfaSpec | None = None
    jobs: JobsSpec = Field(default_factory=JobsSpec)
    recorded: RecordedSpec | None = None

    @field_validator("id")
    @classmethod
    def _sandbox_user_id(cls, user_id: str) -> str:
        problem = sandbox_user_id_problem(user_id)
        if problem is not None:
            raise ValueError(problem)
        return user_id


class ScenarioPack(PackModel):
    """A scenario pack: users, and optionally the clock's start and credentials of its own."""

    title: Title | None = None
    description: Paragraph | None = None
    clock: ClockSpec | None = None
    credentials: list[CredentialSpec] = Field(default_factory=list, max_length=MAX_ITEMS)
    users: list[UserSpec] = Field(default_factory=list, max_length=MAX_USERS)


def pack_schema() -> dict[str, Any]:
    """The JSON Schema of a pack (``accountdesk scenarios schema``), from the models."""
    schema = ScenarioPack.model_json_schema()
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://accountdesk.example/schemas/scenario-pack.json",
        **schema,
        "title": "accountdesk scenario pack",
    }
