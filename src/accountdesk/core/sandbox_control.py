"""Control of a sandbox: read, move and reset its clock (its ``/_sandbox`` endpoints).

The desk's ``sandbox_clock``, ``advance_sandbox_clock`` and ``reset_sandbox``
call these; they stand in until the client's own ``SandboxControl`` (which
shares the signed-in client's deadlines and token) is merged, and then only
the desk's three methods change. Failures are the client's errors, so the UI
reports them on its one failure path: the sandbox's coded refusal (a step
over its bound is ``AC-100``; a shared world served beyond loopback wants a
control token, ``AC-903``) as an :class:`~accountdesk.client.ApiError`, no
answer as a :class:`~accountdesk.client.TransportError`, anything else as a
:class:`~accountdesk.client.MalformedResponseError`.

Also here: how a person types a clock step (``90``, ``90s``, ``5m``, ``2h``)
and how one reads (``+5 min``).
"""

from __future__ import annotations

import datetime as dt
import json
import math
import re
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .connection import ServiceConnection

__all__ = [
    "MAX_CLOCK_STEP",
    "advance_clock",
    "describe_step",
    "parse_clock_step",
    "read_clock",
    "reset",
]

#: The largest step the sandbox takes at once (its clock refuses more): 366 days.
MAX_CLOCK_STEP = 366 * 24 * 3600.0
_TIMEOUT = 5.0
_STEP = re.compile(r"\s*([0-9]+(?:\.[0-9]+)?)\s*(s|sec|m|min|h|d)?\s*", re.IGNORECASE)
_UNIT_SECONDS = {"s": 1, "sec": 1, "m": 60, "min": 60, "h": 3600, "d": 86400}


async def read_clock(connection: ServiceConnection) -> dt.datetime:
    """The sandbox's time (``GET /_sandbox/clock``)."""
    return _time_of(await _call(connection, "GET", "/_sandbox/clock"), "/_sandbox/clock")


async def advance_clock(connection: ServiceConnection, seconds: float) -> dt.datetime:
    """Move the sandbox's clock forward (``POST /_sandbox/clock/advance``); its new time."""
    path = "/_sandbox/clock/advance"
    return _time_of(await _call(connection, "POST", path, {"seconds": seconds}), path)


async def reset(connection: ServiceConnection) -> dt.datetime:
    """Forget jobs, MFA sessions and blocks and rewind the clock; the time it rewound to."""
    await _call(connection, "POST", "/_sandbox/reset")
    return await read_clock(connection)


def parse_clock_step(text: str) -> float:
    """Seconds from ``"90"``, ``"90s"``, ``"5m"``, ``"2h"`` or ``"1d"``.

    ValueError, with a sentence a person can act on, for anything else, for
    nothing and for more than the sandbox takes at once.
    """
    match = _STEP.fullmatch(text)
    if match is None:
        raise ValueError("Type a number of seconds, or minutes and hours as 5m or 2h.")
    seconds = float(match.group(1)) * _UNIT_SECONDS[(match.group(2) or "s").lower()]
    if not 0 < seconds <= MAX_CLOCK_STEP or not math.isfinite(seconds):
        raise ValueError("A step is more than 0 seconds and at most 366 days.")
    return seconds


def describe_step(seconds: float) -> str:
    """``+5 s``, ``+5 min``, ``+1 h 30 min``, ``+2 days``: a clock step as a person says it."""
    whole = round(seconds)
    if whole < 60 or whole != seconds:
        return f"+{seconds:g} s"
    days, rest = divmod(whole, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    parts = [
        f"{days} day{'s' if days != 1 else ''}" if days else "",
        f"{hours} h" if hours else "",
        f"{minutes} min" if minutes else "",
        f"{secs} s" if secs else "",
    ]
    return "+" + " ".join(part for part in parts if part)


async def _call(
    connection: ServiceConnection, method: str, path: str, body: dict[str, Any] | None = None
) -> Any:
    import httpx

    from accountdesk.client import TransportError

    try:
        async with httpx.AsyncClient(
            base_url=connection.url, transport=await connection.transport(), timeout=_TIMEOUT
        ) as http:
            response = await http.request(method, path, json=body)
    except httpx.TimeoutException as error:
        raise TransportError(
            "timeout", f"{method} {path}: {error}", method=method, path=path
        ) from None
    except httpx.HTTPError as error:
        raise TransportError(
            "network", f"{method} {path}: {error}", method=method, path=path
        ) from None
    return _answer(response, method, path)


def _answer(response: Any, method: str, path: str) -> Any:
    from accountdesk.client import (
        MalformedResponseError,
        error_class_for,
        sanitise_text,
    )
    from accountdesk.contract import CODE_PATTERN

    try:
        body = json.loads(response.content)
    except ValueError:
        body = None
    if response.is_success and isinstance(body, dict):
        return body
    error = body.get("error") if isinstance(body, dict) else None
    code = error.get("code") if isinstance(error, dict) else None
    message = error.get("message") if isinstance(error, dict) else None
    if isinstance(code, str) and CODE_PATTERN.match(code) and isinstance(message, str):
        # The sandbox's own text: made inert like every text from a service.
        raise error_class_for(code)(
            response.status_code, code, sanitise_text(message), method=method, path=path
        )
    problem = "not a sandbox control answer (is this a sandbox?)"
    raise MalformedResponseError(
        response.status_code, "", problem=problem, method=method, path=path
    )


def _time_of(body: dict[str, Any], path: str) -> dt.datetime:
    from accountdesk.client import MalformedResponseError

    try:
        moment = dt.datetime.fromisoformat(str(body["now"]))
    except (KeyError, ValueError):
        moment = None
    if moment is None or moment.tzinfo is None:
        raise MalformedResponseError(200, "", problem="no time in the answer", path=path)
    return moment.astimezone(dt.UTC)
