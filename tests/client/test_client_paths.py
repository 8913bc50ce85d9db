"""Path parameters: one percent-encoded segment each; dot segments and blanks refused."""

from __future__ import annotations

import httpx
import pytest
from client_fakes import FakeService, job_body, make_client

from accountdesk.client import AccountDataError, InvalidIdentifierError

HOSTILE_IDS = {
    "../x": "..%2Fx",
    "a/b": "a%2Fb",
    "a?b": "a%3Fb",
    "%2F": "%252F",
    "a#b": "a%23b",
    "..%2F..": "..%252F..",
    "...": "...",
    "a b": "a%20b",
    "ü": "%C3%BC",
    "job\n1": "job%0A1",
    "a\r\nHost: evil": "a%0D%0AHost%3A%20evil",
    "a\x00b": "a%00b",
    "a;b=c": "a%3Bb%3Dc",
    "%252F": "%25252F",
    "𝓊ser": "%F0%9D%93%8Aser",
    "a" * 65: "a" * 65,
}


def _recording_service() -> FakeService:
    return FakeService(lambda request: httpx.Response(200, json=job_body()))


@pytest.mark.anyio
@pytest.mark.parametrize("raw", sorted(HOSTILE_IDS))
async def test_user_id_is_one_segment(raw: str) -> None:
    service = _recording_service()
    async with make_client(service) as client:
        await client.get_job(raw, raw)
    (request,) = service.api_requests
    encoded = HOSTILE_IDS[raw]
    assert request.url.raw_path == f"/accounts/{encoded}/job/{encoded}".encode()
    assert request.url.query == b""


@pytest.mark.anyio
async def test_segments_survive_a_base_url_with_a_path_prefix() -> None:
    service = _recording_service()
    client = make_client(service)
    async with type(client)(
        "http://service.test/api/v1/", "k", "s", transport=service.transport()
    ) as prefixed:
        await prefixed.resolve_mfa("../../token", "a/b")
    await client.aclose()
    (request,) = service.api_requests
    assert request.url.raw_path == b"/api/v1/accounts/..%2F..%2Ftoken/mfa/a%2Fb/resolve"
    assert service.requests[0].url.raw_path == b"/api/v1/token"


@pytest.mark.anyio
@pytest.mark.parametrize("bad", ["", " ", "\t\n", ".", ".."])
async def test_blank_and_dot_ids_are_refused_before_sending(bad: str) -> None:
    service = _recording_service()
    async with make_client(service) as client:
        with pytest.raises(InvalidIdentifierError) as caught:
            await client.get_account(bad)
        with pytest.raises(InvalidIdentifierError) as job_caught:
            await client.get_job("user_good", bad)
        with pytest.raises(InvalidIdentifierError):
            async for _ in client.watch_job("user_good", bad):
                pass
    assert service.requests == []  # not even a token request
    err = caught.value
    assert isinstance(err, ValueError) and isinstance(err, AccountDataError)
    assert err.parameter == "user_id" and "user_id" in str(err)
    assert job_caught.value.parameter == "job_id"
    assert err.code is None and err.title


@pytest.mark.anyio
async def test_non_string_id_is_refused() -> None:
    async with make_client(_recording_service()) as client:
        with pytest.raises(InvalidIdentifierError, match="string"):
            await client.get_balance(None)  # type: ignore[arg-type]


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("bad", "why"),
    [("\ud800", "surrogate"), ("a" * 2049, "too long"), ("é" * 400, "too long")],
    ids=["lone-surrogate", "2049-chars", "400-two-byte-chars"],
)
async def test_ids_that_cannot_be_sent_are_refused_before_sending(bad: str, why: str) -> None:
    service = _recording_service()
    async with make_client(service) as client:
        with pytest.raises(InvalidIdentifierError, match=why):
            await client.get_job("user_good", bad)
        await client.get_job("user_good", "a" * 2048)  # the longest id that is sent
    assert len(service.api_requests) == 1


@pytest.mark.anyio
async def test_mfa_answer_with_a_lone_surrogate_is_sent_as_a_json_escape() -> None:
    service = _recording_service()
    async with make_client(service) as client:
        await client.submit_mfa("user_good", "job_1", "12\ud80034")
    (request,) = service.api_requests
    assert request.content == b'{"answer": "12\\ud80034"}'
    assert request.headers["Content-Type"] == "application/json"


@pytest.mark.anyio
async def test_a_refused_id_is_refused_every_time_and_a_good_one_sent_every_time() -> None:
    # Checked ids are remembered (the same job is polled every second): a
    # remembered answer must be the same answer.
    service = _recording_service()
    async with make_client(service) as client:
        for _ in range(3):
            with pytest.raises(InvalidIdentifierError, match="job_id"):
                await client.get_job("user_good", "..")
            with pytest.raises(InvalidIdentifierError, match="user_id"):
                await client.get_job("..", "job_1")
            await client.get_job("user_good", "a/b")
    assert [r.url.raw_path for r in service.api_requests] == [b"/accounts/user_good/job/a%2Fb"] * 3


def test_ids_checked_over_a_long_session_keep_little_memory() -> None:
    # A session polls new jobs all day (the soak: ~60 a minute), and a
    # service may send ids up to the longest we accept: the ids checked and
    # encoded once are kept so a job polled every second is not encoded each
    # time, but not every id ever seen (issue 33, "Memory over a working
    # day": 1,024 were kept, which the soak's new jobs took 17 minutes to fill).
    import gc
    import tracemalloc

    from accountdesk.client._identifiers import MAX_SEGMENT_LENGTH, _check_cached, checked_segment

    def session(length: int, padding: str) -> int:
        _check_cached.cache_clear()  # what earlier tests kept is not this session's
        gc.collect()
        tracemalloc.start()
        try:
            for n in range(3000):
                assert checked_segment("job_id", f"{n:06d}".ljust(length, padding))[1] is None
            gc.collect()
            return tracemalloc.get_traced_memory()[0]
        finally:
            tracemalloc.stop()

    # 1,024 kept: 420 KB of uuid-long ids, 2.6 MB of the longest; now 105 KB and 6 KB.
    assert session(36, "-") < 150_000  # uuid-long ids
    longest = MAX_SEGMENT_LENGTH // 6  # "é" is 6 characters once encoded
    assert session(longest, "é") < 150_000
