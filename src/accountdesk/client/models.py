"""Typed records of the Account Data Service.

The contract shows no payloads, so these models follow the sandbox's wire
format (see the README, "Wire format") and stay lenient: unknown fields are
kept (``model_extra``), most fields are optional. Account and routing
numbers are ``SecretStr`` so a repr, a log line or a snapshot never shows
them.

Service data is made safe here, once, as it enters: every declared text
field is sanitised and bounded (``ServiceText``), identifiers that go back
into paths are refused when unusable (``ServiceId``), amounts and counts are
bounded (see ``_bounds``). What is *not* made safe: ``raw`` (the payload
exactly as the server sent it) and ``model_extra`` (fields the models do not
declare). Pass anything from those through
:func:`~accountdesk.client.sanitise_text` before showing it.
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any, Self

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ModelWrapValidatorHandler,
    PrivateAttr,
    SecretStr,
    model_validator,
)

from accountdesk.client._bounds import MAX_ATTEMPTS_REMAINING, MAX_LIST_ITEMS, MAX_TOKEN_LIFETIME
from accountdesk.client._fields import Amount, ServiceId, ServiceSecret, ServiceText, TextList
from accountdesk.client._token_answer import Note, usable_answer

# Re-exported: the client's users import them from here.
from accountdesk.contract.jobs import TERMINAL_STATUSES, JobKind, JobStatus

__all__ = [
    "TERMINAL_STATUSES",
    "Account",
    "Address",
    "Balance",
    "Identity",
    "Job",
    "JobError",
    "JobKind",
    "JobStatus",
    "MfaChallenge",
    "ServiceModel",
    "TokenGrant",
    "Transaction",
    "Transactions",
    "mask_number",
]


class ServiceModel(BaseModel):
    """Base of every record: lenient, keeps unknown fields and the raw payload."""

    model_config = ConfigDict(extra="allow", populate_by_name=True, hide_input_in_errors=True)

    _raw: bytes | None = PrivateAttr(default=None)

    @classmethod
    def from_json(cls, payload: bytes) -> Self:
        """Parse a response body; the bytes are kept for :attr:`raw`."""
        record = cls.model_validate_json(payload)
        record._raw = payload
        return record

    @property
    def raw(self) -> Any:
        """The payload as the server sent it (decoded JSON): secrets included, not sanitised.

        Decoded on demand: a 100,000-row transaction list is kept as bytes,
        not as a second tree of dicts.
        """
        if self._raw is None:
            return self.model_dump(mode="json")
        return json.loads(self._raw)

    def __repr_args__(self) -> Any:
        # Fields a real service adds are kept (model_extra) but never shown:
        # we cannot know that an unknown field is not a full account number.
        declared = type(self).model_fields
        return [(name, value) for name, value in super().__repr_args__() if name in declared]


class TokenGrant(ServiceModel):
    """Answer of ``POST /token``, made usable where it can be (see ``_token_answer``).

    ``token_type`` is always an auth scheme (``Bearer`` when the answer's is
    not one); ``expires_in`` is None when the lifetime is unknown: not
    announced, or not a number of seconds more than 0 and at most a year.
    :attr:`notes` say what was odd, for the log.
    """

    access_token: SecretStr
    token_type: str = "Bearer"
    #: Seconds; more than 0 and at most a year, or None when unknown.
    expires_in: float | None = Field(default=None, gt=0, le=MAX_TOKEN_LIFETIME, allow_inf_nan=False)
    _notes: tuple[Note, ...] = PrivateAttr(default=())

    @model_validator(mode="wrap")
    @classmethod
    def _usable(cls, data: Any, handler: ModelWrapValidatorHandler[Self]) -> Self:
        notes: tuple[Note, ...] = ()
        if isinstance(data, dict):
            data, notes = usable_answer(data)
        grant = handler(data)
        grant._notes = notes
        return grant

    @property
    def notes(self) -> tuple[Note, ...]:
        """What was odd about the answer and what was done instead (never the token)."""
        return self._notes


class Account(ServiceModel):
    """A user's account record (``GET /accounts/{user_id}``)."""

    user_id: ServiceId
    link_type: ServiceText = "fi"  # "fi" or "manual"; other values are passed through
    institution_name: ServiceText | None = None
    account_name: ServiceText | None = None
    account_type: ServiceText | None = None
    account_number: ServiceSecret | None = None
    account_number_masked: ServiceText | None = None
    routing_number: ServiceSecret | None = None
    currency: ServiceText | None = None

    @property
    def is_manually_linked(self) -> bool:
        return self.link_type == "manual"

    @property
    def masked_account_number(self) -> str:
        """``••••6789``-style number, derived when the service sends none."""
        if self.account_number_masked:
            return self.account_number_masked
        return mask_number(self.account_number)

    @property
    def masked_routing_number(self) -> str:
        return mask_number(self.routing_number)


