"""The endpoints of the Account Data Service (contract section 4).

Every other part of accountdesk names endpoints through these constants, so a
path is written once: the client formats it, the sandbox routes it, and the
tests walk it.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Endpoint:
    """One operation of the service: its method and path template."""

    name: str
    method: str
    path: str
    summary: str

    @property
    def path_parameters(self) -> tuple[str, ...]:
        """Names of the ``{...}`` placeholders, in path order."""
        return tuple(
            part[1:-1]
            for part in self.path.split("/")
            if part.startswith("{") and part.endswith("}")
        )

    def __str__(self) -> str:  # "GET /accounts/{user_id}"
        return f"{self.method} {self.path}"


def _endpoint(name: str, method: str, path: str, summary: str) -> Endpoint:
    return Endpoint(name=name, method=method, path=path, summary=summary)


TOKEN = _endpoint(
    "token", "POST", "/token", "Exchange an API key and secret for an access credential."
)
ACCOUNT = _endpoint(
    "get_account", "GET", "/accounts/{user_id}", "Read account information of a user."
)
BALANCE = _endpoint("get_balance", "GET", "/accounts/{user_id}/balance", "Read the balance.")
REFRESH = _endpoint(
    "refresh_balance", "POST", "/accounts/{user_id}/refresh", "Start a balance refresh."
)
MFA_ANSWER = _endpoint(
    "submit_mfa", "POST", "/accounts/{user_id}/mfa/{job_id}", "Submit an MFA answer for a job."
)
MFA_RESOLVE = _endpoint(
    "resolve_mfa",
    "POST",
    "/accounts/{user_id}/mfa/{job_id}/resolve",
    "Resolve the MFA session of a job.",
)
IDENTITY_START = _endpoint(
    "start_identity", "POST", "/accounts/{user_id}/identity", "Start an identity job."
)
IDENTITY_READ = _endpoint(
    "get_identity", "GET", "/accounts/{user_id}/identity", "Read identity data."
)
TRANSACTIONS_START = _endpoint(
    "start_transactions", "POST", "/accounts/{user_id}/transactions", "Start a transaction job."
)
TRANSACTIONS_READ = _endpoint(
    "get_transactions", "GET", "/accounts/{user_id}/transactions", "Read transaction data."
)
JOB = _endpoint("get_job", "GET", "/accounts/{user_id}/job/{job_id}", "Read a job.")

#: Every endpoint of section 4, in the contract's order.
ALL_ENDPOINTS: tuple[Endpoint, ...] = (
    TOKEN,
    ACCOUNT,
    BALANCE,
    REFRESH,
    MFA_ANSWER,
    MFA_RESOLVE,
    IDENTITY_START,
    IDENTITY_READ,
    TRANSACTIONS_START,
    TRANSACTIONS_READ,
    JOB,
)

_BY_NAME = {endpoint.name: endpoint for endpoint in ALL_ENDPOINTS}


def endpoint_named(name: str) -> Endpoint:
    """Look an endpoint up by its snake_case name (``"get_balance"``)."""
    return _BY_NAME[name]
