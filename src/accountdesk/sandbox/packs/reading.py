"""Scenario packs read from files: checked, resolved into scenario users, merged.

:func:`load_scenarios` is the one way a sandbox gets its users: the shipped
default pack (``accountdesk/scenarios/default.toml``: the eight users and the
two credentials) first, then each pack given (``--scenarios``, a tour's
``scenarios``, a training room's), through the same code. A pack's user
whose id is a shipped user's replaces that user (a recording of
``user_good`` serves as the header the recorder wrote says; the pack's
:attr:`PackSource.replaces` names it, for the banner and ``scenarios
check``). A user id defined twice among the packs given, an API key defined
twice, or two different clock starts, is an error naming both files.

Every problem is a :class:`PackError` whose lines each name the file, the
line or field path, and what is expected: a missing file, a folder, a file
over :data:`~.pack_models.MAX_PACK_BYTES`, a device or a pipe, bytes that are not UTF-8,
malformed TOML, wrong types, unknown keys (with "did you mean"), bounds.
Never a traceback.
"""

from __future__ import annotations

import datetime as dt
import stat
import tomllib
import zlib
from collections.abc import Iterable, Sequence
from dataclasses import replace
from decimal import Decimal
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Any

from pydantic import ValidationError

from accountdesk.contract import JobKind
from accountdesk.sandbox.packs.models import (
    EVERY_ENDPOINT,
    MAX_PACK_BYTES,
    ScenarioPack,
    TransactionsSpec,
    UserSpec,
)
from accountdesk.sandbox.packs.problems import describe_errors, line_index
from accountdesk.sandbox.packs.summary import describe
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
    PackSource,
    Scenario,
    ScenarioSet,
)

__all__ = [
    "SHIPPED_PACK",
    "PackError",
    "load_scenarios",
    "parse_pack",
    "read_pack",
    "shipped_pack_path",
]

#: A file nested hundreds deep (a pack's own values are a few levels deep).
TOO_DEEP = "not valid TOML: arrays or tables nested too deeply (it needs a few levels)"
#: How the shipped default pack is named in messages.
SHIPPED_PACK = "the shipped default pack"
_DEFAULT_FILE = "default.toml"


class PackError(ValueError):
    """A pack (or a set of packs) cannot be used; each of ``problems`` is one line."""

    def __init__(self, problems: Sequence[str]) -> None:
        self.problems = list(problems)
        super().__init__("\n".join(self.problems))


def shipped_pack_path(name: str = _DEFAULT_FILE) -> Path:
    """A pack that comes with accountdesk (``default.toml``, the examples)."""
    return Path(str(resources.files("accountdesk") / "scenarios" / name))


