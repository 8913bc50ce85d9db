"""The trainer's view of a training room: list trainees, reset one or all, move one's clock.

Every one of these needs the control token (``X-Sandbox-Control-Token``)
when the sandbox has one, and a served training room always has one, on
loopback too: trainees on one training PC reach 127.0.0.1 as well as the
trainer does.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from datetime import timedelta
from typing import Any

import httpx
import pytest
import uvicorn
from sandbox_helpers import BASE_URL, START, assert_envelope

from accountdesk.contract import SANDBOX_CODES
from accountdesk.sandbox import FrozenClock, create_app, served_app, welcome_lines

pytestmark = pytest.mark.anyio

TOKEN = "trainer-control-token-0123456789"
CONTROL = {"X-Sandbox-Control-Token": TOKEN}


def iso(seconds: float) -> str:
    return (START + timedelta(seconds=seconds)).isoformat(timespec="milliseconds")


@pytest.fixture
def clock() -> FrozenClock:
    return FrozenClock(START)


@pytest.fixture
def room(clock: FrozenClock) -> Any:
    # Jobs last ten minutes: the list shows them open.
    return create_app(clock=clock, ids=1, tenants=True, control_token=TOKEN, job_seconds=600)


@pytest.fixture
async def http(room: Any) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(transport=httpx.ASGITransport(room), base_url=BASE_URL) as client:
        yield client


async def sign_in(http: httpx.AsyncClient, api_key: str) -> dict[str, str]:
    grant = await http.post("/token", json={"api_key": api_key, "api_secret": "sandbox_secret"})
    assert grant.status_code == 200, grant.text
    return {"Authorization": f"Bearer {grant.json()['access_token']}"}


async def lock_out(http: httpx.AsyncClient, headers: dict[str, str]) -> None:
    """Three wrong MFA answers: user_mfa is blocked (AC-108) in this trainee's world."""
    job_id = (await http.post("/accounts/user_mfa/refresh", headers=headers)).json()["job_id"]
    for _ in range(3):
        base = f"/accounts/user_mfa/mfa/{job_id}"
        await http.post(base, headers=headers, json={"answer": "0000"})
        await http.post(f"{base}/resolve", headers=headers)


async def blocked(http: httpx.AsyncClient, headers: dict[str, str]) -> bool:
    answer = await http.post("/accounts/user_mfa/refresh", headers=headers)
    return answer.status_code == 429


async def test_every_room_call_needs_the_control_token(http: httpx.AsyncClient) -> None:
    alice = await sign_in(http, "trainee_alice")
    calls = [
        ("GET", "/_sandbox/trainees", None),
        ("POST", "/_sandbox/reset", None),
        ("POST", "/_sandbox/reset?trainee=alice", None),
        ("POST", "/_sandbox/clock/advance?trainee=alice", {"seconds": 60}),
    ]
    for method, path, body in calls:
        for headers in ({}, {"X-Sandbox-Control-Token": "wrong" * 8}):
            answer = await http.request(method, path, headers=headers, json=body)
            assert_envelope(answer, 403, "AC-903")
        if "?" in path or method == "GET":  # a trainee's token is not the trainer's
            answer = await http.request(method, path, headers=alice, json=body)
            assert_envelope(answer, 403, "AC-903")
    # A trainee still resets and moves their own world with their own token.
    assert (await http.post("/_sandbox/reset", headers=alice)).status_code == 200
    moved = await http.post("/_sandbox/clock/advance", headers=alice, json={"seconds": 5})
    assert moved.json() == {"now": iso(5)}


async def test_the_list_shows_each_trainee_seen(
    http: httpx.AsyncClient, clock: FrozenClock
) -> None:
    empty = await http.get("/_sandbox/trainees", headers=CONTROL)
    assert empty.status_code == 200
    assert empty.json() == {"tenants": True, "max_trainees": 100, "now": iso(0), "trainees": []}

    alice = await sign_in(http, "trainee_alice")
    clock.advance(30)
    bob = await sign_in(http, "trainee_bob")
    await http.post("/accounts/user_good/identity", headers=alice)
    await lock_out(http, bob)
    await http.post("/_sandbox/clock/advance", headers=bob, json={"seconds": 120})
    clock.advance(10)
    await http.get("/accounts/user_good", headers=alice)

    answer = await http.get("/_sandbox/trainees", headers=CONTROL)
    assert answer.status_code == 200, answer.text
    room = answer.json()
    assert room["now"] == iso(40)
    by_name = {trainee["name"]: trainee for trainee in room["trainees"]}
    assert [trainee["name"] for trainee in room["trainees"]] == ["alice", "bob"]
    assert by_name["alice"] == {
        "name": "alice",
        "api_key": "trainee_alice",
        "first_request": iso(0),
        "last_request": iso(40),
        "clock": iso(40),
        "clock_ahead_seconds": 0,
        "jobs": 1,
        "open_jobs": 1,
        "waiting_for_mfa": 0,
        "blocks": [],
    }
    bob_row = by_name["bob"]
    assert bob_row["first_request"] == iso(30)
    assert bob_row["last_request"] == iso(30)  # the clock move was his last call
    assert bob_row["clock"] == iso(160) and bob_row["clock_ahead_seconds"] == 120
    # The refresh that waited for MFA failed with the block: nothing open.
    assert (bob_row["jobs"], bob_row["open_jobs"], bob_row["waiting_for_mfa"]) == (1, 0, 0)
    assert bob_row["blocks"] == [{"user_id": "user_mfa", "until": iso(30 + 900)}]


