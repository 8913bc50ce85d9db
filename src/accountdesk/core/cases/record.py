"""Record a live case: read one user through the client and write a scenario pack user that answers the same.

:func:`record_user` signs nothing in itself: it takes the app's signed-in
client and reads the account, balance, identity and transactions, keeping
each answer exactly (the payload as sent, or the error's status, code,
message and ``Retry-After``). It starts no job unless asked
(``with_jobs``): then each job start's answer is kept too, and each job is
watched for ``job_wait`` seconds to see how it ends. :func:`pack_user`
(:mod:`.recorded_user`) turns a :class:`Recording` into a pack user,
redacted unless told not to, and :mod:`.case_files` writes it.

A failure that is not the service's answer (no connection, a malformed
body) ends the recording with :class:`RecordError`: nothing half-read is
written.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from accountdesk.contract import JobKind, JobStatus
from accountdesk.contract import endpoints as ep

if TYPE_CHECKING:
    from accountdesk.client import AccountDataClient, ApiError, Job

__all__ = [
    "LEFT_JOBS_TITLE",
    "Answer",
    "RecordError",
    "Recording",
    "answer_lines",
    "left_job_lines",
    "left_job_summary",
    "record_user",
    "service_host",
]

READ_ENDPOINTS = (ep.ACCOUNT, ep.BALANCE, ep.IDENTITY_READ, ep.TRANSACTIONS_READ)
START_ENDPOINTS = {
    JobKind.BALANCE_REFRESH: ep.REFRESH,
    JobKind.IDENTITY: ep.IDENTITY_START,
    JobKind.TRANSACTIONS: ep.TRANSACTIONS_START,
}
#: The kinds of job a user runs one at a time (contract 3.1-2: another start is AC-112).
RUNS_ONE_AT_A_TIME = frozenset({JobKind.IDENTITY, JobKind.TRANSACTIONS})
#: The account read says the user cannot be recorded at all.
_NOT_RECORDABLE = {
    "AC-102": "the service does not know this user",
    "AC-001": "the key signed in with is not allowed this user",
}


class RecordError(Exception):
    """The case could not be recorded; the text says why in a sentence (nothing was written).

    ``left`` names the jobs the recording had started and left unfinished.
    """

    def __init__(self, message: str, *, left: list[tuple[JobKind, Job]] | None = None) -> None:
        super().__init__(message)
        self.left = left or []


@dataclass(frozen=True, slots=True)
class Answer:
    """What one request answered: a payload, or an error envelope's parts."""

    payload: Any = None
    status: int | None = None
    code: str | None = None
    message: str | None = None
    retry_after: int | None = None

    @property
    def is_error(self) -> bool:
        return self.code is not None

    @classmethod
    def of_payload(cls, raw: Any) -> Answer:
        """A payload as the dashboard shows it: each text made inert, as the client's models do.

        A pack refuses text a terminal would obey, so the bytes the service
        sent (``ESC``, a bidi override) are recorded as what every screen
        showed of them (``␛``, ``‹U+202E›``): the replay looks the same.
        """
        return cls(payload=shown(raw))

    @classmethod
    def of_error(cls, error: ApiError) -> Answer:
        retry = error.retry_after
        return cls(
            status=error.status,
            code=error.code,
            message=error.message,
            retry_after=math.ceil(retry) if retry is not None and retry > 0 else None,
        )


@dataclass(slots=True)
class Recording:
    """One user as the service answered, with when and where."""

    user_id: str
    service: str
    recorded_at: dt.datetime
    reads: dict[str, Answer] = field(default_factory=dict)
    #: Each job start's answer, and the job's last state when it was watched.
    starts: dict[JobKind, Answer] = field(default_factory=dict)
    finals: dict[JobKind, dict[str, Any]] = field(default_factory=dict)
    #: The last phase (``pending``, ``in_progress``) each watched job was seen running in:
    #: the phase a job that failed failed from.
    phases: dict[JobKind, JobStatus] = field(default_factory=dict)
    #: Each job started, as last seen: those not ended are left on the service.
    jobs: dict[JobKind, Job] = field(default_factory=dict)

    def left_jobs(self) -> list[tuple[JobKind, Job]]:
        """The jobs this recording started and left unfinished (running or waiting for MFA)."""
        return [(kind, job) for kind, job in self.jobs.items() if not job.is_terminal]

    notes: list[str] = field(default_factory=list)


