"""A recording as a scenario pack user: the data as read, every error as a forced answer.

:func:`pack_user` turns a :class:`~.record.Recording` into the plain data of
one ``[[users]]`` table (:mod:`.pack_toml` writes it): each read that
answered data becomes the user's account, balance, identity or listed
transactions (a field sent as null is named in ``nulls``); each error
becomes a forced answer with its status, code and message as sent (one
``*`` answer when every endpoint said the same: the bank is down); job
starts become MFA and job behaviour. Redacted unless told not to
(:mod:`.redaction`): every text of the user passes the redactor, but the
format's own words (endpoints, codes, where it was recorded).
"""

from __future__ import annotations

import contextlib
import datetime as dt
from decimal import Decimal
from typing import Any

from accountdesk.contract import JobKind, JobStatus
from accountdesk.contract import endpoints as ep
from accountdesk.core.cases.record import READ_ENDPOINTS, START_ENDPOINTS, Answer, Recording
from accountdesk.core.cases.redaction import REDACTED_FIELDS, Redactor

__all__ = ["MAX_RECORDED_TRANSACTIONS", "PLACEHOLDER_MFA_ANSWER", "pack_user"]

#: Listed transactions a pack holds at most (the newest are kept).
MAX_RECORDED_TRANSACTIONS = 100_000
#: What a recorded user takes as its MFA answer: the service never tells.
PLACEHOLDER_MFA_ANSWER = "1234"
#: Answers that say what state the service was in, not how the user behaves.
_STATE_CODES = frozenset({"AC-112"})


def pack_user(
    recording: Recording, *, case_number: int, redact: bool = True, user_id: str | None = None
) -> dict[str, Any]:
    """The pack user (plain data, see :mod:`.pack_toml`) that answers as ``recording`` did."""
    reads = recording.reads
    account = _payload(reads.get(ep.ACCOUNT.name))
    identity = _payload(reads.get(ep.IDENTITY_READ.name))
    redactor: Redactor | None = None
    if redact:
        redactor = Redactor(case_number)
        redactor.learn(user_id=recording.user_id, account=account, identity=identity)
    notes = list(recording.notes)
    user: dict[str, Any] = {"id": user_id or (redactor.user_id if redactor else recording.user_id)}
    user["description"] = (
        f"Recorded from {recording.service} at {recording.recorded_at:%Y-%m-%d %H:%M} UTC."
    )
    if account is not None:
        link = account.get("link_type")
        if link in ("fi", "manual"):
            user["link_type"] = link
        elif link is not None:
            notes.append(f"link_type {str(link)[:40]!r} is not fi or manual: recorded as fi")
        user["account"] = _account(account, redactor)
    balance = _payload(reads.get(ep.BALANCE.name))
    if balance is not None:
        user["balance"] = _balance(balance)
    if identity is not None:
        user["identity"] = _identity(identity, redactor)
    transactions = _payload(reads.get(ep.TRANSACTIONS_READ.name))
    if transactions is not None:
        user["transactions"] = _transactions(transactions, notes)
    user["answers"] = _answers(recording, notes)
    mfa, jobs = _jobs(recording, notes)
    if mfa is not None:
        user["mfa"] = mfa
    if jobs:
        user["jobs"] = jobs
    user["recorded"] = {
        "service": recording.service,
        "at": recording.recorded_at.astimezone(dt.UTC),
        "redacted": list(REDACTED_FIELDS) if redact else [],
        "by": f"accountdesk {_version()}",
    }
    if notes:
        user["recorded"]["notes"] = notes
    if not user["answers"]:
        del user["answers"]
    return user if redactor is None else redactor.pack_user(user)


def _payload(answer: Answer | None) -> dict[str, Any] | None:
    if answer is None or answer.is_error or not isinstance(answer.payload, dict):
        return None
    return answer.payload


def _text(value: Any) -> str | None:
    """A field as text (a number the service sent stays its digits), or None for null."""
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return format(Decimal(repr(value)), "f")
    return str(value)


