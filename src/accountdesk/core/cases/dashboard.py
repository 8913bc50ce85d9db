"""The dashboard's own cases: a user recorded, or an error of the log, saved as a scenario pack.

Two ways into one file format, both saved under ``scenarios/`` in the data
folder through the desk's store (atomic, 0600), each checked as the sandbox
reads packs before it is written, each user redacted as the next free
``case_<n>`` of that folder (:func:`next_case_id`), so every case saved
there can be served together:

- :func:`record_case`: the account screen's "Record this user as a
  scenario" (:mod:`.record` through the signed-in client, :mod:`.recorded_user`);
- :func:`error_case`: the error log's "Make a scenario from this error": a
  pack user whose endpoint answers that error (status, code, message as the
  service sent them), so a ticket can carry a case anyone can reproduce with
  ``accountdesk sandbox --scenarios FILE``.
"""

from __future__ import annotations

import asyncio
import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote

from accountdesk.contract import endpoints as ep
from accountdesk.contract import known_spec
from accountdesk.core.cases import files as case_files
from accountdesk.core.cases.files import CaseFileError, case_pack_text, check_pack, scenarios_folder
from accountdesk.core.cases.record import (
    RecordError,
    answer_lines,
    left_job_summary,
    record_user,
    service_host,
)
from accountdesk.core.cases.recorded_user import pack_user
from accountdesk.core.cases.redaction import REDACTED_FIELDS, Redactor, case_id
from accountdesk.core.errors.reports import endpoint_of

if TYPE_CHECKING:
    from accountdesk.client import Job
    from accountdesk.contract import JobKind
    from accountdesk.core.desk import Desk
    from accountdesk.core.errors.log import ErrorRecord

__all__ = [
    "CaseFileError",
    "RecordError",
    "SavedCase",
    "case_path",
    "error_case",
    "error_user",
    "next_case_id",
    "next_case_number",
    "record_case",
    "serve_command",
]


#: What a redacted error case replaced from the account record (the rest: from identity).
_ACCOUNT_FIELDS = frozenset({"account_number", "routing_number"})
_FOUND_IN_MESSAGE = "emails_and_numbers_in_the_message"


@dataclass(frozen=True, slots=True)
class SavedCase:
    """A pack written: where, the user's id in it, what each request answered, notes."""

    path: Path
    user_id: str
    answers: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    redacted: bool = True
    #: The jobs the recording started and left unfinished, now tracked on the jobs
    #: screen, in a sentence ("" for none).
    tracked: str = ""


def serve_command(path: Path) -> str:
    """How to serve a saved case."""
    return f"accountdesk sandbox --scenarios {path}"


def next_case_number(desk: Desk, target: Path | None = None) -> int:
    """The next ``case_<n>`` no pack in the cases folder (or beside ``target``) holds."""
    folders = [scenarios_folder(desk.dirs.data_dir)]
    if target is not None:
        folders.append(target.parent)
    return case_files.next_case_number(None, folders, replacing=target)


def next_case_id(desk: Desk) -> str:
    """The id the next redacted case saved in the cases folder gets: ``case_<n>``."""
    return case_id(next_case_number(desk))


def case_path(desk: Desk, name: str) -> Path:
    """``scenarios/<name>-<wall time>.toml`` in the data folder, a name no file has yet.

    The wall clock's time (never a sandbox's moved one); ``-2``, ``-3``... when
    two cases are saved in one second.
    """
    stem = f"{name}-{desk.wall_time():%Y%m%d-%H%M%S}"
    folder = scenarios_folder(desk.dirs.data_dir)
    path = folder / f"{stem}.toml"
    number = 1
    while path.exists():
        number += 1
        path = folder / f"{stem}-{number}.toml"
    return path


def _service(desk: Desk) -> str:
    return service_host(None if desk.embedded else desk.service_url)


async def _save(desk: Desk, path: Path, user: dict[str, Any]) -> None:
    # In a thread: a statement of 100,000 rows takes seconds to write and check,
    # and the file system may be slow (a network home folder).
    await asyncio.to_thread(_write, desk, path, user)


def _write(desk: Desk, path: Path, user: dict[str, Any]) -> None:
    text = case_pack_text(user)
    check_pack(text, str(path))
    if path.exists():
        raise CaseFileError(f"{path} exists: give another file (a case never replaces one)")
    if not desk.store.write_text(path, text):
        raise CaseFileError(f"could not write {path} (the message about the file says why)")


async def record_case(
    desk: Desk,
    user_id: str,
    *,
    redact: bool = True,
    with_jobs: bool = False,
    path: Path | None = None,
    job_wait: float = 0.0,
) -> SavedCase:
    """Record ``user_id`` through the signed-in client and save it (RecordError, CaseFileError).

    The jobs the recording starts and leaves unfinished (waiting for MFA,
    still running) are tracked on the jobs screen, saved or not: the
    contract has no call that ends a job, and until one ends the user's next
    job of its kind is refused (AC-112).
    """
    try:
        recording = await record_user(
            desk.client,
            user_id,
            service=_service(desk),
            now=desk.wall_time().replace(microsecond=0),  # when, as a person reads it later
            with_jobs=with_jobs,
            job_wait=job_wait,
        )
    except RecordError as error:
        _track(desk, user_id, error.left)
        raise
    left = recording.left_jobs()
    _track(desk, user_id, left)
    number = await asyncio.to_thread(next_case_number, desk, path)
    # Redacting every text of a long statement takes a while: off the loop.
    user = await asyncio.to_thread(pack_user, recording, case_number=number, redact=redact)
    target = path if path is not None else await asyncio.to_thread(case_path, desk, user["id"])
    await _save(desk, target, user)
    notes = list(user["recorded"].get("notes", []))
    tracked = left_job_summary(left)
    return SavedCase(target, user["id"], answer_lines(recording), notes, redact, tracked)