def service_host(base_url: str | None) -> str:
    """The host a recording names (never a path, query or credential), or the embedded sandbox."""
    if (
        not base_url
        or not base_url.startswith(("http://", "https://"))
        or base_url == "http://sandbox"
    ):
        return "the embedded sandbox"
    return urlsplit(base_url).hostname or "an unnamed service"


async def record_user(
    client: AccountDataClient,
    user_id: str,
    *,
    service: str,
    now: dt.datetime,
    with_jobs: bool = False,
    job_wait: float = 0.0,
) -> Recording:
    """Read ``user_id`` (and start its jobs, ``with_jobs``) and keep every answer."""
    from accountdesk.client import AccountDataError, ApiError

    recording = Recording(user_id, service, now)
    readers: dict[str, Callable[[str], Awaitable[Any]]] = {
        ep.ACCOUNT.name: client.get_account,
        ep.BALANCE.name: client.get_balance,
        ep.IDENTITY_READ.name: client.get_identity,
        ep.TRANSACTIONS_READ.name: client.get_transactions,
    }
    for endpoint in READ_ENDPOINTS:
        try:
            record = await readers[endpoint.name](user_id)
        except ApiError as error:
            recording.reads[endpoint.name] = Answer.of_error(error)
            if endpoint is ep.ACCOUNT and error.code in _NOT_RECORDABLE:
                raise RecordError(
                    f"{error.code}: {_NOT_RECORDABLE[error.code]} ({error.message}); "
                    "nothing was recorded"
                ) from None
            continue
        except AccountDataError as error:
            raise RecordError(f"could not read {_what(endpoint)}: {error.detail}") from None
        recording.reads[endpoint.name] = Answer.of_payload(record.raw)
    if with_jobs:
        await _record_jobs(client, recording, job_wait)
    return recording


async def _record_jobs(client: AccountDataClient, recording: Recording, job_wait: float) -> None:
    from accountdesk.client import AccountDataError, ApiError, JobWatchTimeout

    starters = {
        JobKind.BALANCE_REFRESH: client.refresh_balance,
        JobKind.IDENTITY: client.start_identity,
        JobKind.TRANSACTIONS: client.start_transactions,
    }
    user_id = recording.user_id
    for kind, start in starters.items():
        try:
            job = await start(user_id)
        except ApiError as error:
            recording.starts[kind] = Answer.of_error(error)
            continue
        except AccountDataError as error:
            raise RecordError(
                f"could not start {kind.value} job: {error.detail}", left=recording.left_jobs()
            ) from None
        recording.starts[kind] = Answer.of_payload(job.raw)
        recording.jobs[kind] = job
        final = job.raw
        _seen_running(recording, kind, job.status)
        if job_wait > 0 and not (job.is_terminal or job.needs_mfa):
            try:
                async for state in client.watch_job(user_id, job.job_id, timeout=job_wait):
                    final = state.raw
                    recording.jobs[kind] = state
                    _seen_running(recording, kind, state.status)
            except JobWatchTimeout:
                recording.notes.append(
                    f"the {kind.value} job had not ended after {job_wait:g} s: its length "
                    "is the sandbox's"
                )
            except AccountDataError as error:
                recording.notes.append(f"the {kind.value} job could not be followed: {error.title}")
        recording.finals[kind] = shown(final)


