"""The sandbox: a stateful, time-controllable fake of the Account Data Service.

``create_app()`` builds the ASGI app (Starlette); ``serve()`` runs it with
uvicorn; ``embedded_transport()`` serves it in-process on a thread of its own;
``openapi_document()`` describes it. Importing this package, or any module but
:mod:`.api` and :mod:`.embedded`, imports neither the web framework nor
httpx. Behaviour and wire format: docs/developer/sandbox.md.

Decisions beyond that page (the contract leaves them "not shown"):

- Identity and transactions reads answer data whether or not a job ran;
  transaction dates count back from the day the sandbox started.
- MFA: the budget of 3 wrong answers is the user's, across all their jobs.
  When it runs out the user is blocked for ``block_seconds``: every job of
  that user waiting for MFA fails with ``AC-108`` (its error carries
  ``blocked_until``), a right answer on any job fails that job too, and
  refresh answers 429 ``AC-108`` with ``Retry-After`` (the only endpoint
  the contract lets answer it). A right answer, or the block lifting,
  refills the budget.
- ``POST .../mfa/{job_id}`` on a job not waiting for MFA (running, done,
  expired) answers 200 with the job unchanged; ``AC-110`` is only the
  resolve endpoint's. Resolve with no recorded answer: 400 ``AC-100``. An
  answer must be a non-blank string of at most 256 characters.
- Another user's job id is an unknown job (``AC-109``) for this user, on
  resolve too (table 7.2 lists no code for it there).
- An empty id segment (``/accounts//balance``) is a blank id: 400 ``AC-100``.
- Framework answers: unknown route 404 ``AC-904``, wrong method 405
  ``AC-905`` (with ``Allow``), validation 400 ``AC-100``, body over 64 KiB
  413 ``AC-913``, crash 500 ``AC-950``. No trailing-slash redirects.
- The clock moves at most 366 days a step and 100 years in all; durations
  are at most 366 days; so no time arithmetic can leave the calendar.
- Control endpoints: ``GET /_sandbox/scenarios``, ``POST /_sandbox/reset``
  (forgets jobs, MFA sessions and blocks, rewinds the clock, keeps tokens),
  ``GET /_sandbox/clock`` and ``POST /_sandbox/clock/advance`` (both
  ``{"now": iso}``). They act on the world of the bearer token given, or the
  shared world; beyond loopback, acting on the shared world needs the
  control token (403 ``AC-903``).
- Tenants (``tenants=True``): a world per ``trainee_<name>`` key (429
  ``AC-929`` past ``max_tenants``), each built from the same packs.
- Scenario users come from packs (``scenarios``): the shipped default pack,
  then the trainer's; see :mod:`.packs` and docs/trainer/scenario-packs.md.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import importlib
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from accountdesk.sandbox.clock import Clock, FrozenClock, SystemClock
from accountdesk.sandbox.scenarios import CREDENTIALS, SCENARIO_USERS

if TYPE_CHECKING:
    from starlette.applications import Starlette

    from accountdesk.sandbox.engine import IdSource
    from accountdesk.sandbox.scenarios import ScenarioSet
    from accountdesk.sandbox.wire.embedded import EmbeddedTransport

__all__ = [
    "CREDENTIALS",
    "SCENARIO_USERS",
    "Clock",
    "FrozenClock",
    "SandboxOptionError",
    "SystemClock",
    "create_app",
    "embedded_transport",
    "is_loopback_host",
    "load_scenarios",
    "openapi_document",
    "prepare_large_transactions",
    "prepare_transactions",
    "serve",
    "served_app",
    "welcome_lines",
]


def create_app(
    *,
    clock: Clock | None = None,
    job_seconds: float = 2.0,
    mfa_seconds: float = 300.0,
    token_seconds: float = 3600.0,
    block_seconds: float = 900.0,
    ids: int | IdSource | None = None,
    tenants: bool = False,
    max_tenants: int = 100,
    bulk_transactions: int = 100_000,
    control_token: str | None = None,
    scenarios: Sequence[str | Path] | ScenarioSet | None = None,
    frozen_at: dt.datetime | None = None,
) -> Starlette:
    """Build a sandbox app with a fresh engine.

    ``scenarios``: scenario pack files served after the shipped default pack
    (or packs already read, :func:`load_scenarios`); a bad pack raises
    :class:`~.packs.PackError`. A pack's clock start is where a clock made
    here starts: the system clock (running on from it) or, with
    ``frozen_at``, a stopped one (at ``frozen_at`` when no pack says). A
    ``clock`` given wins over both.

    ``clock`` defaults to a :class:`SystemClock`. ``ids`` chooses job ids and
    tokens: None for random ones (a restarted sandbox never reuses a job id),
    an int seed for ``job_0001``-style ids, or a callable ``kind -> id``
    (kind is ``"job"`` or ``"token"``). The ``*_seconds`` durations are each
    at most 366 days.

    ``tenants``: every ``trainee_<name>`` key (secret ``sandbox_secret``) gets
    a world of its own, up to ``max_tenants``. ``bulk_transactions``: how many
    transactions ``user_bulk`` has (for benchmarks). ``control_token``: when
    set, control calls that act on the shared world need it in the
    ``X-Sandbox-Control-Token`` header (:func:`serve` sets one on a
    non-loopback host). The engine is ``app.state.engine``, the clock
    ``app.state.clock``.
    """
    from accountdesk.sandbox.engine import SandboxEngine
    from accountdesk.sandbox.scenarios import ScenarioSet
    from accountdesk.sandbox.wire.api import build_app

    if scenarios is None or isinstance(scenarios, ScenarioSet):
        scenario_set = scenarios
    else:
        scenario_set = load_scenarios(scenarios)
    start = scenario_set.clock_start if scenario_set is not None else None
    if clock is None and frozen_at is not None:
        clock = FrozenClock(start or frozen_at)
    elif clock is None and start is not None:
        clock = SystemClock(start)
    engine = SandboxEngine(
        clock,
        job_seconds=job_seconds,
        mfa_seconds=mfa_seconds,
        token_seconds=token_seconds,
        block_seconds=block_seconds,
        ids=ids,
        tenants=tenants,
        max_tenants=max_tenants,
        bulk_transactions=bulk_transactions,
        control_token=control_token,
        scenarios=scenario_set,
    )
    return build_app(engine)


def load_scenarios(paths: Sequence[str | Path] = (), *, shipped_users: bool = True) -> ScenarioSet:
    """The shipped default pack and the scenario packs at ``paths``, checked and merged.

    ``shipped_users=False``: the packs' users alone (the sandbox's own key,
    ``sandbox_key``, still signs in). Raises :class:`~.packs.PackError` (a
    ``ValueError``; one line per problem, each naming the file and the line
    or field) for any pack that cannot be used. Reads pydantic, never the web
    framework.
    """
    from accountdesk.sandbox.packs.reading import load_scenarios as load

    return load(paths, shipped_users=shipped_users)


def embedded_transport(**create_app_kwargs: Any) -> EmbeddedTransport:
    """An httpx transport to a fresh in-process sandbox, served off the caller's loop.

    Takes :func:`create_app`'s arguments. The app runs on its own event loop
    in a daemon thread, so a slow answer (``user_bulk``) never stalls the
    caller's loop; ``await transport.aclose()`` stops the thread. Otherwise it
    behaves like ``httpx.ASGITransport`` (see :mod:`.embedded`). Imports the
    web framework and httpx: call it off the UI's loop.
    """
    from accountdesk.sandbox.wire.embedded import EmbeddedTransport

    transport = EmbeddedTransport(create_app(**create_app_kwargs))
    # Starlette's StreamingResponse (the transactions answer) has anyio
    # import its asyncio backend, ~20 modules, on its first answer: on the
    # sandbox's thread, beside the build of user_bulk's answer, that took
    # ~0.5 s of the first ``x``. Imported here, off the UI's loop, with the rest.
    with contextlib.suppress(ImportError):
        importlib.import_module("anyio._backends._asyncio")
    return transport


def prepare_transactions(app: Any, user_id: str) -> bool:
    """Have ``app`` (from :func:`create_app`) build ``user_id``'s transactions ahead of a read.

    The first piece is built here, the rest in a thread of its own (see
    :class:`~.records.TransactionCache`); False for an unknown user.
    """
    from accountdesk.sandbox.engine import SandboxEngine

    engine = app.state.engine
    assert isinstance(engine, SandboxEngine)
    return engine.prepare_transactions(user_id)


def prepare_large_transactions(app: Any) -> list[str]:
    """Have ``app`` build every large generated answer now, before any account is opened.

    The same builds as :func:`prepare_transactions` (first piece here, the
    rest in a thread), for each user with 10,000 to 250,000 generated rows
    (``engine.BUILT_AHEAD_ROWS``); the ids of those users.
    """
    from accountdesk.sandbox.engine import SandboxEngine

    engine = app.state.engine
    assert isinstance(engine, SandboxEngine)
    return engine.prepare_large_transactions()


def openapi_document() -> dict[str, Any]:
    """The OpenAPI 3.1 document of the contract and the sandbox's wire format.

    Generated from :mod:`accountdesk.contract`; the sandbox serves it at
    ``/openapi.json`` (and as a page at ``/docs``). Standard library only:
    the CLI can print it for import into Postman or Posting.
    """
    from accountdesk.sandbox.wire.openapi import openapi_document as build

    return build()


def is_loopback_host(host: str) -> bool:
    """Whether ``host`` names a loopback interface (``127.0.0.0/8``, ``::1``, ``localhost``).

    Any other name counts as reachable from the network, wildcards included.
    """
    import ipaddress

    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.removeprefix("[").removesuffix("]")).is_loopback
    except ValueError:
        return False


class SandboxOptionError(ValueError):
    """An option of the served sandbox out of its bounds (the CLI says it in one line)."""


def served_app(
    host: str, *, control_token: str | None = None, **create_app_kwargs: Any
) -> tuple[Starlette, str | None]:
    """The app :func:`serve` runs on ``host``, and its control token.

    Beyond loopback, and for a training room (``tenants=True``) on any host,
    a control token is made when none is given: trainees on one training PC
    reach loopback as well as the trainer does. Options out of bounds raise
    :class:`SandboxOptionError` before anything listens.
    """
    import secrets

    room = bool(create_app_kwargs.get("tenants"))
    if control_token is None and (room or not is_loopback_host(host)):
        control_token = secrets.token_urlsafe(32)
    try:
        app = create_app(control_token=control_token, **create_app_kwargs)
    except ValueError as error:
        raise SandboxOptionError(str(error)) from None
    return app, control_token


def welcome_lines(host: str, port: int, *, tenants: bool = False) -> list[str]:
    """What ``serve`` prints first: where it listens, how to sign in, how to connect."""
    from accountdesk.sandbox.tenants import TRAINEE_PREFIX, TRAINEE_SECRET

    shown = f"[{host}]" if ":" in host else host
    if host in {"0.0.0.0", "::", ""}:  # every interface: others use this machine's name
        shown = "<this machine>"
    url = f"http://{shown}:{port}"
    default = CREDENTIALS[0]
    lines = [
        f"accountdesk sandbox on {url}",
        f"  sign in with API key {default.api_key}, secret {default.api_secret}",
        f"  connect a dashboard: accountdesk --base-url {url}",
    ]
    if tenants:
        lines.append(
            f"  training room: each trainee signs in with API key {TRAINEE_PREFIX}<name> "
            f"(lower-case letters, digits, _ or -), secret {TRAINEE_SECRET}: a world of their own"
        )
        lines += room_lines(url)
    return lines


def room_lines(url: str) -> list[str]:
    """How the trainer lists the trainees, resets one or all (curl), and opens the room in the app."""
    from accountdesk.contract.sandbox_codes import CONTROL_TOKEN_HEADER

    header = f'-H "{CONTROL_TOKEN_HEADER}: $TOKEN"'  # double quotes: the shell fills it in
    return [
        "  the trainer, with TOKEN set to the control token printed below:",
        f"    list the trainees  curl {header} {url}/_sandbox/trainees",
        f"    reset one trainee  curl -X POST {header} '{url}/_sandbox/reset?trainee=NAME'",
        f"    reset everyone     curl -X POST {header} {url}/_sandbox/reset",
        f"    in the dashboard   accountdesk --base-url {url} --control-token $TOKEN, then F4",
    ]


def serve(
    host: str = "127.0.0.1",
    port: int = 8765,
    *,
    control_token: str | None = None,
    app: Starlette | None = None,
    request_timeout: float | None = None,
    max_connections: int | None = None,
    **create_app_kwargs: Any,
) -> None:
    """Serve a sandbox with uvicorn until interrupted (blocking).

    On a host other than loopback the control endpoints that act on the
    shared world need a control token: ``control_token``, or one made now.
    It is printed at start (never logged); clients send it as
    ``X-Sandbox-Control-Token``. Other keyword arguments go to
    :func:`create_app` (``tenants=True``, ``max_tenants``, ...). ``app``: one
    made by :func:`served_app` (then ``control_token`` is the one it gave).
    A connection must deliver a whole request within ``request_timeout``
    seconds (default 10) and at most ``max_connections`` are held at once
    (default 512, fewer when the process may open fewer files): see
    :mod:`.serving`.
    """
    import copy

    import uvicorn
    from uvicorn.config import LOGGING_CONFIG

    from accountdesk.contract.sandbox_codes import CONTROL_TOKEN_HEADER
    from accountdesk.sandbox.wire.serving import REQUEST_TIMEOUT, server_options

    if app is None:
        app, control_token = served_app(host, control_token=control_token, **create_app_kwargs)
    tenants = app.state.engine.tenants is not None
    print("\n".join(welcome_lines(host, port, tenants=tenants)), flush=True)
    if control_token is not None:
        print(
            f"Sandbox control token (send as header {CONTROL_TOKEN_HEADER}): {control_token}",
            flush=True,
        )
    # Show the sandbox's own lines (jobs started, MFA outcomes; never a token
    # or secret) beside uvicorn's, with uvicorn's formatter.
    log_config = copy.deepcopy(LOGGING_CONFIG)
    log_config["loggers"]["accountdesk.sandbox"] = {
        "handlers": ["default"],
        "level": "INFO",
        "propagate": False,
    }
    options = server_options(
        host,
        port,
        request_timeout=REQUEST_TIMEOUT if request_timeout is None else request_timeout,
        max_connections=max_connections,
    )
    uvicorn.run(app, log_level="info", log_config=log_config, **options)