_ACCOUNT_FIELDS = (
    "institution_name",
    "account_name",
    "account_type",
    "account_number",
    "account_number_masked",
    "routing_number",
    "currency",
)


def _account(account: dict[str, Any], redactor: Redactor | None) -> dict[str, Any]:
    table: dict[str, Any] = {}
    nulls = []
    for name in _ACCOUNT_FIELDS:
        value = _text(account.get(name))
        if value is None:
            nulls.append(name)
        else:
            table[name] = value
    if redactor is not None and "account_number_masked" in table:
        table["account_number_masked"] = redactor.masked(table["account_number_masked"])
    if nulls:
        table["nulls"] = nulls
    return table


def _balance(balance: dict[str, Any]) -> dict[str, Any]:
    table: dict[str, Any] = {}
    nulls = []
    for name in ("available", "current", "currency"):
        value = _text(balance.get(name))
        if value is None:
            nulls.append(name)
        else:
            table[name] = value
    as_of = _moment(balance.get("as_of"))
    if as_of is None:
        nulls.append("as_of")
    else:
        table["as_of"] = as_of
    if nulls:
        table["nulls"] = nulls
    return table


def _moment(value: Any) -> dt.datetime | None:
    if not isinstance(value, str):
        return None
    try:
        moment = dt.datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=dt.UTC)


def _identity(identity: dict[str, Any], redactor: Redactor | None) -> dict[str, Any]:
    table: dict[str, Any] = {}
    for name in ("names", "emails", "phone_numbers"):
        items = identity.get(name)
        table[name] = [_text(item) or "" for item in items] if isinstance(items, list) else []
    addresses = []
    for position, address in enumerate(identity.get("addresses") or ()):
        if not isinstance(address, dict):
            continue
        entry = {
            key: _text(address.get(key))
            for key in ("street", "city", "region", "postal_code", "country")
            if address.get(key) is not None
        }
        region = entry.get("region")
        if redactor is not None and region:
            entry["region"] = redactor.region(position, region)
        addresses.append(entry)
    if addresses:
        table["addresses"] = addresses
    return table


def _transactions(transactions: dict[str, Any], notes: list[str]) -> dict[str, Any]:
    rows = [row for row in transactions.get("transactions") or () if isinstance(row, dict)]
    if len(rows) > MAX_RECORDED_TRANSACTIONS:
        notes.append(
            f"{len(rows):,} transactions were read; the newest {MAX_RECORDED_TRANSACTIONS:,} kept"
        )
        rows = rows[:MAX_RECORDED_TRANSACTIONS]
    listed = []
    for row in rows:
        entry: dict[str, Any] = {"transaction_id": _text(row.get("transaction_id")) or "?"}
        date = row.get("date")
        if isinstance(date, str):
            with contextlib.suppress(ValueError):
                entry["date"] = dt.date.fromisoformat(date[:10])
        entry["amount"] = _text(row.get("amount")) or "0"
        entry["description"] = _text(row.get("description")) or ""
        category = _text(row.get("category"))
        if category is not None:
            entry["category"] = category
        entry["pending"] = row.get("pending") is True
        listed.append(entry)
    table: dict[str, Any] = {}
    currency = _text(transactions.get("currency"))
    if currency:
        table["currency"] = currency
    table["rows"] = listed
    return table


def _answer(endpoint: str, answer: Answer) -> dict[str, Any]:
    entry: dict[str, Any] = {"endpoint": endpoint, "code": answer.code, "status": answer.status}
    entry["message"] = answer.message if answer.message is not None else ""
    if answer.retry_after is not None:
        entry["retry_after"] = answer.retry_after
    return entry


