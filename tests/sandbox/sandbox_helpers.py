"""Shared constants and assertions of the sandbox tests."""

from __future__ import annotations

from datetime import UTC, datetime

import httpx

START = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
BASE_URL = "http://sandbox"
GOOD = ("sandbox_key", "sandbox_secret")
LIMITED = ("limited_key", "limited_secret")


async def bearer(http: httpx.AsyncClient, credentials: tuple[str, str] = GOOD) -> dict[str, str]:
    """Authorization headers with a fresh token."""
    answer = await http.post(
        "/token", json={"api_key": credentials[0], "api_secret": credentials[1]}
    )
    assert answer.status_code == 200, answer.text
    return {"Authorization": f"Bearer {answer.json()['access_token']}"}


def assert_envelope(answer: httpx.Response, status: int, code: str) -> dict[str, str]:
    """The answer is the contract's error envelope with this status and code."""
    assert answer.status_code == status, answer.text
    assert answer.headers["content-type"].startswith("application/json")
    body = answer.json()
    assert set(body) == {"error"}, body
    assert set(body["error"]) == {"code", "message"}, body
    assert body["error"]["code"] == code, body
    assert isinstance(body["error"]["message"], str) and body["error"]["message"]
    return body["error"]
