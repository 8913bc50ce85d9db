"""Request bodies are capped at 64 KiB while they are read: 413 AC-913, never 356 MB.

Bodies are streamed in 1 KiB chunks and the chunks the sandbox pulled are
counted: it must stop soon after the limit, not read the body to its end.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest
from sandbox_helpers import assert_envelope, bearer

from accountdesk.contract import SANDBOX_CODES
from accountdesk.sandbox.wire.middleware import MAX_BODY_BYTES

pytestmark = pytest.mark.anyio
CHUNK = 1024


class Body:
    """A ``size``-byte JSON-ish body in 1 KiB chunks, counting the chunks pulled."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.pulled = 0

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for _ in range(self.size // CHUNK):
            self.pulled += 1
            yield b" " * CHUNK


@pytest.mark.parametrize("path", ["/token", "/_sandbox/clock/advance", "/accounts/user_mfa/mfa/j"])
async def test_an_endless_body_is_cut_off_at_the_limit(http: httpx.AsyncClient, path: str) -> None:
    headers = await bearer(http)
    body = Body(10 * 1024 * 1024)  # no Content-Length: sent chunked
    answer = await http.post(path, content=body, headers=headers)
    error = assert_envelope(answer, 413, "AC-913")
    assert error["message"] == SANDBOX_CODES["AC-913"].message
    assert answer.headers["connection"] == "close"
    assert body.pulled <= MAX_BODY_BYTES // CHUNK + 2


async def test_a_declared_length_over_the_limit_is_refused_before_reading(
    http: httpx.AsyncClient,
) -> None:
    body = Body(MAX_BODY_BYTES + CHUNK)
    answer = await http.post("/token", content=body, headers={"Content-Length": str(body.size)})
    assert_envelope(answer, 413, "AC-913")
    assert body.pulled == 0


async def test_a_body_at_the_limit_is_read(http: httpx.AsyncClient) -> None:
    padding = " " * (MAX_BODY_BYTES - 64)
    content = f'{{"api_key": "sandbox_key", "api_secret": "sandbox_secret"}}{padding}'
    assert len(content) <= MAX_BODY_BYTES
    assert (await http.post("/token", content=content)).status_code == 200