def shown(value: Any) -> Any:
    """``value`` (the service's JSON) with every text, keys too, made inert."""
    from accountdesk.contract.sanitise import sanitise_text

    if isinstance(value, str):
        return sanitise_text(value)
    if isinstance(value, list):
        return [shown(item) for item in value]
    if isinstance(value, dict):
        return {sanitise_text(str(key)): shown(item) for key, item in value.items()}
    return value


def _seen_running(recording: Recording, kind: JobKind, status: object) -> None:
    if status in (JobStatus.PENDING, JobStatus.IN_PROGRESS):
        recording.phases[kind] = JobStatus(str(status))


#: Why a recording cannot end the jobs it leaves: the contract has no such call.
LEFT_JOBS_TITLE = (
    "Left waiting (no call of the service ends a job: it ends by itself, by the customer's "
    "MFA answer, or when its MFA session expires):"
)


def left_job_lines(left: list[tuple[JobKind, Job]]) -> list[str]:
    """What each job left unfinished holds, a line each (``identity job j_1: waits for MFA...``)."""
    lines = []
    for kind, job in left:
        if job.needs_mfa:
            expires = job.mfa.expires_at if job.mfa is not None else None
            until = f" until {expires.astimezone(dt.UTC):%H:%M:%S} UTC" if expires else ""
            state = f"waits for MFA{until}"
        else:
            until = ""
            state = f"still {job.status} when the recording ended"
        line = f"{kind.value} job {job.job_id}: {state}"
        if kind in RUNS_ONE_AT_A_TIME:
            then = "until then" if until else "until it ends"
            line += f"; {then} the user's next {kind.value} job is refused (AC-112)"
        lines.append(line)
    return lines


def left_job_summary(left: list[tuple[JobKind, Job]]) -> str:
    """The jobs left unfinished in one sentence (the dashboard's: it tracks them)."""
    waiting = [(kind, job) for kind, job in left if job.needs_mfa]
    running = [kind.value for kind, job in left if not job.needs_mfa]
    parts = []
    if waiting:
        ends = [job.mfa.expires_at for _, job in waiting if job.mfa and job.mfa.expires_at]
        until = f" until {max(ends).astimezone(dt.UTC):%H:%M:%S} UTC" if ends else ""
        verb = "waits" if len(waiting) == 1 else "wait"
        parts.append(f"{', '.join(kind.value for kind, _ in waiting)} {verb} for MFA{until}")
    if running:
        parts.append(f"{', '.join(running)} still running")
    held = [kind.value for kind, _ in left if kind in RUNS_ONE_AT_A_TIME]
    if held:
        ending = "it ends" if len(left) == 1 else "they end"
        parts.append(f"the user's next {' or '.join(held)} job is refused (AC-112) until {ending}")
    return "; ".join(parts)


def answer_lines(recording: Recording) -> list[str]:
    """What each request answered, a line each: ``get_balance  400 AC-106 For security...``."""
    asked = [*recording.reads.items()]
    asked += [(START_ENDPOINTS[kind].name, answer) for kind, answer in recording.starts.items()]
    lines = []
    for name, answer in asked:
        if answer.is_error:
            said = f"{answer.status} {answer.code} {answer.message or ''}".rstrip()
        elif isinstance(answer.payload, dict) and "job_id" in answer.payload:
            said = f"202 job {answer.payload.get('status', '?')}"
        elif isinstance(answer.payload, dict) and "transactions" in answer.payload:
            rows = answer.payload.get("transactions")
            said = f"200 {len(rows) if isinstance(rows, list) else 0:,} transactions"
        else:
            said = "200"
        lines.append(f"{name:<19} {said}")
    return lines


def _what(endpoint: ep.Endpoint) -> str:
    return {
        ep.ACCOUNT.name: "the account",
        ep.BALANCE.name: "the balance",
        ep.IDENTITY_READ.name: "identity",
        ep.TRANSACTIONS_READ.name: "transactions",
    }[endpoint.name]
