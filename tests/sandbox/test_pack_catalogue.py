"""``GET /_sandbox/scenarios`` names a pack's own credentials but never shows their secrets.

The shipped demo keys (``sandbox_key``, ``limited_key``) are public by
design (the manual prints them); a trainer's pack keys need not be, and the
catalogue is served to anyone, without the control token (issue 33, item 3).
"""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from sandbox_helpers import BASE_URL, START

from accountdesk.client import AccountDataClient
from accountdesk.sandbox import FrozenClock, create_app, load_scenarios

PACK = """
[[credentials]]
api_key = "drill_key"
api_secret = "the-trainers-own-secret"

[[credentials]]
api_key = "drill_one"
api_secret = "another-secret"
users = ["drill_customer"]

[[users]]
id = "drill_customer"
"""


@pytest.fixture
def pack(tmp_path: Path) -> Path:
    path = tmp_path / "drill.toml"
    path.write_text(PACK, encoding="utf-8")
    return path


@pytest.mark.anyio
@pytest.mark.parametrize("only", [False, True], ids=["beside the shipped users", "alone"])
async def test_a_packs_credentials_are_named_not_shown(pack: Path, only: bool) -> None:
    scenarios = load_scenarios([pack], shipped_users=not only)
    app = create_app(clock=FrozenClock(START), scenarios=scenarios)
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app), base_url=BASE_URL) as http:
        answer = await http.get("/_sandbox/scenarios")  # anyone: no token, no control token
        token = await http.post(
            "/token", json={"api_key": "drill_key", "api_secret": "the-trainers-own-secret"}
        )
    assert answer.status_code == 200 and token.status_code == 200  # the key still signs in
    assert "the-trainers-own-secret" not in answer.text and "another-secret" not in answer.text
    shipped = [{"api_key": "sandbox_key", "api_secret": "sandbox_secret", "access": "every user"}]
    if not only:
        shipped.append(
            {"api_key": "limited_key", "api_secret": "limited_secret", "access": "user_good only"}
        )
    assert answer.json()["credentials"] == [
        *shipped,
        {"api_key": "drill_key", "access": "every user"},
        {"api_key": "drill_one", "access": "drill_customer only"},
    ]


@pytest.mark.anyio
async def test_the_client_still_reads_the_catalogue(pack: Path) -> None:
    # The app tells a sandbox from a live service by this answer: a pack's
    # credential without its secret must not make it "not a sandbox".
    app = create_app(clock=FrozenClock(START), scenarios=[pack])
    client = AccountDataClient(
        BASE_URL, "sandbox_key", "sandbox_secret", transport=httpx.ASGITransport(app)
    )
    async with client:
        catalogue = await client.sandbox.scenarios(anonymous=True)
    assert catalogue is not None and catalogue.users[-1].user_id == "drill_customer"
    secrets = {c.api_key: c.api_secret for c in catalogue.credentials}
    assert secrets["drill_key"] is None and secrets["drill_one"] is None
    assert secrets["sandbox_key"] is not None
    assert secrets["sandbox_key"].get_secret_value() == "sandbox_secret"
