"""One test per row of the contract's section 7.2, generated from the catalogue.

For every (endpoint, code) pair the sandbox is driven into that error, then
checked twice: on the wire (exact status, code and message text) and through
the client (the matching exception class, carrying the same fields).
"""

from __future__ import annotations

from collections.abc import Awaitable
from urllib.parse import quote

import httpx
import pytest

from accountdesk.client import AccountDataClient, ApiError
from accountdesk.client.errors import error_class_for
from accountdesk.contract import Endpoint, ErrorSpec, endpoint_error_pairs, endpoints
from accountdesk.sandbox import FrozenClock, create_app
from provoke import BASE_URL, GOOD, START, Provocation, provocation, token_header


def case_for(endpoint: Endpoint, spec: ErrorSpec) -> Provocation:
    """The scenario that makes ``endpoint`` answer ``spec.code`` (shared with the document's test)."""
    return provocation(spec.code, endpoint)


def _call(
    client: AccountDataClient, endpoint: Endpoint, user_id: str, job_id: str
) -> Awaitable[object]:
    if endpoint is endpoints.TOKEN:
        return client.sign_in()
    method = getattr(client, endpoint.name)
    if endpoint is endpoints.MFA_ANSWER:
        return method(user_id, job_id, "1234")
    if "job_id" in endpoint.path_parameters:
        return method(user_id, job_id)
    return method(user_id)


PAIRS = endpoint_error_pairs()


@pytest.mark.anyio
@pytest.mark.parametrize(("endpoint", "spec"), PAIRS, ids=[f"{e.name}-{s.code}" for e, s in PAIRS])
async def test_sandbox_answers_and_client_raises(endpoint: Endpoint, spec: ErrorSpec) -> None:
    clock = FrozenClock(START)
    transport = httpx.ASGITransport(app=create_app(clock=clock, ids=1))
    case = case_for(endpoint, spec)
    async with httpx.AsyncClient(transport=transport, base_url=BASE_URL) as http:
        job_id = case.job_id
        if case.prepare is not None:
            job_id = await case.prepare(http, clock) or job_id

        # On the wire: exact status, code and text.
        path = endpoint.path.format(
            user_id=quote(case.user_id, safe=""), job_id=quote(job_id, safe="")
        )
        if endpoint is endpoints.TOKEN:
            wire = await http.post(
                path, json={"api_key": case.credentials[0], "api_secret": case.credentials[1]}
            )
        else:
            headers = await token_header(http, case.credentials if spec.code == "AC-001" else GOOD)
            body = {"answer": "1234"} if endpoint is endpoints.MFA_ANSWER else None
            wire = await http.request(endpoint.method, path, headers=headers, json=body)
        expected_message = spec.message_for(endpoint, user_id=case.user_id, job_id=job_id)
        assert wire.status_code == spec.status_for(endpoint)
        assert wire.headers["content-type"] == "application/json"
        assert wire.json() == {"error": {"code": spec.code, "message": expected_message}}

    # The sandbox state that caused the error still holds on its frozen clock
    # (the first job still runs, the block and the expiry still stand).

    # Through the client: the matching class with the same fields.
    async with AccountDataClient(BASE_URL, *case.credentials, transport=transport) as client:
        with pytest.raises(ApiError) as raised:
            await _call(client, endpoint, case.user_id, job_id)
    error = raised.value
    assert type(error) is error_class_for(spec.code)
    assert (error.status, error.code, error.message) == (
        spec.status_for(endpoint),
        spec.code,
        expected_message,
    )
    assert error.method == endpoint.method
