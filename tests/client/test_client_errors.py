"""Error envelope -> exception class, generated from the contract's catalogue."""

from __future__ import annotations

import httpx
import pytest
from client_fakes import FakeService, envelope, make_client

from accountdesk.client import (
    ERROR_CLASSES,
    AccountDataError,
    ApiError,
    JobConflictError,
    MalformedResponseError,
    TransportError,
    error_class_for,
)
from accountdesk.client import errors as errors_module
from accountdesk.contract import (
    ERRORS,
    UNLISTED_CODES,
    ErrorFamily,
    endpoint_error_pairs,
    endpoints,
)

PAIRS = endpoint_error_pairs()


def test_every_catalogue_code_has_exactly_one_class() -> None:
    classes = [
        obj
        for obj in vars(errors_module).values()
        if isinstance(obj, type) and issubclass(obj, ApiError) and obj is not ApiError
    ]
    codes = [cls.code for cls in classes]
    assert sorted(codes) == sorted(ERRORS)
    assert len(set(codes)) == len(codes)
    assert set(ERROR_CLASSES) == set(ERRORS)
    for code, cls in ERROR_CLASSES.items():
        assert error_class_for(code) is cls and cls.code == code


def test_unknown_codes_map_to_plain_api_error() -> None:
    for code in [*UNLISTED_CODES, "AC-999", "AC-904"]:
        assert error_class_for(code) is ApiError


def test_protocol_and_transport_errors_are_not_api_errors() -> None:
    for cls in (MalformedResponseError, TransportError):
        assert issubclass(cls, AccountDataError) and not issubclass(cls, ApiError)
    assert issubclass(ApiError, AccountDataError)


def _call_for(client, endpoint):
    user, job = "user_x", "job_7"
    calls = {
        "get_account": lambda: client.get_account(user),
        "get_balance": lambda: client.get_balance(user),
        "refresh_balance": lambda: client.refresh_balance(user),
        "submit_mfa": lambda: client.submit_mfa(user, job, "1234"),
        "resolve_mfa": lambda: client.resolve_mfa(user, job),
        "start_identity": lambda: client.start_identity(user),
        "get_identity": lambda: client.get_identity(user),
        "start_transactions": lambda: client.start_transactions(user),
        "get_transactions": lambda: client.get_transactions(user),
        "get_job": lambda: client.get_job(user, job),
        "token": client.sign_in,
    }
    return calls[endpoint.name]


@pytest.mark.anyio
@pytest.mark.parametrize(("endpoint", "spec"), PAIRS, ids=[f"{e.name}-{s.code}" for e, s in PAIRS])
async def test_each_endpoint_error_raises_its_class(endpoint, spec) -> None:
    status = spec.status_for(endpoint)
    message = spec.message_for(endpoint, user_id="user_x", job_id="job_7")
    answer = httpx.Response(status, json=spec.body_for(endpoint, user_id="user_x", job_id="job_7"))
    if endpoint is endpoints.TOKEN:
        service = FakeService(token_handler=lambda request: answer)
    else:
        service = FakeService(lambda request: answer)
    async with make_client(service) as client:
        with pytest.raises(ApiError) as caught:
            await _call_for(client, endpoint)()
    err = caught.value
    assert type(err) is ERROR_CLASSES[spec.code]
    assert (err.status, err.code, err.message) == (status, spec.code, message)
    assert err.family == spec.family
    assert err.method == endpoint.method
    assert err.path == endpoint.path.format(user_id="user_x", job_id="job_7")
    assert str(err) == f"{spec.code} ({status}) {message}"
    assert err.title.startswith(spec.code) and err.detail == message
    # AC-001 is replayed once after a renewal; nothing else is ever retried.
    expected = 2 if spec.code == "AC-001" else 1
    sent = service.requests if endpoint is endpoints.TOKEN else service.api_requests
    assert len(sent) == expected


@pytest.mark.anyio
async def test_unlisted_code_keeps_its_code() -> None:
    code, spec = next(iter(UNLISTED_CODES.items()))
    message = spec.message
    service = FakeService(lambda request: httpx.Response(400, json=envelope(code, message)))
    async with make_client(service) as client:
        with pytest.raises(ApiError) as caught:
            await client.get_account("user_good")
    assert type(caught.value) is ApiError
    assert (caught.value.code, caught.value.status, caught.value.message) == (code, 400, message)
    assert caught.value.family is ErrorFamily.OTHER
    assert str(caught.value) == f"{code} (400) {message}"


def test_str_of_conflict_reads_like_the_service() -> None:
    message = ERRORS["AC-112"].message
    err = JobConflictError(409, "AC-112", message, method="POST", path="/accounts/u/identity")
    assert str(err) == f"AC-112 (409) {message}"
    assert err.request_line == "POST /accounts/u/identity"
    assert err.family is ErrorFamily.CONFLICT