def _answers(recording: Recording, notes: list[str]) -> list[dict[str, Any]]:
    """Every error answer, as one ``*`` answer when every endpoint read said the same."""
    answered: list[tuple[str, Answer]] = [
        (name, answer) for name, answer in recording.reads.items() if answer.is_error
    ]
    for kind, answer in recording.starts.items():
        if not answer.is_error:
            continue
        if answer.code in _STATE_CODES:
            notes.append(
                f"{START_ENDPOINTS[kind].name} answered {answer.code} (a job was running): not kept"
            )
            continue
        answered.append((START_ENDPOINTS[kind].name, answer))
    asked = len(recording.reads) + len(recording.starts)
    same = {(a.status, a.code, a.message, a.retry_after) for _, a in answered}
    if len(answered) == asked and len(same) == 1 and asked >= len(READ_ENDPOINTS):
        # The bank is down for this user: every endpoint, job reads and MFA included.
        return [_answer("*", answered[0][1])]
    return [_answer(name, answer) for name, answer in answered]


def _jobs(recording: Recording, notes: list[str]) -> tuple[dict[str, Any] | None, dict[str, Any]]:
    mfa: dict[str, Any] | None = None
    mfa_kinds: list[str] = []
    jobs: dict[str, Any] = {}
    for kind, answer in recording.starts.items():
        started = answer.payload if isinstance(answer.payload, dict) else None
        if started is None:
            continue
        challenge = started.get("mfa") if started.get("status") == JobStatus.MFA_REQUIRED else None
        if isinstance(challenge, dict):
            mfa_kinds.append(kind.value)
            if mfa is None:
                mfa = _mfa(started, challenge)
        final = recording.finals.get(kind) or started
        plan = _ending(started, final, recording.phases.get(kind))
        if plan:
            jobs[kind.value] = plan
    if mfa is not None:
        notes.append(
            f"the MFA answer cannot be read from the service: this user takes "
            f"{PLACEHOLDER_MFA_ANSWER!r}"
        )
        if len(mfa_kinds) < len(JobKind):
            mfa["kinds"] = mfa_kinds
    return mfa, jobs


def _mfa(job: dict[str, Any], challenge: dict[str, Any]) -> dict[str, Any]:
    mfa: dict[str, Any] = {}
    question = challenge.get("question")
    if isinstance(question, str) and question.strip():
        mfa["question"] = question[:500]
    mfa["answer"] = PLACEHOLDER_MFA_ANSWER
    attempts = challenge.get("attempts_remaining")
    if isinstance(attempts, int) and not isinstance(attempts, bool) and 1 <= attempts <= 1000:
        mfa["attempts"] = attempts
    created, expires = _moment(job.get("created_at")), _moment(challenge.get("expires_at"))
    if created is not None and expires is not None and expires > created:
        mfa["session_seconds"] = _seconds(expires - created)
    return mfa


def _ending(
    started: dict[str, Any], final: dict[str, Any], phase: JobStatus | None
) -> dict[str, Any]:
    """How long the job ran and how it failed, when the recording saw it end.

    A failure replays from the phase the job was last seen running in, at the
    time it failed: a pack's job is ``pending`` for the first quarter of its
    ``seconds`` and fails ``at = "pending"`` as that quarter ends, so a job
    that failed from ``pending`` after t seconds is written as 4t seconds.
    """
    plan: dict[str, Any] = {}
    created = _moment(started.get("created_at"))
    status = final.get("status")
    error = final.get("error") if isinstance(final.get("error"), dict) else None
    quarters = 1
    if status == JobStatus.FAILED and error is not None and isinstance(error.get("code"), str):
        at = "in_progress" if phase is JobStatus.IN_PROGRESS else "pending"
        fail = {"code": error["code"], "message": _text(error.get("message")) or ""}
        plan["fail"] = {**fail, "at": at}
        quarters = 4 if at == "pending" else 1
        ended = _moment(final.get("updated_at"))
    else:
        ended = _moment(final.get("completed_at")) if status == JobStatus.COMPLETED else None
    if created is not None and ended is not None and ended > created:
        plan["seconds"] = _seconds((ended - created) * quarters)
    return plan


def _seconds(span: dt.timedelta) -> float | int:
    seconds = round(span.total_seconds(), 3)
    return int(seconds) if seconds.is_integer() else seconds


def _version() -> str:
    from accountdesk import __version__

    return __version__
