"""What ``accountdesk record`` writes, ``scenarios check`` accepts and its header's command serves.

Round trip from the command line, in process: record shipped users from the
embedded sandbox (one unredacted, so its id is a shipped user's), check each
file, serve them all beside the shipped users as the header says, and read
the answers back through the served app.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
import pytest

from accountdesk import cli
from accountdesk.sandbox import create_app

READS = ("", "/balance", "/identity", "/transactions")


async def _reads(app: Any, user_id: str) -> dict[str, tuple[int, Any]]:
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app), base_url="http://sandbox"
    ) as http:
        grant = await http.post(
            "/token", json={"api_key": "sandbox_key", "api_secret": "sandbox_secret"}
        )
        headers = {"Authorization": f"Bearer {grant.json()['access_token']}"}
        answers = {}
        for read in READS:
            answer = await http.get(f"/accounts/{user_id}{read}", headers=headers)
            body = answer.json()
            body.pop("as_of", None)  # the recorded moment, or now: the clocks are the system's
            answers[read] = (answer.status_code, body)
        return answers


def _codes(answers: dict[str, tuple[int, Any]]) -> dict[str, tuple[int, str | None]]:
    return {
        read: (status, body.get("error", {}).get("code"))
        for read, (status, body) in answers.items()
    }


def test_what_record_writes_is_checked_and_served_beside_the_shipped_users_and_other_cases(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import accountdesk.sandbox

    served: list[Any] = []
    monkeypatch.setattr(accountdesk.sandbox, "serve", lambda *a, **k: served.append(k["app"]))
    record = ["--config", str(tmp_path / "c.toml"), "record"]
    good, paused, manual = (tmp_path / f"{name}.toml" for name in ("good", "paused", "manual"))
    assert cli.main([*record, "user_good", "-o", str(good), "--no-redact"]) == 0
    said = capsys.readouterr().out
    assert "  accountdesk sandbox --scenarios THIS_FILE" in good.read_text(encoding="utf-8")
    assert said.rstrip().endswith(
        f"Serve it: accountdesk sandbox --scenarios {good} (user_good replaces the shipped user)"
    )
    assert cli.main(["scenarios", "check", str(good)]) == 0
    checked = capsys.readouterr().out
    assert f"{good}: 1 user" in checked and "replaces the shipped user_good" in checked
    # Two redacted cases in one folder: each its own case_<n>.
    assert cli.main([*record, "user_fi_paused", "-o", str(paused)]) == 0
    assert cli.main([*record, "user_manual", "-o", str(manual)]) == 0
    said = capsys.readouterr().out
    assert "Recorded user_fi_paused as case_1" in said and "Recorded user_manual as case_2" in said
    assert cli.main(["scenarios", "check", str(good), str(paused), str(manual)]) == 0
    assert capsys.readouterr().out.rstrip().endswith("OK: 3 packs, 3 users")

    for packs in ([good], [good, paused, manual]):
        argv = ["sandbox"]
        for pack in packs:
            argv += ["--scenarios", str(pack)]
        assert cli.main(argv) == 0
        banner = capsys.readouterr().out
        assert f"scenario pack {good}: user_good (replaces the shipped user)" in banner
    app = served[-1]
    users = app.state.engine.scenarios
    assert users["user_good"].source == str(good) and "user_mfa" in users
    shipped = create_app()
    assert asyncio.run(_reads(app, "user_good")) == asyncio.run(_reads(shipped, "user_good"))
    for case, original in (("case_1", "user_fi_paused"), ("case_2", "user_manual")):
        assert _codes(asyncio.run(_reads(app, case))) == _codes(
            asyncio.run(_reads(shipped, original))
        ), case
