"""``accountdesk record USER -o FILE``: a live case as a scenario pack user.

Signs in as the app does (``--base-url``, ``--profile``, ``--config``,
``--scenarios`` for the embedded sandbox,
``ACCOUNTDESK_API_KEY`` / ``ACCOUNTDESK_API_SECRET``, the keyring, or asks
for the secret when a terminal is there to ask), reads the user's account,
balance, identity and transactions (and with ``--with-jobs`` starts its
three jobs) and writes a pack user that answers the same, redacted unless
``--no-redact``. The pack is checked as the sandbox reads it, then written
atomically, 0600 (:mod:`accountdesk.core.cases.files`).

Mistakes on the command line are exit status 2; a service that refuses or
cannot be reached, exit status 1; each is one line.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from accountdesk.cli.output import missing

if TYPE_CHECKING:
    from typing import TextIO

    from pydantic import SecretStr

    from accountdesk.cli.startup import StartUp
    from accountdesk.client import Job
    from accountdesk.contract import JobKind
    from accountdesk.core.cases.case import SavedCase
    from accountdesk.core.settings.model import Settings
    from accountdesk.core.settings.paths import AppDirs

__all__ = ["add_parser", "run"]


def add_parser(commands: Any, help: str) -> None:
    """The ``record`` command's flags."""
    record = commands.add_parser(
        "record",
        help=help,
        description="Read a user's account, balance, identity and transactions (and, with "
        "--with-jobs, start its jobs) and write a scenario pack user that answers the same, "
        "errors included. Redacted unless --no-redact. Serve it with accountdesk sandbox "
        "--scenarios FILE.",
    )
    record.add_argument("user", metavar="USER", help="the user id on the service")
    record.add_argument("-o", "--output", type=Path, required=True, metavar="FILE")
    record.add_argument(
        "--with-jobs",
        action="store_true",
        help="also start a balance refresh, an identity and a transactions job (real jobs "
        "on a live service) and keep how they answer; no call of the service ends a job, so "
        "one that asks for MFA waits for the customer's answer until its session expires, "
        "holding the user's next job of its kind (AC-112): the output lists them",
    )
    record.add_argument(
        "--job-wait",
        type=float,
        default=30.0,
        metavar="SECONDS",
        help="with --with-jobs: how long to follow each job to see it end (default 30)",
    )
    record.add_argument(
        "--no-redact",
        action="store_true",
        help="keep everything as the service sent it (names, numbers, the user id)",
    )
    record.add_argument(
        "--as", dest="as_id", metavar="ID", help="the user's id in the pack (default: case_N)"
    )
    record.add_argument(
        "--append", action="store_true", help="add the user to the pack FILE already holds"
    )
    record.add_argument("--force", action="store_true", help="replace FILE if it exists")
    record.add_argument("--api-key", metavar="KEY", help="the API key (else as the app signs in)")
    record.add_argument(
        "--base-url", metavar="URL", default=argparse.SUPPRESS, help="the service (as the app)"
    )
    record.add_argument(
        "--profile", metavar="NAME", default=argparse.SUPPRESS, help="a [profiles.NAME] table"
    )


def _fail(message: str, status: int = 2) -> int:
    from accountdesk.cli.output import fail

    fail(message, prefix="accountdesk: record: ")
    return status


def run(args: argparse.Namespace, start_up: StartUp) -> int:
    """Record ``args.user`` into ``args.output``; the exit status."""
    try:
        from accountdesk.contract.identifiers import sandbox_user_id_problem
        from accountdesk.core.cases.case import CaseFileError, RecordError
        from accountdesk.core.settings.model import ConfigError, load_settings
        from accountdesk.core.settings.paths import AppDirs
    except ImportError as error:
        return missing(error)
    output: Path = args.output
    if not 0 <= args.job_wait <= 600:
        return _fail("--job-wait is 0 to 600 seconds")
    if output.is_dir():
        return _fail(f"{output}: is a folder; -o names the pack file to write")
    if output.exists() and not (args.force or args.append):
        return _fail(f"{output} exists: --append adds the user to it, --force replaces it")
    if args.as_id is not None and (problem := sandbox_user_id_problem(args.as_id)):
        return _fail(f"--as {args.as_id!r}: {problem}")
    if args.no_redact and args.as_id is None and sandbox_user_id_problem(args.user):
        return _fail(
            f"{args.user!r} cannot be a sandbox user id ({sandbox_user_id_problem(args.user)}); "
            "give --as ID"
        )
    dirs = AppDirs.default(args.config)
    flags = {
        "base_url": "sandbox" if args.sandbox else getattr(args, "base_url", None),
        "profile": getattr(args, "profile", None),
        "api_key": args.api_key,
        "present": getattr(args, "present", None),
    }
    try:
        settings = load_settings(dirs.config_path, flags=flags)
    except ConfigError as error:
        return _fail(str(error))
    from accountdesk.cli.packs import embedded_packs

    if isinstance(scenarios := embedded_packs(args, live=not settings.sandbox), int):
        return scenarios
    import asyncio

    problems: list[str] = []
    try:
        saved = asyncio.run(_record(settings, args, scenarios, dirs, problems))
    except RecordError as error:
        status = _fail(str(error), 1)
        _print_left(error.left, sys.stderr)
        return status
    except CaseFileError as error:
        return _fail(" ".join(problems) or str(error), 1)
    _report(saved, args.user, settings)
    return 0


