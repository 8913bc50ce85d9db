"""The sandbox's control endpoints, outside the service contract.

:class:`SandboxControl` (from :attr:`AccountDataClient.sandbox` or
:meth:`AccountDataClient.sandbox_control`) sends through the client's own
session: same connection pool, same bearer token (in the sandbox's
multi-tenant mode the token selects the tenant), same deadlines and size
cap, same sanitising of every text. A sandbox served on a non-loopback
interface asks for a control token, sent as ``X-Sandbox-Control-Token``.

:meth:`SandboxControl.scenarios` is also how an app learns whether it talks
to a sandbox at all: a real service answers 404 (or anything else not in the
catalogue's shape), and the method returns None.

The trainer's calls on a training room (:meth:`SandboxControl.trainees`,
:meth:`~SandboxControl.reset_trainee`, :meth:`~SandboxControl.advance_trainee_clock`,
:meth:`~SandboxControl.reset_room`) stand on the control token alone: they
are sent without the bearer token, so whichever key the trainer signed in
with, no trainee's world is picked by it.
"""

from __future__ import annotations

import datetime as dt
import math
from typing import Literal
from urllib.parse import quote

from pydantic import AwareDatetime, Field, SecretStr, ValidationError

from accountdesk.client._fields import ServiceId, ServiceSecret, ServiceText
from accountdesk.client._responses import parse_record, raise_for_error
from accountdesk.client._session import Session
from accountdesk.client._wire import Answer, JsonBody
from accountdesk.client.models import ServiceModel
from accountdesk.contract.sandbox_codes import CONTROL_TOKEN_HEADER

__all__ = [
    "SandboxCatalogue",
    "SandboxControl",
    "SandboxCredential",
    "ScenarioUser",
    "Trainee",
    "TraineeBlock",
    "TrainingRoom",
]

#: More trainees than this is not a room (the sandbox allows 10,000 at most).
MAX_TRAINEES = 10_000
#: A count of jobs past this is not believed (a world holds a room's work, not billions).
MAX_COUNT = 10_000_000
#: How far ahead a trainee's clock may be: the sandbox's 100 years, with a day to spare.
MAX_AHEAD_SECONDS = 36_526 * 86_400


class ScenarioUser(ServiceModel):
    """A scenario user of the sandbox and what it demonstrates."""

    user_id: ServiceId
    summary: ServiceText = ""


class SandboxCredential(ServiceModel):
    """An API key the sandbox accepts, and who it reaches (in words).

    ``api_secret`` only for the shipped demo credentials (public values); a
    scenario pack's own are named without it (None).
    """

    api_key: ServiceText
    api_secret: ServiceSecret | None = None
    access: ServiceText = ""


class SandboxCatalogue(ServiceModel):
    """``GET /_sandbox/scenarios``: the scenario users and the credentials."""

    users: list[ScenarioUser] = Field(max_length=1000)
    credentials: list[SandboxCredential] = Field(max_length=100)


class TraineeBlock(ServiceModel):
    """A user blocked in a trainee's world (``AC-108``), and when the block lifts."""

    user_id: ServiceId
    until: AwareDatetime


class Trainee(ServiceModel):
    """One trainee of a training room, as the trainer sees them."""

    name: ServiceText
    api_key: ServiceText
    #: When the sandbox first and last heard from them (the sandbox's own clock).
    first_request: AwareDatetime
    last_request: AwareDatetime
    #: Their world's clock, which they (or the trainer) may have moved ahead.
    clock: AwareDatetime
    clock_ahead_seconds: float = Field(ge=0, le=MAX_AHEAD_SECONDS, allow_inf_nan=False)
    jobs: int = Field(ge=0, le=MAX_COUNT)
    open_jobs: int = Field(ge=0, le=MAX_COUNT)
    waiting_for_mfa: int = Field(ge=0, le=MAX_COUNT)
    blocks: list[TraineeBlock] = Field(max_length=1000)

    @property
    def clock_ahead(self) -> dt.timedelta:
        return dt.timedelta(seconds=self.clock_ahead_seconds)


class TrainingRoom(ServiceModel):
    """``GET /_sandbox/trainees``: every trainee seen (none without a training room)."""

    tenants: bool
    max_trainees: int = Field(ge=0, le=MAX_TRAINEES)
    #: The sandbox's own clock (first and last requests are on it).
    now: AwareDatetime
    trainees: list[Trainee] = Field(max_length=MAX_TRAINEES)


class _Now(ServiceModel):
    now: AwareDatetime


class _Reset(ServiceModel):
    reset: Literal[True]


