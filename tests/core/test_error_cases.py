"""A scenario from an error of the log: the message redacted, the catalogue's own words kept."""

from __future__ import annotations

import datetime as dt

from accountdesk.contract import endpoints as ep
from accountdesk.contract import known_spec
from accountdesk.core.cases.case import error_user
from accountdesk.core.errors.log import ErrorRecord

AT = dt.datetime(2026, 3, 2, 12, 0, tzinfo=dt.UTC)


def _record(code: str, status: int, message: str, path: str) -> ErrorRecord:
    return ErrorRecord(
        AT, f"{code} · {status}", message, "error", "GET", path, status=status, code=code
    )


def test_the_catalogues_message_is_kept_whole_and_another_is_scrubbed() -> None:
    catalogue = known_spec("AC-104")
    assert catalogue is not None
    said = catalogue.message_for(ep.BALANCE, user_id="u_1")
    assert "@" in said  # the contract's support address: the service's words, not a customer's
    user = error_user(
        _record("AC-104", 400, said, "/accounts/u_1/balance"), service="the embedded sandbox"
    )
    assert user["answers"][0]["message"] == said and user["id"] == "case_1"
    leaky = "Call 646-555-0123 or write to ops@branch.test about u_1"
    user = error_user(
        _record("AC-777", 503, leaky, "/accounts/u_1/balance"), service="the embedded sandbox"
    )
    message = user["answers"][0]["message"]
    assert not any(value in message for value in ("646-555-0123", "ops@branch.test", "u_1"))
