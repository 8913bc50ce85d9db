"""Record and replay over real sockets: every shipped user but user_bulk, recorded and served again.

A sandbox is served over HTTP; ``accountdesk record USER --no-redact
--with-jobs`` records each shipped user from it into one pack (the command
line as a person types it, in process); a second sandbox serves that pack
alone (``--scenarios-only``). Both answer the same status and body on every
read endpoint, and the same status and error on every job start (the first
sandbox reset after recording, so its jobs are gone as the second's are).
"""

from __future__ import annotations

import stat
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from accountdesk.cli import main
from accountdesk.sandbox import SCENARIO_USERS, create_app, load_scenarios
from loopback_server import serve_app

pytestmark = pytest.mark.loopback

USERS = [user_id for user_id in SCENARIO_USERS if user_id != "user_bulk"]
READS = ("", "/balance", "/identity", "/transactions")
STARTS = ("refresh", "identity", "transactions")


@pytest.fixture(scope="module")
def original() -> Iterator[str]:
    with serve_app(create_app()) as url:
        yield url


def _headers(http: httpx.Client) -> dict[str, str]:
    grant = http.post("/token", json={"api_key": "sandbox_key", "api_secret": "sandbox_secret"})
    return {"Authorization": f"Bearer {grant.json()['access_token']}"}


def _answers(url: str) -> dict[str, object]:
    answers: dict[str, object] = {}
    with httpx.Client(base_url=url, timeout=10) as http:
        headers = _headers(http)
        for user_id in USERS:
            for read in READS:
                answer = http.get(f"/accounts/{user_id}{read}", headers=headers)
                answers[f"GET {user_id}{read}"] = (answer.status_code, answer.json())
            for start in STARTS:
                answer = http.post(f"/accounts/{user_id}/{start}", headers=headers)
                body = answer.json()
                error = body.get("error") if "job_id" in body else body["error"]
                answers[f"POST {user_id}/{start}"] = (answer.status_code, error, body.get("status"))
    return answers


def test_recorded_users_answer_as_the_originals(
    original: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ACCOUNTDESK_API_KEY", "sandbox_key")
    monkeypatch.setenv("ACCOUNTDESK_API_SECRET", "sandbox_secret")
    pack = tmp_path / "recorded.toml"
    config = tmp_path / "config.toml"
    for user_id in USERS:
        argv = ["--config", str(config), "--base-url", original, "record", user_id, "-o", str(pack)]
        argv += ["--no-redact", "--with-jobs", "--job-wait", "0", "--append"]
        assert main(argv) == 0, user_id
    assert stat.S_IMODE(pack.stat().st_mode) == 0o600
    text = pack.read_text(encoding="utf-8")
    assert "sandbox_secret" not in text and "Bearer" not in text and "127.0.0.1" in text
    scenarios = load_scenarios([pack], shipped_users=False)
    assert list(scenarios.users) == USERS
    httpx.post(f"{original}/_sandbox/reset", timeout=10)  # the jobs recording started, gone
    with serve_app(create_app(scenarios=scenarios)) as replay:
        recorded, replayed = _answers(original), _answers(replay)
    assert replayed == recorded
    # What the comparison covers: data, catalogue errors and MFA, as the nine users give them.
    assert recorded["GET user_manual/balance"][0] == 405
    assert recorded["POST user_fi_down/identity"][0:2] == (
        400,
        recorded["GET user_fi_down"][1]["error"],
    )
    assert recorded["POST user_mfa/refresh"][2] == "mfa_required"
    assert len(recorded["GET user_good/transactions"][1]["transactions"]) == 60
