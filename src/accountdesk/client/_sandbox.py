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
"""

from __future__ import annotations

import datetime as dt
import math
from typing import Literal

from pydantic import AwareDatetime, Field, SecretStr, ValidationError

from ._fields import ServiceId, ServiceSecret, ServiceText
from ._responses import parse_record, raise_for_error
from ._session import Session
from ._wire import Answer, JsonBody
from .models import ServiceModel

__all__ = ["SandboxCatalogue", "SandboxControl", "SandboxCredential", "ScenarioUser"]

from accountdesk.contract.sandbox_codes import CONTROL_TOKEN_HEADER


class ScenarioUser(ServiceModel):
    """A scenario user of the sandbox and what it demonstrates."""

    user_id: ServiceId
    summary: ServiceText = ""


class SandboxCredential(ServiceModel):
    """An API key and secret the sandbox accepts, and who it reaches (in words)."""

    api_key: ServiceText
    api_secret: ServiceSecret
    access: ServiceText = ""


class SandboxCatalogue(ServiceModel):
    """``GET /_sandbox/scenarios``: the scenario users and the credentials."""

    users: list[ScenarioUser] = Field(max_length=1000)
    credentials: list[SandboxCredential] = Field(max_length=100)


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

    async def scenarios(self) -> SandboxCatalogue | None:
        """The sandbox's catalogue, or None when the service is not a sandbox.

        None for a 404 or any answer not in the catalogue's shape; a
        :class:`~accountdesk.client.TransportError` when there is no answer,
        and the token's own errors (``AC-101``) as from any call.
        """
        method, path = "GET", "/_sandbox/scenarios"
        answer = await self._send(method, path)
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
        if isinstance(seconds, bool) or not math.isfinite(seconds) or seconds < 0:
            raise ValueError("seconds must be a finite number, 0 or more: time only moves forward")
        return await self._now("POST", "/_sandbox/clock/advance", JsonBody(seconds=seconds))

    async def reset(self) -> None:
        """``POST /_sandbox/reset``: clear jobs, MFA sessions and blocks and rewind the clock.

        The clock goes back to where it started (read it again with
        :meth:`clock`); tokens stay, but none outlives a full lifetime from
        the rewound time.
        """
        method, path = "POST", "/_sandbox/reset"
        answer = await self._send(method, path)
        raise_for_error(answer, method, path, self._session.registry)
        parse_record(answer, _Reset, method, path, self._session.registry)

    async def _now(self, method: str, path: str, body: JsonBody | None) -> dt.datetime:
        answer = await self._send(method, path, body)
        raise_for_error(answer, method, path, self._session.registry)
        return parse_record(answer, _Now, method, path, self._session.registry).now

    async def _send(self, method: str, path: str, body: JsonBody | None = None) -> Answer:
        return await self._session.send(
            method, path, body=body, deadline=self._session.deadline(), headers=self._headers
        )