class SandboxControl:
    """Client of the sandbox's control endpoints; see the module docstring."""

    def __init__(self, session: Session, control_token: SecretStr | None = None) -> None:
        self._session = session
        self._headers = {CONTROL_TOKEN_HEADER: control_token} if control_token else None
        if control_token:
            session.registry.add_secret(control_token)

    async def scenarios(self, *, anonymous: bool = False) -> SandboxCatalogue | None:
        """The sandbox's catalogue, or None when the service is not a sandbox.

        None for a 404 or any answer not in the catalogue's shape; a
        :class:`~accountdesk.client.TransportError` when there is no answer,
        and the token's own errors (``AC-101``) as from any call.
        ``anonymous``: no token is fetched or sent (the sandbox serves its
        catalogue to anyone), so the app can tell a sandbox from a live
        service before anyone signs in.
        """
        method, path = "GET", "/_sandbox/scenarios"
        answer = await self._send(method, path, trainer=anonymous)
        if answer.status_code != 200:
            return None
        try:
            return SandboxCatalogue.from_json(answer.content)
        except ValidationError:
            return None

    async def clock(self) -> dt.datetime:
        """``GET /_sandbox/clock``: the sandbox's current time (timezone-aware)."""
        return await self._now("GET", "/_sandbox/clock", None)

    async def advance_clock(self, seconds: float) -> dt.datetime:
        """``POST /_sandbox/clock/advance``: move the sandbox's time forward; the new time."""
        return await self._now("POST", "/_sandbox/clock/advance", JsonBody(seconds=_step(seconds)))

    async def reset(self) -> None:
        """``POST /_sandbox/reset``: clear jobs, MFA sessions and blocks; rewind the clock.

        Acts on the signed-in key's world; on a training room's shared world
        (``sandbox_key``, with the control token) every trainee's too.
        """
        await self._reset("/_sandbox/reset", trainer=False)

    # -- the trainer's calls (see the module docstring) --------------------------

    async def trainees(self) -> TrainingRoom:
        """``GET /_sandbox/trainees``: the room (``AC-903`` without the control token)."""
        method, path = "GET", "/_sandbox/trainees"
        answer = await self._send(method, path, trainer=True)
        raise_for_error(answer, method, path, self._session.registry)
        return parse_record(answer, TrainingRoom, method, path, self._session.registry)

    async def reset_trainee(self, name: str) -> None:
        """``POST /_sandbox/reset?trainee=NAME``: one trainee's world (``AC-924``: never seen)."""
        await self._reset(f"/_sandbox/reset?trainee={_trainee(name)}")

    async def reset_room(self) -> None:
        """``POST /_sandbox/reset`` as the trainer: the shared world and every trainee's."""
        await self._reset("/_sandbox/reset", trainer=True)

    async def advance_trainee_clock(self, name: str, seconds: float) -> dt.datetime:
        """``POST /_sandbox/clock/advance?trainee=NAME``: move one trainee's clock; their new time."""
        path = f"/_sandbox/clock/advance?trainee={_trainee(name)}"
        return await self._now("POST", path, JsonBody(seconds=_step(seconds)), trainer=True)

    # -- helpers -----------------------------------------------------------------

    async def _reset(self, path: str, *, trainer: bool = True) -> None:
        method = "POST"
        answer = await self._send(method, path, trainer=trainer)
        raise_for_error(answer, method, path, self._session.registry)
        parse_record(answer, _Reset, method, path, self._session.registry)

    async def _now(
        self, method: str, path: str, body: JsonBody | None, *, trainer: bool = False
    ) -> dt.datetime:
        answer = await self._send(method, path, body, trainer=trainer)
        raise_for_error(answer, method, path, self._session.registry)
        return parse_record(answer, _Now, method, path, self._session.registry).now

    async def _send(
        self, method: str, path: str, body: JsonBody | None = None, *, trainer: bool = False
    ) -> Answer:
        return await self._session.send(
            method,
            path,
            body=body,
            deadline=self._session.deadline(),
            headers=self._headers,
            authenticated=not trainer,
        )


def _trainee(name: object) -> str:
    """A trainee's name as one query value (ValueError for none: never "everyone")."""
    if not isinstance(name, str) or not name.strip():
        raise ValueError("name a trainee: alice or trainee_alice")
    return quote(name, safe="")


def _step(seconds: float) -> float:
    if isinstance(seconds, bool) or not math.isfinite(seconds) or seconds < 0:
        raise ValueError("seconds must be a finite number, 0 or more: time only moves forward")
    return seconds
