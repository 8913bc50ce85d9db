"""Every error answer is built by one function: the catalogue's ``ErrorSpec.body_for``.

The test marks what that one function builds and checks that every kind of
error answer carries the mark: engine errors, job error objects and the
answers the framework would make itself.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from sandbox_helpers import BASE_URL, START, bearer
from starlette.applications import Starlette

from accountdesk.contract import ErrorSpec
from accountdesk.sandbox import FrozenClock, create_app

pytestmark = pytest.mark.anyio
MARK = "from-the-catalogue"


@pytest.fixture
def marked(monkeypatch: pytest.MonkeyPatch) -> None:
    build = ErrorSpec.body_for

    def body_for(self: ErrorSpec, *args: Any, **kwargs: Any) -> dict[str, dict[str, str]]:
        body = build(self, *args, **kwargs)
        body["error"]["mark"] = MARK
        return body

    monkeypatch.setattr(ErrorSpec, "body_for", body_for)


async def test_every_error_envelope_comes_from_the_catalogue(marked: None) -> None:
    app: Starlette = create_app(clock=FrozenClock(START), ids=1)
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app), base_url=BASE_URL) as http:
        headers = await bearer(http)
        job_id = (await http.post("/accounts/user_mfa/refresh", headers=headers)).json()["job_id"]
        await http.post("/_sandbox/clock/advance", json={"seconds": 301})
        answers = {
            "AC-001": await http.get("/accounts/user_good"),
            "AC-101": await http.post("/token", json={"api_key": "x", "api_secret": "y"}),
            "AC-102": await http.get("/accounts/user_nobody", headers=headers),
            "AC-110": await http.post(f"/accounts/user_mfa/mfa/{job_id}/resolve", headers=headers),
            "AC-904": await http.get("/nowhere"),
            "AC-905": await http.delete("/token"),
        }
        job = await http.get(f"/accounts/user_mfa/job/{job_id}", headers=headers)

        def explode(*args: object) -> None:
            raise RuntimeError("boom")

        app.state.engine.get_account = explode
        answers["AC-950"] = await http.get("/accounts/user_good", headers=headers)
    for code, answer in answers.items():
        assert answer.json()["error"]["code"] == code
        assert answer.json()["error"]["mark"] == MARK, code
    assert job.json()["error"]["mark"] == MARK
