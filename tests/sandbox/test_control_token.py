"""Control endpoints on a non-loopback interface need the control token.

``serve`` on any host but loopback makes (or takes) a control token and
prints it; control calls that act on the shared world then need it in
``X-Sandbox-Control-Token`` (403 AC-903 otherwise). Reads stay open, and on
loopback nothing changes.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest
import uvicorn
from sandbox_helpers import BASE_URL, START, assert_envelope, bearer

from accountdesk.contract import SANDBOX_CODES
from accountdesk.sandbox import FrozenClock, create_app, is_loopback_host, serve

TOKEN = "trainer-control-token-0123456789"


def _served(monkeypatch: pytest.MonkeyPatch, host: str, **kwargs: Any) -> Any:
    """The app ``serve`` would run on ``host`` (uvicorn.run is captured, not run)."""
    served: list[Any] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: served.append((app, options)))
    serve(host, 0, clock=FrozenClock(START), ids=1, **kwargs)
    ((app, options),) = served
    assert options["host"] == host
    return app


async def _control_answers(app: Any, headers: dict[str, str]) -> dict[str, int]:
    transport = httpx.ASGITransport(app)
    async with httpx.AsyncClient(transport=transport, base_url=BASE_URL) as http:
        return {
            "reset": (await http.post("/_sandbox/reset", headers=headers)).status_code,
            "advance": (
                await http.post("/_sandbox/clock/advance", headers=headers, json={"seconds": 1})
            ).status_code,
            "clock": (await http.get("/_sandbox/clock", headers=headers)).status_code,
            "scenarios": (await http.get("/_sandbox/scenarios", headers=headers)).status_code,
        }


@pytest.mark.anyio
@pytest.mark.parametrize("host", ["0.0.0.0", "192.168.1.20", "::", "sandbox.example"])
async def test_serving_beyond_loopback_locks_the_control_endpoints(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], host: str
) -> None:
    app = _served(monkeypatch, host)
    printed = capsys.readouterr().out
    token = app.state.engine.control_token
    assert token and len(token) >= 32 and token in printed
    assert "X-Sandbox-Control-Token" in printed
    locked = {"reset": 403, "advance": 403, "clock": 200, "scenarios": 200}
    assert await _control_answers(app, {}) == locked
    assert await _control_answers(app, {"X-Sandbox-Control-Token": "wrong" * 8}) == locked
    opened = await _control_answers(app, {"X-Sandbox-Control-Token": token})
    assert set(opened.values()) == {200}


@pytest.mark.anyio
@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "::1", "127.8.9.10"])
async def test_loopback_is_unchanged(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], host: str
) -> None:
    app = _served(monkeypatch, host)
    assert app.state.engine.control_token is None
    assert "control token" not in capsys.readouterr().out.lower()
    assert set((await _control_answers(app, {})).values()) == {200}


@pytest.mark.anyio
async def test_a_given_control_token_is_used_and_not_replaced(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    app = _served(monkeypatch, "0.0.0.0", control_token=TOKEN)
    assert app.state.engine.control_token == TOKEN
    assert set((await _control_answers(app, {"X-Sandbox-Control-Token": TOKEN})).values()) == {200}


@pytest.mark.anyio
async def test_the_refusal_is_the_envelope_with_a_clear_message() -> None:
    app = create_app(clock=FrozenClock(START), control_token=TOKEN)
    transport = httpx.ASGITransport(app)
    async with httpx.AsyncClient(transport=transport, base_url=BASE_URL) as http:
        error = assert_envelope(await http.post("/_sandbox/reset"), 403, "AC-903")
        assert error["message"] == SANDBOX_CODES["AC-903"].message
        assert "X-Sandbox-Control-Token" in error["message"]
        # A sandbox_key token acts on the shared world too: it needs the control token.
        headers = await bearer(http)
        assert_envelope(await http.post("/_sandbox/reset", headers=headers), 403, "AC-903")
        # A bearer token that is not live is refused, not taken for the shared world.
        forged = {"Authorization": "Bearer forged"}
        assert_envelope(await http.get("/_sandbox/clock", headers=forged), 403, "AC-001")


def test_loopback_hosts() -> None:
    for host in ("127.0.0.1", "127.0.0.2", "localhost", "::1", "[::1]"):
        assert is_loopback_host(host), host
    for host in ("0.0.0.0", "::", "10.0.0.1", "example.org", "", "127.0.0.1.example.org"):
        assert not is_loopback_host(host), host


def test_a_short_control_token_is_refused() -> None:
    with pytest.raises(ValueError):
        create_app(control_token="short")


def test_serve_passes_the_sandbox_options_on(monkeypatch: pytest.MonkeyPatch) -> None:
    app = _served(monkeypatch, "127.0.0.1", tenants=True, max_tenants=7, bulk_transactions=10)
    engine = app.state.engine
    assert engine.tenants is not None and engine.tenants.max_tenants == 7
    assert engine.scenarios["user_bulk"].transaction_count == 10