async def test_waiting_for_mfa_is_counted(http: httpx.AsyncClient) -> None:
    carol = await sign_in(http, "trainee_carol")
    await http.post("/accounts/user_mfa/identity", headers=carol)
    [row] = (await http.get("/_sandbox/trainees", headers=CONTROL)).json()["trainees"]
    assert (row["jobs"], row["open_jobs"], row["waiting_for_mfa"]) == (1, 1, 1)


async def test_reset_all_clears_the_shared_world_and_every_trainee(
    http: httpx.AsyncClient,
) -> None:
    alice, bob = await sign_in(http, "trainee_alice"), await sign_in(http, "trainee_bob")
    shared = await sign_in(http, "sandbox_key")
    for headers in (alice, bob, shared):
        await lock_out(http, headers)
        await http.post(
            "/_sandbox/clock/advance", headers={**headers, **CONTROL}, json={"seconds": 60}
        )
    answer = await http.post("/_sandbox/reset", headers=CONTROL)
    assert answer.status_code == 200 and answer.json() == {"reset": True}
    for headers in (alice, bob, shared):
        assert not await blocked(http, headers)
        assert (await http.get("/_sandbox/clock", headers=headers)).json() == {"now": iso(0)}
    # Trainees stay in the list (they are still in the room), their worlds fresh.
    rows = (await http.get("/_sandbox/trainees", headers=CONTROL)).json()["trainees"]
    assert [(row["name"], row["jobs"] - row["open_jobs"], row["blocks"]) for row in rows] == [
        ("alice", 0, []),
        ("bob", 0, []),
    ]


async def test_reset_one_trainee(http: httpx.AsyncClient) -> None:
    alice, bob = await sign_in(http, "trainee_alice"), await sign_in(http, "trainee_bob")
    await lock_out(http, alice)
    await lock_out(http, bob)
    await http.post("/_sandbox/clock/advance", headers=alice, json={"seconds": 60})
    await http.post("/_sandbox/clock/advance", headers=bob, json={"seconds": 60})
    answer = await http.post("/_sandbox/reset", params={"trainee": "alice"}, headers=CONTROL)
    assert answer.status_code == 200 and answer.json() == {"reset": True}
    assert not await blocked(http, alice)
    assert await blocked(http, bob)
    assert (await http.get("/_sandbox/clock", headers=alice)).json() == {"now": iso(0)}
    assert (await http.get("/_sandbox/clock", headers=bob)).json() == {"now": iso(60)}
    # The key works as well as the name; alice's token still works after her reset.
    again = await http.post("/_sandbox/reset?trainee=trainee_bob", headers=CONTROL)
    assert again.status_code == 200 and not await blocked(http, bob)
    assert (await http.get("/accounts/user_good", headers=alice)).status_code == 200


@pytest.mark.parametrize("name", ["nobody", "../x", "", "trainee_", "ALICE", "a" * 300])
async def test_an_unknown_trainee_is_a_clear_404(http: httpx.AsyncClient, name: str) -> None:
    await sign_in(http, "trainee_alice")
    for method, path, body in (
        ("POST", "/_sandbox/reset", None),
        ("POST", "/_sandbox/clock/advance", {"seconds": 60}),
    ):
        answer = await http.request(
            method, path, params={"trainee": name}, headers=CONTROL, json=body
        )
        error = assert_envelope(answer, 404, "AC-924")
        assert error["message"] == SANDBOX_CODES["AC-924"].message
    assert SANDBOX_CODES["AC-924"].status == 404
    assert "trainee" in SANDBOX_CODES["AC-924"].message.lower()


