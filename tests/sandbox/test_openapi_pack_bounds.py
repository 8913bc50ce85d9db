"""The OpenAPI document (and the HTTP reference made from it) allows what a pack allows.

A pack's ``[users.mfa] attempts`` goes up to 1,000, and a job of that user
answers ``attempts_remaining`` 1,000; the document said at most 3 (issue
33, item 17).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import jsonschema
import pytest
from sandbox_helpers import BASE_URL, START, bearer

from accountdesk.sandbox import FrozenClock, create_app, openapi_document
from accountdesk.sandbox.packs.models import MfaSpec


def _schema(document: dict[str, Any], name: str) -> dict[str, Any]:
    # The document's schemas, resolvable from one root.
    return {"$ref": f"#/components/schemas/{name}", "components": document["components"]}


@pytest.mark.anyio
async def test_a_packs_most_attempts_are_a_documented_answer(tmp_path: Path) -> None:
    most = MfaSpec.model_fields["attempts"].metadata[-1].le
    pack = tmp_path / "pack.toml"
    pack.write_text(
        f'[[users]]\nid = "patient"\n[users.mfa]\nanswer = "1234"\nattempts = {most}\n',
        encoding="utf-8",
    )
    app = create_app(clock=FrozenClock(START), scenarios=[pack])
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app), base_url=BASE_URL) as http:
        answer = await http.post("/accounts/patient/refresh", headers=await bearer(http))
    assert answer.status_code == 202
    job = answer.json()
    assert job["mfa"]["attempts_remaining"] == most == 1_000
    document = openapi_document()
    jsonschema.validate(job["mfa"], _schema(document, "MfaChallenge"))
