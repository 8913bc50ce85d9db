"""The sandbox's scenario catalogue (``GET /_sandbox/scenarios``), for the lookup screen.

A control endpoint outside the contract, so it is not on the client; this
module asks for it over the same transport the client uses. UI code calls
:func:`fetch_scenarios` from a worker and never speaks HTTP itself.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import httpx

log = logging.getLogger(__name__)

CATALOGUE_PATH = "/_sandbox/scenarios"


@dataclass(frozen=True, slots=True)
class ScenarioUser:
    user_id: str
    summary: str


async def fetch_scenarios(
    base_url: str, transport: httpx.AsyncBaseTransport | None, timeout: float = 5.0
) -> list[ScenarioUser]:
    """The scenario users the sandbox offers.

    The list is a demo convenience, so every failure (unreachable, odd
    answer) is an empty list and a log line, never an exception for the UI.
    """
    try:
        async with httpx.AsyncClient(
            base_url=base_url, transport=transport, timeout=timeout
        ) as http:
            response = await http.get(CATALOGUE_PATH)
    except httpx.HTTPError as error:
        log.warning("scenario catalogue unavailable: %s", error)
        return []
    if response.status_code != 200:
        return []
    try:
        users = response.json().get("users", [])
    except (ValueError, AttributeError):
        return []
    return [
        ScenarioUser(str(user["user_id"]), str(user.get("summary", "")))
        for user in users
        if isinstance(user, dict) and "user_id" in user
    ]