async def test_move_one_trainees_clock(http: httpx.AsyncClient) -> None:
    alice, bob = await sign_in(http, "trainee_alice"), await sign_in(http, "trainee_bob")
    moved = await http.post(
        "/_sandbox/clock/advance?trainee=bob", headers=CONTROL, json={"seconds": 900}
    )
    assert moved.status_code == 200 and moved.json() == {"now": iso(900)}
    assert (await http.get("/_sandbox/clock", headers=bob)).json() == {"now": iso(900)}
    assert (await http.get("/_sandbox/clock", headers=alice)).json() == {"now": iso(0)}
    assert (await http.get("/_sandbox/clock")).json() == {"now": iso(0)}  # the shared world
    bad = await http.post(
        "/_sandbox/clock/advance?trainee=bob", headers=CONTROL, json={"seconds": -5}
    )
    assert_envelope(bad, 400, "AC-100")


async def test_without_tenants_the_room_is_empty(clock: FrozenClock) -> None:
    app = create_app(clock=clock, control_token=TOKEN)
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app), base_url=BASE_URL) as http:
        answer = await http.get("/_sandbox/trainees", headers=CONTROL)
        assert answer.json() == {"tenants": False, "max_trainees": 0, "now": iso(0), "trainees": []}
        assert_envelope(
            await http.post("/_sandbox/reset?trainee=alice", headers=CONTROL), 404, "AC-924"
        )


async def test_a_room_without_a_control_token_is_open_as_before(clock: FrozenClock) -> None:
    """create_app without a token (tests, embedded use): control calls stay open, as today."""
    app = create_app(clock=clock, tenants=True)
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app), base_url=BASE_URL) as http:
        await sign_in(http, "trainee_dan")
        assert (await http.get("/_sandbox/trainees")).status_code == 200
        assert (await http.post("/_sandbox/reset?trainee=dan")).status_code == 200


def test_a_served_room_always_has_a_control_token() -> None:
    app, token = served_app("127.0.0.1", tenants=True)
    assert token is not None and len(token) >= 32
    assert app.state.engine.control_token == token
    plain, none = served_app("127.0.0.1")
    assert none is None and plain.state.engine.control_token is None


def test_the_banner_says_how_to_run_the_room(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = welcome_lines("0.0.0.0", 8765, tenants=True)
    text = "\n".join(lines) + "\n"
    # Double quotes: the shell fills in $TOKEN.
    header = '-H "X-Sandbox-Control-Token: $TOKEN"'
    url = "http://<this machine>:8765"
    assert f"curl {header} {url}/_sandbox/trainees\n" in text
    assert f"curl -X POST {header} '{url}/_sandbox/reset?trainee=NAME'\n" in text
    assert f"curl -X POST {header} {url}/_sandbox/reset\n" in text
    assert "--control-token" in text  # the room in the app (F4)
    assert not any("_sandbox/trainees" in line for line in welcome_lines("0.0.0.0", 8765))

    from accountdesk.sandbox import serve

    monkeypatch.setattr(uvicorn, "run", lambda app, **options: None)
    serve("127.0.0.1", 0, tenants=True, clock=FrozenClock(START))
    printed = capsys.readouterr().out
    assert "_sandbox/trainees" in printed and "X-Sandbox-Control-Token" in printed


def test_sandbox_help_says_how_to_list_reset_one_and_reset_all(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from accountdesk.cli import main

    with pytest.raises(SystemExit):
        main(["sandbox", "--help"])
    help_text = capsys.readouterr().out
    epilog = help_text[help_text.index("training room (--tenants)") :].splitlines()
    assert len(epilog) == 4 and all(len(line) <= 80 for line in epilog)
    assert "X-Sandbox-Control-Token" in epilog[0]
    assert re.match(r"\s+GET\s+/_sandbox/trainees\s+list", epilog[1])
    assert re.match(r"\s+POST\s+/_sandbox/reset\?trainee=NAME\s+reset one", epilog[2])
    assert re.match(r"\s+POST\s+/_sandbox/reset\s+reset every", epilog[3])


async def test_on_the_real_clock_a_trainee_in_step_is_zero_ahead() -> None:
    """Two reads of a running clock differ by microseconds: never a negative "ahead"."""
    app = create_app(tenants=True, control_token=TOKEN)  # the system clock, running
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app), base_url=BASE_URL) as http:
        alice = await sign_in(http, "trainee_alice")
        await sign_in(http, "trainee_bob")
        await http.post("/_sandbox/clock/advance", headers=alice, json={"seconds": 90})
        for _ in range(20):
            rows = (await http.get("/_sandbox/trainees", headers=CONTROL)).json()["trainees"]
            assert [row["clock_ahead_seconds"] for row in rows] == [90, 0]