def _track(desk: Desk, user_id: str, left: list[tuple[JobKind, Job]]) -> None:
    for _kind, job in left:
        # The dialog says they wait for MFA: no toast per job on top.
        desk.track_job(job, user_id, offer_mfa=False)


def error_user(
    record: ErrorRecord,
    *,
    redact: bool = True,
    service: str,
    case_number: int = 1,
    account: dict[str, Any] | None = None,
    identity: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The pack user whose endpoint answers ``record``'s error; CaseFileError when it cannot.

    Redacted as ``record`` does: the originals are learnt from the user's
    ``account`` and ``identity`` records when they could be read, and every
    e-mail address and long number of the message is replaced too.
    """
    if record.code is None or record.status is None:
        raise CaseFileError(
            "this error is not an answer of the service (no AC- code), so no scenario can "
            "answer it: " + record.title
        )
    endpoint = endpoint_of(record.method, record.path)
    if endpoint is None:
        raise CaseFileError(f"{record.method} {record.path} is not an endpoint of the contract")
    if endpoint is ep.TOKEN:
        raise CaseFileError(
            "a sign-in error belongs to a key, not to a user: a scenario user cannot answer it"
        )
    original = unquote(record.path.split("/")[2])
    redactor = Redactor(case_number) if redact else None
    redacted = ["user_id"]
    if redactor is not None:
        redactor.learn(user_id=original, account=account, identity=identity)
        spec = known_spec(record.code)
        if spec is None or record.message != spec.message_for(endpoint, user_id=original):
            # Not the catalogue's own words (whose support address is the service's).
            redactor.learn_from_text(record.message)
        redacted = [
            field
            for field in REDACTED_FIELDS
            if field == "user_id"
            or (field in _ACCOUNT_FIELDS and account is not None)
            or (field not in _ACCOUNT_FIELDS and identity is not None)
        ]
        redacted.append(_FOUND_IN_MESSAGE)
    user_id = redactor.user_id if redactor is not None else original
    message = redactor.text(record.message) if redactor is not None else record.message
    path = redactor.text(record.path) if redactor is not None else record.path
    answer: dict[str, Any] = {
        "endpoint": endpoint.name,
        "code": record.code,
        "status": record.status,
        "message": message,
    }
    if record.lifts_at is not None:
        seconds = int((record.lifts_at - record.time).total_seconds())
        if seconds > 0:
            answer["retry_after"] = seconds
    at = record.time.astimezone(dt.UTC).replace(microsecond=0)
    return {
        "id": user_id,
        "description": f"Made from an error of the log: {record.title} on {record.method} {path}.",
        "answers": [answer],
        "recorded": {
            "service": service,
            "at": at,
            "redacted": redacted if redact else [],
            "by": _by(),
            "notes": ["only the endpoint that failed is this user's: its other data is made up"],
        },
    }


async def error_case(desk: Desk, record: ErrorRecord, *, redact: bool = True) -> SavedCase:
    """Save the scenario of one error of the log (CaseFileError when it has none)."""
    from accountdesk.contract.identifiers import sandbox_user_id_problem

    number = await asyncio.to_thread(next_case_number, desk)
    account, identity = await _records_of(desk, record) if redact else (None, None)
    user = error_user(
        record,
        redact=redact,
        service=_service(desk),
        case_number=number,
        account=account,
        identity=identity,
    )
    if sandbox_user_id_problem(user["id"]):
        user["id"] = case_id(number)
    target = await asyncio.to_thread(case_path, desk, user["id"])
    await _save(desk, target, user)
    answer = user["answers"][0]
    line = f"{answer['endpoint']:<19} {answer['status']} {answer['code']} {answer['message']}"
    return SavedCase(target, user["id"], [line], user["recorded"]["notes"], redact)


async def _records_of(
    desk: Desk, record: ErrorRecord
) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """The account and identity of the error's user, to learn what to redact (None: unread).

    Read through the signed-in session, as ``record`` reads them; a refusal or
    a failure only means less is learnt (the message's e-mails and numbers
    are still replaced).
    """
    from accountdesk.client import AccountDataError

    path = record.path.split("/")
    if not desk.signed_in or len(path) < 3 or path[1] != "accounts":
        return None, None
    user_id = unquote(path[2])
    found: list[dict[str, Any] | None] = []
    for read in (desk.client.get_account, desk.client.get_identity):
        try:
            answer = await read(user_id)
        except AccountDataError:
            found.append(None)
            continue
        found.append(answer.raw if isinstance(answer.raw, dict) else None)
    return found[0], found[1]


def _by() -> str:
    from accountdesk import __version__

    return f"accountdesk {__version__}"
