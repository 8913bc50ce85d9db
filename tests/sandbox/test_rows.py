"""Every row of contract section 7.2, straight against the sandbox (no client).

Each (endpoint, code) pair is provoked through the scenario users and checked
for the exact status, code and message text from the catalogue.
"""

from __future__ import annotations

from urllib.parse import quote

import httpx
import pytest
from sandbox_helpers import LIMITED, assert_envelope, bearer

from accountdesk.contract import Endpoint, ErrorSpec, endpoint_error_pairs
from accountdesk.contract import endpoints as ep
from accountdesk.sandbox import FrozenClock

pytestmark = pytest.mark.anyio

# The user that answers each scenario code.
_SCENARIO_USER = {
    "AC-103": "user_fi_incomplete",
    "AC-104": "user_fi_down",
    "AC-105": "user_manual",
    "AC-106": "user_fi_paused",
    "AC-107": "user_manual",
    "AC-111": "user_manual",
    "AC-113": "user_identity_mismatch",
    "AC-114": "user_manual",
    "AC-115": "user_manual",
}


async def _mfa_job(http: httpx.AsyncClient, headers: dict[str, str]) -> str:
    answer = await http.post("/accounts/user_mfa/refresh", headers=headers)
    assert answer.status_code == 202
    return answer.json()["job_id"]


@pytest.mark.parametrize(
    ("endpoint", "spec"), endpoint_error_pairs(), ids=lambda value: getattr(value, "name", None) or value.code
)
async def test_row(
    http: httpx.AsyncClient, clock: FrozenClock, endpoint: Endpoint, spec: ErrorSpec
) -> None:
    if endpoint is ep.TOKEN:
        secret = "wrong" if spec.code == "AC-101" else None
        answer = await http.post("/token", json={"api_key": "sandbox_key", "api_secret": secret})
        error = assert_envelope(answer, spec.status_for(endpoint), spec.code)
        assert error["message"] == spec.message_for(endpoint)
        return

    headers = await bearer(http)
    user_id, job_id, body = "user_good", "job_missing", {"answer": "1234"}
    if spec.code == "AC-001":
        headers = await bearer(http, LIMITED)
        user_id = "user_mfa"
    elif spec.code == "AC-100":
        user_id = "a/b"
    elif spec.code == "AC-102":
        user_id = "nobody"
    elif spec.code in _SCENARIO_USER:
        user_id = _SCENARIO_USER[spec.code]
    elif spec.code == "AC-108":
        user_id, job_id = "user_mfa", await _mfa_job(http, headers)
        for _ in range(3):
            await http.post(f"/accounts/user_mfa/mfa/{job_id}", headers=headers, json={"answer": "0"})
            await http.post(f"/accounts/user_mfa/mfa/{job_id}/resolve", headers=headers)
    elif spec.code == "AC-110":
        user_id, job_id = "user_mfa", await _mfa_job(http, headers)
        clock.advance(300)
    elif spec.code == "AC-112":
        first = await http.request(endpoint.method, endpoint.path.format(user_id=user_id), headers=headers)
        assert first.status_code == 202

    path = endpoint.path.format(user_id=quote(user_id, safe=""), job_id=quote(job_id, safe=""))
    answer = await http.request(endpoint.method, path, headers=headers, json=body)
    error = assert_envelope(answer, spec.status_for(endpoint), spec.code)
    assert error["message"] == spec.message_for(endpoint, user_id=user_id, job_id=job_id)