def read_pack(path: Path | str, *, name: str | None = None) -> ScenarioPack:
    """The pack in the file at ``path``, checked; :class:`PackError` when it cannot be used."""
    path = Path(path)
    source = name or str(path)
    try:
        problem = file_kind_problem(path, "a scenario pack file", "a pack is a file")
        if problem is not None:
            raise PackError([f"{source}: {problem}"])
        with path.open("rb") as stream:
            data = stream.read(MAX_PACK_BYTES + 1)
    except FileNotFoundError:
        raise PackError([f"{source}: no such file"]) from None
    except OSError as error:
        raise PackError([f"{source}: cannot read it: {error.strerror or error}"]) from None
    if len(data) > MAX_PACK_BYTES:
        size = max(path.stat().st_size, len(data)) / 2**20
        raise PackError(
            [f"{source}: is {size:.1f} MB; a pack is at most {MAX_PACK_BYTES // 2**20} MB"]
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise PackError(
            [f"{source}: line {line}: not UTF-8 text (byte 0x{data[error.start]:02x})"]
        ) from None
    return parse_pack(text, source=source)


def file_kind_problem(path: Path, what: str, instead: str) -> str | None:
    """Why ``path`` cannot be read as ``what`` (a folder, a device, a pipe), or None.

    Asked before opening it: a device gives bytes for ever, a pipe nobody
    writes to waits for ever. FileNotFoundError when there is nothing there.
    Tour files are asked the same, in the same words
    (:func:`accountdesk.core.tours.files.file_kind_problem`: the core may not
    import the sandbox, nor the sandbox the core).
    """
    mode = path.stat().st_mode
    if stat.S_ISDIR(mode):
        return f"is a folder, not {what}"
    if not stat.S_ISREG(mode):
        return f"is not a regular file (a device, a pipe or a socket); {instead}"
    return None


def parse_pack(text: str, *, source: str) -> ScenarioPack:
    """The pack in ``text`` (TOML), checked; ``source`` names it in messages."""
    try:
        document = tomllib.loads(text.removeprefix("\ufeff"))
    except tomllib.TOMLDecodeError as error:
        raise PackError([f"{source}: {_toml_problem(error)}"]) from None
    except RecursionError:  # tomllib recurses per nested array or inline table
        raise PackError([f"{source}: {TOO_DEEP}"]) from None
    try:
        return ScenarioPack.model_validate(document)
    except ValidationError as error:
        raise PackError(describe_errors(error, document, source, line_index(text))) from None


def _toml_problem(error: tomllib.TOMLDecodeError) -> str:
    message = str(error)
    line, column = getattr(error, "lineno", None), getattr(error, "colno", None)
    if line is None and "(at line " in message:  # before Python 3.14: in the text
        message, _, where = message.rpartition(" (at line ")
        number, _, rest = where.partition(", column ")
        line, column = number, rest.rstrip(")")
    elif line is not None:
        message = getattr(error, "msg", message)
    where = f"line {line}, column {column}: " if line is not None else ""
    return f"{where}not valid TOML: {message}"


def load_scenarios(paths: Iterable[Path | str] = (), *, shipped_users: bool = True) -> ScenarioSet:
    """The shipped default pack and the packs at ``paths``, merged; :class:`PackError` otherwise.

    ``shipped_users=False`` serves the packs' users alone (``--scenarios-only``): the
    shipped pack then gives only its credential for every user, ``sandbox_key``.
    """
    packs: list[tuple[PackSource, ScenarioPack]] = []
    problems: list[str] = []
    pack = read_pack(shipped_pack_path(), name=SHIPPED_PACK)
    if not shipped_users:
        every_user = [credential for credential in pack.credentials if credential.users is None]
        pack = pack.model_copy(update={"users": [], "credentials": every_user})
    packs.append((_source(SHIPPED_PACK, pack, shipped=True), pack))
    for path in paths:
        try:
            pack = read_pack(path)
        except PackError as error:
            problems += error.problems
            continue
        packs.append((_source(str(path), pack), pack))
    if problems:
        raise PackError(problems)
    return merge_packs(packs)


def _source(name: str, pack: ScenarioPack, *, shipped: bool = False) -> PackSource:
    return PackSource(
        name, pack.title, tuple(user.id for user in pack.users), shipped, pack.description
    )


def merge_packs(packs: Sequence[tuple[PackSource, ScenarioPack]]) -> ScenarioSet:
    """One set of users and credentials from ``packs`` (first come first), or every conflict.

    A pack's user replaces a shipped user of the same id; any other id
    defined twice is a conflict.
    """
    problems: list[str] = []
    users: dict[str, Scenario] = {}
    shipped_ids: set[str] = set()
    replaced: dict[int, list[str]] = {}
    credentials: dict[str, tuple[Credential, str]] = {}
    start: tuple[dt.datetime, str] | None = None
    for index, (source, pack) in enumerate(packs):
        if pack.clock is not None:
            if start is None:
                start = (pack.clock.start, source.name)
            elif pack.clock.start != start[0]:
                problems.append(
                    f"{source.name}: clock.start: {start[1]} starts the clock at "
                    f"{start[0].isoformat()}, this pack at {pack.clock.start.isoformat()}"
                )
        for position, spec in enumerate(pack.users, start=1):
            known = users.get(spec.id)
            if spec.id in shipped_ids and not source.shipped:
                # Listed where the pack's users are, after the shipped ones.
                del users[spec.id]
                shipped_ids.discard(spec.id)
                replaced.setdefault(index, []).append(spec.id)
            elif known is not None:
                where = _elsewhere(known.source, source.name)
                problems.append(
                    f"{source.name}: users[{position}] ({spec.id}): the user id is defined "
                    f"twice: here and {where}"
                )
                continue
            users[spec.id] = scenario_of(spec, source.name)
            if source.shipped:
                shipped_ids.add(spec.id)
        for position, given in enumerate(pack.credentials, start=1):
            if given.api_key in credentials:
                where = _elsewhere(credentials[given.api_key][1], source.name)
                problems.append(
                    f"{source.name}: credentials[{position}]: API key {given.api_key} is defined "
                    f"twice: here and {where}"
                )
                continue
            allowed = frozenset(given.users) if given.users is not None else None
            credentials[given.api_key] = (
                Credential(given.api_key, given.api_secret, allowed),
                source.name,
            )
    for api_key, (credential, name) in credentials.items():
        missing = sorted((credential.user_ids or frozenset()) - users.keys())
        if missing:
            problems.append(
                f"{name}: credentials ({api_key}): users: no scenario user {', '.join(missing)}"
            )
    if problems:
        raise PackError(problems)
    gone = {user_id for ids in replaced.values() for user_id in ids}
    sources = tuple(
        replace(source, user_ids=tuple(u for u in source.user_ids if u not in gone))
        if source.shipped
        else replace(source, replaces=tuple(replaced.get(index, ())))
        for index, (source, _) in enumerate(packs)
    )
    return ScenarioSet(
        MappingProxyType(users),
        tuple(credential for credential, _ in credentials.values()),
        start[0].astimezone(dt.UTC) if start is not None else None,
        sources,
    )


def _elsewhere(first: str, here: str) -> str:
    return "earlier in this file" if first == here else f"in {first}"


# -- a pack's user as the engine uses it ---------------------------------------------


def scenario_of(spec: UserSpec, source: str) -> Scenario:
    """The scenario user ``spec`` describes, every default filled in."""
    account = _account(spec)
    currency = account.currency or "USD"
    balance = spec.balance
    nulls = set(balance.nulls)
    scenario = Scenario(
        user_id=spec.id,
        summary="",
        account=account,
        balance=BalanceData(
            available=None if "available" in nulls else (balance.available or "1000.00"),
            current=None if "current" in nulls else (balance.current or "1000.00"),
            currency=None if "currency" in nulls else (balance.currency or currency),
            as_of=None if "as_of" in nulls else balance.as_of,
        ),
        identity=IdentityData(
            tuple(spec.identity.names),
            tuple(spec.identity.emails),
            tuple(spec.identity.phone_numbers),
            tuple(Address(**address.model_dump()) for address in spec.identity.addresses),
        ),
        transactions=_transactions(spec.transactions),
        transactions_currency=spec.transactions.currency or currency,
        link_type=spec.link_type,
        answers=tuple(
            ForcedAnswer(
                code=answer.code,
                endpoints=None
                if answer.endpoint == EVERY_ENDPOINT
                else frozenset({answer.endpoint}),
                status=answer.status,
                message=answer.message,
                from_call=answer.from_call,
                calls=answer.calls,
                retry_after=answer.retry_after,
            )
            for answer in spec.answers
        ),
        mfa=_mfa(spec),
        jobs=MappingProxyType(_jobs(spec)),
        source=source,
    )
    return _with_summary(scenario, spec.summary)


def _with_summary(scenario: Scenario, summary: str | None) -> Scenario:
    return replace(scenario, summary=summary or describe(scenario))


def _account(spec: UserSpec) -> AccountData:
    given = spec.account
    nulls = set(given.nulls)
    # Made up from the user id when the pack gives none: the same every time.
    seed = zlib.crc32(spec.id.encode())
    defaults = {
        "institution_name": "Sandbox Community Bank",
        "account_name": "Everyday Checking",
        "account_type": "checking",
        "account_number": f"{4_000_000_000 + seed % 5_000_000_000:010d}",
        "routing_number": aba_routing_number(f"{10_000_000 + seed % 89_999_999:08d}"),
        "currency": "USD",
    }
    values: dict[str, str | None] = {}
    for name, default in defaults.items():
        value = getattr(given, name)
        values[name] = None if name in nulls else (value if value is not None else default)
    masked = given.account_number_masked
    number = values["account_number"]
    if masked is None and number:
        masked = "••••" + number[-4:]
    values["account_number_masked"] = None if "account_number_masked" in nulls else masked
    return AccountData(**values)


def aba_routing_number(first_eight: str) -> str:
    """A routing number with a valid ABA check digit (weights 3, 7, 1)."""
    weights = (3, 7, 1, 3, 7, 1, 3, 7)
    total = sum(int(digit) * weight for digit, weight in zip(first_eight, weights, strict=True))
    return first_eight + str((10 - total % 10) % 10)


def _transactions(spec: TransactionsSpec) -> tuple[dict[str, Any], ...] | GeneratedTransactions:
    if spec.rows is not None:
        return tuple(_row(row.model_dump()) for row in spec.rows)
    amounts = None
    if spec.amounts is not None:
        low, high = (int(Decimal(amount) * 100) for amount in spec.amounts)
        amounts = (max(low, 1), max(high, 1))
    return GeneratedTransactions(
        count=spec.count if spec.count is not None else 60,
        days=spec.days,
        seed=spec.seed,
        categories=frozenset(spec.categories) if spec.categories is not None else None,
        amount_cents=amounts,
    )


def _row(row: dict[str, Any]) -> dict[str, Any]:
    """A listed row in the wire's order (``days_ago`` stays, for the day the world starts)."""
    sent: dict[str, Any] = {"transaction_id": row["transaction_id"]}
    if row["days_ago"] is not None:
        sent["days_ago"] = row["days_ago"]
    else:
        sent["date"] = row["date"].isoformat() if row["date"] is not None else None
    sent |= {
        "amount": row["amount"],
        "description": row["description"],
        "category": row["category"],
        "pending": row["pending"],
    }
    return sent


def _mfa(spec: UserSpec) -> MfaPlan | None:
    mfa = spec.mfa
    if mfa is None:
        return None
    question = mfa.question
    if question is None:
        phones = spec.identity.phone_numbers
        question = (
            f"Enter the 4-digit code sent to the phone ending {phones[0][-4:]}"
            if phones
            else "Enter the code we sent you"
        )
    return MfaPlan(
        question=question,
        answer=mfa.answer,
        attempts=mfa.attempts,
        session=_duration(mfa.session_seconds),
        block=_duration(mfa.block_seconds),
        kinds=frozenset(mfa.kinds) if mfa.kinds is not None else frozenset(JobKind),
    )


def _jobs(spec: UserSpec) -> dict[JobKind, JobPlan]:
    jobs = spec.jobs
    plans = {}
    for kind in JobKind:
        own = getattr(jobs, kind.value)
        seconds = own.seconds if own is not None and own.seconds is not None else jobs.seconds
        failure = None
        if own is not None and own.fail is not None:
            failure = JobFailure(own.fail.code, own.fail.message, own.fail.at)
        if seconds is not None or failure is not None:
            plans[kind] = JobPlan(_duration(seconds), failure)
    return plans


def _duration(seconds: float | None) -> dt.timedelta | None:
    return None if seconds is None else dt.timedelta(seconds=seconds)
