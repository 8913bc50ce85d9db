"""The sandbox's own codes: answers the contract does not cover.

What a web framework would otherwise answer on its own (unknown route, wrong
method, a crash) and the sandbox's control and training limits. They are
ours, not the service's; the client treats them as unknown codes, and a real
service never sends them. Kept apart from the service's catalogue
(:mod:`.errors`) so nobody mistakes one for the other; guidance beside each,
as there.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from accountdesk.contract.errors import ErrorFamily, ErrorSpec

__all__ = ["CONTROL_TOKEN_HEADER", "SANDBOX_CODES"]

#: The header a sandbox served beyond loopback reads its control token from
#: (the client sends it, the sandbox checks it, the OpenAPI document names it).
CONTROL_TOKEN_HEADER = "X-Sandbox-Control-Token"

_NOT_THE_SERVICE = "From the sandbox, not the real service: "


def _sandbox_spec(
    code: str, status: int, message: str, condition: str, *, meaning: str, next_step: str
) -> ErrorSpec:
    return ErrorSpec(
        code,
        status,
        message,
        condition,
        ErrorFamily.OTHER,
        meaning=_NOT_THE_SERVICE + meaning,
        next_step=next_step,
    )


#: The sandbox's codes, keyed by code.
SANDBOX_CODES: Mapping[str, ErrorSpec] = MappingProxyType(
    {
        spec.code: spec
        for spec in (
            _sandbox_spec(
                "AC-904",
                404,
                "No such endpoint",
                "Unknown route.",
                meaning="the request went to a path the service does not have (a typo in a "
                "hand-made request, or a client newer than the sandbox).",
                next_step="Check the method and path against the contract's list of endpoints.",
            ),
            _sandbox_spec(
                "AC-905",
                405,
                "Method not allowed on this endpoint",
                "Known route, wrong method.",
                meaning="the path exists but not with this method (GET where POST is needed, "
                "or the reverse); the Allow header lists the right one.",
                next_step="Send the request again with the method the Allow header names.",
            ),
            _sandbox_spec(
                "AC-950",
                500,
                "The sandbox failed to answer this request",
                "Unexpected failure inside the sandbox.",
                meaning="a bug in the sandbox itself; the request may have been fine.",
                next_step="Report it to the accountdesk maintainers with the sandbox's log.",
            ),
            _sandbox_spec(
                "AC-903",
                403,
                "Sandbox control needs the X-Sandbox-Control-Token header "
                "(the token is printed when the sandbox starts)",
                "A control call on the shared world or the training room, without the "
                "sandbox's control token.",
                meaning="a control call (reset, clock, the list of trainees) reached a sandbox "
                "served on the network or running a training room, which needs its control "
                "token so one trainee cannot reset everyone's world.",
                next_step="Give the app the token the sandbox printed: --control-token or "
                "sandbox_control_token.",
            ),
            _sandbox_spec(
                "AC-913",
                413,
                "Request body too large",
                "The request body is over the sandbox's limit (64 KiB).",
                meaning="the request body was over 64 KiB; no request of the contract needs "
                "that much.",
                next_step="Send a smaller body; an MFA answer or a sign-in is a few bytes.",
            ),
            _sandbox_spec(
                "AC-953",
                503,
                "The sandbox has too many open connections; try again in a moment",
                "A new connection while the sandbox holds its most (--max-connections).",
                meaning="the sandbox already holds as many connections as it may; often "
                "clients that connect and send no complete request, which it closes after "
                "10 seconds.",
                next_step="Try again in a few seconds; if it lasts, ask the trainer to look "
                "at the sandbox's log.",
            ),
            _sandbox_spec(
                "AC-924",
                404,
                "No trainee of that name has signed in to this training sandbox",
                "A trainer's call named a trainee (?trainee=NAME) this sandbox has not seen.",
                meaning="the trainer's call named a trainee who has not signed in since the "
                "sandbox started (or a sandbox without a training room), so there is no world "
                "to reset or move.",
                next_step="List the trainees (GET /_sandbox/trainees) and use a name from it: "
                "alice or trainee_alice.",
            ),
            _sandbox_spec(
                "AC-929",
                429,
                "The training sandbox has no room for another trainee",
                "A new trainee_<name> key signed in when every tenant world was taken.",
                meaning="every trainee world of this training sandbox is taken, so a new "
                "trainee key cannot sign in.",
                next_step="Sign in with a trainee key already in use, or ask the trainer to "
                "restart it.",
            ),
        )
    }
)
