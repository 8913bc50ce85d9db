"""A scenario user in words: what it does, for the scenario list and ``accountdesk scenarios check``.

:func:`describe` is the one-line summary a pack user gets when its pack
writes none (``linked; get_balance: 400 AC-106; MFA on every job``);
:func:`details` is the longer listing ``scenarios check`` prints under it.
Standard library only.
"""

from __future__ import annotations

from accountdesk.contract import ALL_ENDPOINTS, MANUAL_USER_CODES, JobKind, known_spec
from accountdesk.sandbox.scenario import ForcedAnswer, GeneratedTransactions, Scenario

__all__ = ["answer_words", "describe", "details"]

_DEFAULT_COUNT = 60
_KIND_WORDS = {
    JobKind.BALANCE_REFRESH: "balance refresh",
    JobKind.IDENTITY: "identity",
    JobKind.TRANSACTIONS: "transactions",
}
_ENDPOINTS = {endpoint.name: endpoint for endpoint in ALL_ENDPOINTS}


def answer_words(answer: ForcedAnswer) -> str:
    """``get_balance: 400 AC-106`` (``, calls 2-3`` / ``, from call 3``); ``every endpoint`` for ``*``."""
    where = "every endpoint" if answer.endpoints is None else ", ".join(sorted(answer.endpoints))
    status = answer.status
    if status is None:
        spec = known_spec(answer.code)
        endpoint = _ENDPOINTS.get(next(iter(answer.endpoints))) if answer.endpoints else None
        status = spec.status_for(endpoint) if spec is not None else None
    text = f"{where}: {status} {answer.code}"
    if answer.calls is not None:
        last = answer.from_call + answer.calls - 1
        calls = f"call {last}" if last == answer.from_call else f"calls {answer.from_call}-{last}"
        text += f", {calls}"
    elif answer.from_call > 1:
        text += f", from call {answer.from_call}"
    return text


def _mfa_words(scenario: Scenario) -> str | None:
    mfa = scenario.mfa
    if mfa is None:
        return None
    kinds = (
        "every job"
        if mfa.kinds == frozenset(JobKind)
        else " and ".join(_KIND_WORDS[kind] for kind in JobKind if kind in mfa.kinds) + " jobs"
    )
    return f"MFA on {kinds} (answer {mfa.answer}, {mfa.attempts} attempts)"


def _job_words(scenario: Scenario) -> list[str]:
    words = []
    for kind in JobKind:
        plan = scenario.jobs.get(kind)
        if plan is None:
            continue
        if plan.failure is not None:
            step = "before running" if plan.failure.at == "pending" else "at the end"
            words.append(f"{_KIND_WORDS[kind]} jobs fail with {plan.failure.code} {step}")
        if plan.seconds is not None:
            words.append(f"{_KIND_WORDS[kind]} jobs take {plan.seconds.total_seconds():g} s")
    return words


def _transaction_words(scenario: Scenario) -> str | None:
    plan = scenario.transactions
    if isinstance(plan, GeneratedTransactions):
        return None if plan.count == _DEFAULT_COUNT else f"{plan.count:,} transactions"
    return f"{len(plan):,} listed transactions"


def _count(number: int, noun: str) -> str:
    plural = noun + ("es" if noun.endswith("s") else "s")
    return f"{number:,} {noun if number == 1 else plural}"


def describe(scenario: Scenario) -> str:
    """One line: how it is linked, the errors it answers, MFA, jobs, transactions."""
    parts = ["manually linked" if scenario.link_type == "manual" else "linked"]
    parts += [answer_words(answer) for answer in scenario.answers]
    mfa = _mfa_words(scenario)
    if mfa is not None:
        parts.append(mfa)
    parts += _job_words(scenario)
    transactions = _transaction_words(scenario)
    if transactions is not None:
        parts.append(transactions)
    text = "; ".join(parts)
    return text if len(text) <= 240 else text[:239] + "…"


def details(scenario: Scenario) -> list[str]:
    """What ``scenarios check`` lists under a user: its data and every behaviour, a line each."""
    account = scenario.account
    balance = scenario.balance
    account_line = (
        f"account: {account.institution_name or '—'}, {account.account_type or '—'} "
        f"{account.account_number_masked or '—'}, {scenario.link_type}"
    )
    balance_line = (
        f"balance: available {balance.available or '—'}, current {balance.current or '—'} "
        f"{balance.currency or ''}"
    )
    lines = [account_line, balance_line.rstrip()]
    identity = scenario.identity
    lines.append(
        "identity: "
        + ", ".join(
            _count(len(items), noun)
            for items, noun in (
                (identity.names, "name"),
                (identity.emails, "e-mail"),
                (identity.phone_numbers, "phone"),
                (identity.addresses, "address"),
            )
        )
    )
    plan = scenario.transactions
    if isinstance(plan, GeneratedTransactions):
        span = f" over {plan.days} days" if plan.days is not None else ""
        lines.append(f"transactions: {plan.count:,} generated{span}")
    else:
        lines.append(f"transactions: {len(plan):,} listed")
    lines += [f"answers {answer_words(answer)}" for answer in scenario.answers]
    if scenario.link_type == "manual":
        refused = ", ".join(f"{name} {code}" for name, code in MANUAL_USER_CODES.items())
        lines.append(f"manually linked (rule 3, each 405 unless answered above): {refused}")
    mfa = scenario.mfa
    if mfa is not None:
        session = f"{mfa.session.total_seconds():g} s" if mfa.session else "the sandbox's"
        block = f"{mfa.block.total_seconds():g} s" if mfa.block else "the sandbox's"
        lines.append(f"{_mfa_words(scenario)}; session {session}, block {block}")
        lines.append(f"MFA question: {mfa.question}")
    lines += _job_words(scenario)
    return lines