async def _record(
    settings: Settings,
    args: argparse.Namespace,
    scenarios: Any,
    dirs: AppDirs,
    problems: list[str],
) -> SavedCase:
    """Sign in as the app does, then record the case (:func:`~accountdesk.core.cases.case.record_case`)."""
    import asyncio
    import datetime as dt

    from accountdesk.client import AccountDataError
    from accountdesk.core.cases.case import RecordError, record_case
    from accountdesk.core.cases.files import scenarios_folder
    from accountdesk.core.cases.record import service_host
    from accountdesk.core.connection import ServiceConnection
    from accountdesk.core.store import Store

    connection = ServiceConnection(
        base_url=settings.base_url,
        client_options={"max_response_bytes": settings.max_response_bytes},
        # The embedded sandbox, with the packs --scenarios names (a pack's users recorded).
        sandbox_options={"scenarios": scenarios} if scenarios is not None else None,
    )
    secret = await asyncio.to_thread(_secret, settings)
    try:
        try:
            client = await connection.sign_in(settings.api_key, secret)
        except AccountDataError as error:
            raise RecordError(f"sign-in refused: {error.title}: {error.detail}") from None
        async with client:
            return await record_case(
                client,
                args.user,
                store=Store(on_problem=lambda problem: problems.append(problem.sentence)),
                target=args.output,
                service=service_host(settings.base_url),
                now=dt.datetime.now(dt.UTC).replace(microsecond=0),
                # The dashboard's cases too: cases recorded here and there can be served together.
                cases_folder=scenarios_folder(dirs.data_dir),
                redact=not args.no_redact,
                # A demo machine's (ACCOUNTDESK_PRESENT, a profile's present): redacted.
                presenting=settings.present,
                with_jobs=args.with_jobs,
                job_wait=args.job_wait,
                as_id=args.as_id,
                append=args.append,
                replace=args.force,
            )
    finally:
        await connection.aclose()


def _secret(settings: Settings) -> SecretStr:
    """The secret as the app finds it: flag or environment or file, the keyring, or asked for."""
    from pydantic import SecretStr

    from accountdesk.client import register_secret
    from accountdesk.core.cases.record import RecordError
    from accountdesk.core.settings.secrets import SecretKeeper

    secret = settings.api_secret
    if not secret.get_secret_value():
        secret = SecretKeeper().load(settings.service_key, settings.api_key) or secret
    if not secret.get_secret_value() and sys.stdin.isatty():
        import getpass

        secret = SecretStr(getpass.getpass(f"API secret for {settings.api_key}: "))
    if not settings.api_key or not secret.get_secret_value():
        raise RecordError(
            "no API key and secret: --api-key, ACCOUNTDESK_API_KEY and ACCOUNTDESK_API_SECRET, "
            "a profile, or remember them at the app's sign-in"
        )
    register_secret(secret)
    return secret


def _report(saved: SavedCase, user_id: str, settings: Settings) -> None:
    from accountdesk.cli.output import say
    from accountdesk.core.cases.case import serve_command
    from accountdesk.sandbox.scenarios import SCENARIO_USERS

    what = "redacted" if saved.redacted else "NOT redacted"
    lines = [f"Recorded {user_id} as {saved.user_id} ({what}) into {saved.path}"]
    lines += [f"  {line}" for line in saved.answers]
    lines += [f"  note: {note}" for note in saved.notes]
    replaces = (
        f" ({saved.user_id} replaces the shipped user)" if saved.user_id in SCENARIO_USERS else ""
    )
    lines.append(f"Serve it: {serve_command(saved.path)}{replaces}")
    say(lines)
    if not settings.sandbox:  # the embedded sandbox's jobs end with it
        _print_left(saved.left, sys.stdout)


def _print_left(left: list[tuple[JobKind, Job]], stream: TextIO) -> None:
    """The jobs the recording started and left unfinished, and what each holds."""
    from accountdesk.cli.output import say
    from accountdesk.core.cases.record import LEFT_JOBS_TITLE, left_job_lines

    if left:
        say([LEFT_JOBS_TITLE, *(f"  {line}" for line in left_job_lines(left))], file=stream)
