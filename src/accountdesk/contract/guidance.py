"""Guidance for every failure a person can meet: the service's codes and the ones with none.

A coded answer's guidance sits beside its message in the catalogue
(:mod:`.errors`, :mod:`.sandbox_codes`); this module finds it by code, and
holds the guidance for failures that carry no ``AC-`` code at all: no
connection, no answer in time, an answer in the wrong shape, a request
refused before sending, a bug of our own, a code nobody catalogued. The app
never invents a code for those; it names them by :class:`FailureKind`.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from types import MappingProxyType

from accountdesk.contract.errors import ERRORS, UNLISTED_CODES, ErrorSpec, Guidance
from accountdesk.contract.sandbox_codes import SANDBOX_CODES

__all__ = ["FAILURE_GUIDANCE", "FailureKind", "guidance_for_code", "known_spec"]


class FailureKind(StrEnum):
    """A failure without a catalogued code, named for what happened."""

    CONNECT = "connect"
    TIMEOUT = "timeout"
    NETWORK = "network"
    MALFORMED = "malformed"
    REFUSED = "refused"
    STILL_RUNNING = "still-running"
    INTERNAL = "internal"
    UNKNOWN_CODE = "unknown-code"


#: What each kind of uncoded failure means and what to do next.
FAILURE_GUIDANCE: Mapping[FailureKind, Guidance] = MappingProxyType(
    {
        FailureKind.CONNECT: Guidance(
            meaning="No connection to the service: refused, host name not found, or no "
            "network. The service never saw the request, so nothing changed there.",
            next_step="Check the service URL and your network or VPN; if colleagues fail too, "
            "escalate.",
        ),
        FailureKind.TIMEOUT: Guidance(
            meaning="No answer came within the time limit: the service or the way to it is "
            "slow. Reads were retried; a job start may or may not have reached the service.",
            next_step="Look at the jobs screen before starting a job again; report slowness "
            "that lasts.",
        ),
        FailureKind.NETWORK: Guidance(
            meaning="The connection broke during the request (reset or closed by something "
            "in between). A job start may or may not have reached the service.",
            next_step="Try again in a minute; if it keeps breaking, check the network or VPN.",
        ),
        FailureKind.MALFORMED: Guidance(
            meaning="Something answered, but not in the service's format: often a proxy, "
            "gateway or login page between us and the service, or the wrong base URL.",
            next_step="Check that the base URL is the API; if it is, send this report to the "
            "service's operators.",
        ),
        FailureKind.REFUSED: Guidance(
            meaning="accountdesk refused this before sending anything: the user id or the "
            "service URL cannot be used as typed.",
            next_step="Correct the user id or URL as the message says, then try again.",
        ),
        FailureKind.STILL_RUNNING: Guidance(
            meaning="The job had not finished when we stopped waiting for it; it may still "
            "finish on the service.",
            next_step="Check the job again later on the jobs screen.",
        ),
        FailureKind.INTERNAL: Guidance(
            meaning="A bug in accountdesk itself, not the service's answer. Details (with "
            "credentials redacted) are in accountdesk.log.",
            next_step="Try again; if it repeats, send accountdesk.log to the accountdesk "
            "maintainers.",
        ),
        FailureKind.UNKNOWN_CODE: Guidance(
            meaning="The service answered with a code our catalogue does not know (a newer "
            "service, or a code its documents leave out); its message is shown as it came.",
            next_step="Follow the message; if it is unclear, escalate with this report.",
        ),
    }
)


def known_spec(code: str) -> ErrorSpec | None:
    """The row of ``code`` in the service's catalogue, its unlisted codes or the sandbox's codes."""
    return ERRORS.get(code) or UNLISTED_CODES.get(code) or SANDBOX_CODES.get(code)


def guidance_for_code(code: str) -> Guidance:
    """The guidance for an answer with ``code`` (the unknown-code guidance when uncatalogued)."""
    spec = known_spec(code)
    return spec.guidance if spec is not None else FAILURE_GUIDANCE[FailureKind.UNKNOWN_CODE]