def mask_number(number: SecretStr | None, visible: int = 4) -> str:
    """Hide all but the last ``visible`` digits of a number."""
    if number is None:
        return "—"
    text = number.get_secret_value()
    if len(text) <= visible:
        return "•" * len(text)
    return "•" * 4 + text[-visible:]


class Balance(ServiceModel):
    """``GET /accounts/{user_id}/balance``."""

    user_id: ServiceId | None = None
    currency: ServiceText | None = None
    available: Amount | None = None
    current: Amount | None = None
    as_of: dt.datetime | None = None


class MfaChallenge(ServiceModel):
    """The MFA session a job waits on."""

    question: ServiceText = ""
    expires_at: dt.datetime | None = None
    attempts_remaining: int | None = Field(default=None, ge=0, le=MAX_ATTEMPTS_REMAINING)


class JobError(ServiceModel):
    """Why a job failed, in the error envelope's terms.

    ``blocked_until`` is set on an ``AC-108`` failure: when the block on the
    user lifts.
    """

    code: ServiceText | None = None
    message: ServiceText | None = None
    blocked_until: dt.datetime | None = None


class Job(ServiceModel):
    """An asynchronous unit of work: balance refresh, identity or transactions.

    ``status`` and ``kind`` are the contract's :class:`JobStatus` and
    :class:`JobKind` members when the service sends a known value, and the
    plain text otherwise (a newer service may add states; the client keeps
    them rather than failing).
    """

    job_id: ServiceId
    user_id: ServiceId | None = None
    kind: JobKind | ServiceText | None = Field(default=None, union_mode="left_to_right")
    status: JobStatus | ServiceText = Field(default=JobStatus.PENDING, union_mode="left_to_right")
    created_at: dt.datetime | None = None
    updated_at: dt.datetime | None = None
    completed_at: dt.datetime | None = None
    mfa: MfaChallenge | None = None
    error: JobError | None = None

    @property
    def is_terminal(self) -> bool:
        return self.status in TERMINAL_STATUSES

    @property
    def needs_mfa(self) -> bool:
        return self.status == JobStatus.MFA_REQUIRED


class Address(ServiceModel):
    street: ServiceText | None = None
    city: ServiceText | None = None
    region: ServiceText | None = None
    postal_code: ServiceText | None = None
    country: ServiceText | None = None

    def one_line(self) -> str:
        parts = (self.street, self.city, self.region, self.postal_code, self.country)
        return ", ".join(part for part in parts if part)


class Identity(ServiceModel):
    """``GET /accounts/{user_id}/identity``: who owns the account."""

    user_id: ServiceId | None = None
    names: TextList = Field(default_factory=list)
    emails: TextList = Field(default_factory=list)
    phone_numbers: TextList = Field(default_factory=list)
    addresses: list[Address] = Field(default_factory=list, max_length=MAX_LIST_ITEMS)


class Transaction(ServiceModel):
    """One transaction; ``amount`` is negative for a debit."""

    transaction_id: ServiceId
    date: dt.date | None = None
    amount: Amount
    description: ServiceText = ""
    category: ServiceText | None = None
    pending: bool = False


class Transactions(ServiceModel):
    """``GET /accounts/{user_id}/transactions``: the full list, newest first."""

    user_id: ServiceId | None = None
    currency: ServiceText | None = None
    transactions: list[Transaction] = Field(default_factory=list)

    def __len__(self) -> int:
        return len(self.transactions)
