"""A case saved: a live user (or an error of the log) made a scenario pack user and written.

:func:`record_case` is the one way a live user becomes a case file, for
``accountdesk record`` and for the account screen's dialog alike: the user
read through a signed-in client (:mod:`.record`), made a pack user
(:mod:`.recorded_user`, redacted unless told not to: :mod:`.redaction`) as
the next free ``case_<n>`` of the packs it will be served with, the pack
checked as the sandbox reads packs and written atomically, 0600, through
the store (:mod:`.files`). Nothing is written when any of that fails.

:func:`error_case` is the error log's way in: a pack user whose endpoint
answers that error (status, code, message as the service sent them), so a
ticket can carry a case anyone can reproduce with ``accountdesk sandbox
--scenarios FILE``.
"""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote

from accountdesk.contract import endpoints as ep
from accountdesk.contract import known_spec
from accountdesk.core.cases.files import (
    CaseFileError,
    case_pack_text,
    check_pack,
    next_case_number,
    scenarios_folder,
)
from accountdesk.core.cases.record import (
    RecordError,
    answer_lines,
    left_job_summary,
    record_user,
    service_host,
)
from accountdesk.core.cases.recorded_user import pack_user
from accountdesk.core.cases.redaction import Redactor, case_id, fields_redacted
from accountdesk.core.errors.reports import endpoint_of

if TYPE_CHECKING:
    from accountdesk.client import AccountDataClient, Job
    from accountdesk.contract import JobKind
    from accountdesk.core.desk import Desk
    from accountdesk.core.errors.log import ErrorRecord
    from accountdesk.core.store import Store

__all__ = [
    "CaseFileError",
    "RecordError",
    "SavedCase",
    "error_case",
    "error_user",
    "new_case_path",
    "next_case_id",
    "record_case",
    "serve_command",
]


@dataclass(frozen=True, slots=True)
class SavedCase:
    """A pack written: where, the user's id in it, what each request answered, notes."""

    path: Path
    user_id: str
    answers: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    redacted: bool = True
    #: The jobs the recording started and left unfinished (running, or waiting for MFA).
    left: list[tuple[JobKind, Job]] = field(default_factory=list)

    @property
    def left_summary(self) -> str:
        """:attr:`left` in a sentence ("" for none)."""
        return left_job_summary(self.left)


def serve_command(path: Path) -> str:
    """How to serve a saved case."""
    return f"accountdesk sandbox --scenarios {path}"


def next_case_id(folders: Iterable[Path]) -> str:
    """The id the next redacted case saved beside the packs in ``folders`` gets: ``case_<n>``."""
    return case_id(next_case_number(None, folders))


def new_case_path(folder: Path, name: str, when: dt.datetime) -> Path:
    """``<folder>/<name>-<when>.toml``, a name no file has yet.

    ``when`` is a time a person reads (the wall clock, never a sandbox's moved
    one); ``-2``, ``-3``... when two cases are saved in one second.
    """
    stem = f"{name}-{when:%Y%m%d-%H%M%S}"
    path = folder / f"{stem}.toml"
    number = 1
    while path.exists():
        number += 1
        path = folder / f"{stem}-{number}.toml"
    return path


async def record_case(
    client: AccountDataClient,
    user_id: str,
    *,
    store: Store,
    target: Path,
    service: str,
    now: dt.datetime,
    cases_folder: Path | None = None,
    redact: bool = True,
    with_jobs: bool = False,
    job_wait: float = 0.0,
    as_id: str | None = None,
    append: bool = False,
    replace: bool = False,
    presenting: bool = False,
) -> SavedCase:
    """Record ``user_id`` and write it to ``target``; :class:`RecordError` or :class:`CaseFileError`.

    ``service`` names where it was recorded (a host, never a path or a
    key), ``now`` when. A redacted user is ``as_id`` or the next ``case_<n>``
    no pack in ``target``, beside it or in ``cases_folder`` holds, so the
    cases saved there can be served together. ``target`` is written anew:
    ``append`` adds the user to the pack it holds, ``replace`` replaces it;
    otherwise an existing ``target`` is refused, before anything is read.
    The jobs the recording starts and leaves unfinished are in the result
    (or in the :class:`RecordError`): the contract has no call that ends a
    job, and until one ends the user's next job of its kind is refused
    (AC-112). One recorded while ``presenting`` is redacted, whatever
    ``redact`` says, and its notes say why.
    """
    redact = redact or presenting
    existing = await asyncio.to_thread(_existing, target, append=append, replace=replace)
    recording = await record_user(
        client, user_id, service=service, now=now, with_jobs=with_jobs, job_wait=job_wait
    )
    folders = [target.parent, *([cases_folder] if cases_folder is not None else [])]
    number = await asyncio.to_thread(
        next_case_number, existing, folders, replacing=target if replace else None
    )
    # Redacting every text of a long statement takes a while: off the loop.
    user = await asyncio.to_thread(
        pack_user, recording, case_number=number, redact=redact, user_id=as_id
    )
    if presenting:
        _note_presenting(user)
    await asyncio.to_thread(_write, store, target, user, existing=existing)
    notes = list(user["recorded"].get("notes", []))
    return SavedCase(
        target, user["id"], answer_lines(recording), notes, redact, recording.left_jobs()
    )


#: The note of a case saved while presenting (its file and the toast say so).
PRESENTING_NOTE = "recorded while presenting: redacted, whatever was asked"


def _note_presenting(user: dict[str, Any]) -> None:
    recorded = user.setdefault("recorded", {})
    recorded["notes"] = [*recorded.get("notes", []), PRESENTING_NOTE]


def _existing(target: Path, *, append: bool, replace: bool) -> str | None:
    """The pack ``target`` holds, to add a user to (``append``); None for a new file."""
    if target.is_dir():
        raise CaseFileError(f"{target}: is a folder; name the pack file to write")
    if not target.exists() or replace:
        return None
    if not append:
        raise CaseFileError(f"{target} exists: give another file (a case never replaces one)")
    try:
        existing = target.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise CaseFileError(f"{target}: cannot read it: {error}") from None
    check_pack(existing, str(target))
    return existing


def _write(store: Store, target: Path, user: dict[str, Any], *, existing: str | None) -> None:
    # In a thread: a statement of 100,000 rows takes seconds to write and check,
    # and the file system may be slow (a network home folder).
    text = case_pack_text(user, existing=existing)
    check_pack(text, str(target))
    if not store.write_text(target, text):
        raise CaseFileError(f"could not write {target} (the message about the file says why)")


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
        redacted = fields_redacted(
            account=account is not None, identity=identity is not None, message=True
        )
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
    """Save the scenario of one error of the log (CaseFileError when it has none).

    Redacted while presenting, whatever ``redact`` says (and its notes say so).
    """
    from accountdesk.contract.identifiers import sandbox_user_id_problem

    presenting = desk.presenter.active
    redact = redact or presenting

    folder = scenarios_folder(desk.dirs.data_dir)
    number = await asyncio.to_thread(next_case_number, None, [folder])
    account, identity = await _records_of(desk, record) if redact else (None, None)
    user = error_user(
        record,
        redact=redact,
        service=service_host(None if desk.embedded else desk.service_url),
        case_number=number,
        account=account,
        identity=identity,
    )
    if sandbox_user_id_problem(user["id"]):
        user["id"] = case_id(number)
    if presenting:
        _note_presenting(user)
    target = await asyncio.to_thread(new_case_path, folder, user["id"], desk.wall_time())
    await asyncio.to_thread(_write, desk.store, target, user, existing=None)
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
