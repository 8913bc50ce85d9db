"""Read an answer as a record or as the right error.

Anything outside the contract's shape becomes :class:`MalformedResponseError`
with a redacted excerpt; only a well-formed error envelope (``error.code``
matching ``AC-nnn``, ``error.message`` a string) becomes an :class:`ApiError`.
The client never invents a service code.
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any, Protocol, TypeVar

import httpx
from pydantic import ValidationError

from accountdesk.client._backoff import parse_retry_after
from accountdesk.client._gc import gc_paused
from accountdesk.client._redact import SecretRegistry, excerpt
from accountdesk.client._wire import cut_frames
from accountdesk.client.errors import ApiError, MalformedResponseError, error_class_for
from accountdesk.client.models import ServiceModel
from accountdesk.contract import CODE_PATTERN

ModelT = TypeVar("ModelT", bound=ServiceModel)

#: Bodies larger than this are parsed in a worker thread.
PARSE_IN_THREAD_BYTES = 512 * 1024


class AnswerLike(Protocol):
    """What is read from an answer: an ``Answer`` or an ``httpx.Response`` that was read."""

    @property
    def status_code(self) -> int: ...
    @property
    def headers(self) -> httpx.Headers: ...
    @property
    def content(self) -> bytes: ...
    @property
    def is_success(self) -> bool: ...


def malformed(
    answer: AnswerLike, problem: str, method: str, path: str, registry: SecretRegistry | None
) -> MalformedResponseError:
    """The error for an answer that is not in the contract's shape, with an excerpt."""
    return MalformedResponseError(
        answer.status_code,
        excerpt(answer.content, registry),
        problem=problem,
        method=method,
        path=path,
    )


def load_json(content: bytes) -> Any:
    """The decoded body; ValueError for anything that is not JSON."""
    try:
        return json.loads(content)
    except RecursionError:  # nested thousands of levels deep: not a record of ours
        raise ValueError("JSON nested too deeply") from None


def service_code(answer: AnswerLike) -> str | None:
    """The ``AC-nnn`` code when the body is the service's error envelope, else None."""
    try:
        body = load_json(answer.content)
    except ValueError:
        return None
    error = body.get("error") if isinstance(body, dict) else None
    code = error.get("code") if isinstance(error, dict) else None
    return code if isinstance(code, str) and CODE_PATTERN.match(code) else None


def _content_kind(answer: AnswerLike) -> str:
    content_type = answer.headers.get("Content-Type", "").split(";")[0].strip()
    return content_type or "no content type"


def _envelope(answer: AnswerLike) -> tuple[str, str] | str:
    """(code, message) of an error envelope, or why the body is not one.

    A function of its own so that the decoded body (which may echo a token)
    is gone from the stack when the caller raises.
    """
    if not answer.content:
        return "empty body instead of an error envelope"
    try:
        body = load_json(answer.content)
    except ValueError:
        return f"not JSON ({_content_kind(answer)}) instead of an error envelope"
    return envelope_parts(body)


def envelope_parts(body: Any) -> tuple[str, str] | str:
    """(code, message) of a decoded error envelope, or why ``body`` is not one."""
    error = body.get("error") if isinstance(body, dict) else None
    if not isinstance(error, dict):
        return "JSON without an error object"
    code, message = error.get("code"), error.get("message")
    if not isinstance(code, str) or CODE_PATTERN.match(code) is None:
        return "error object without an AC-nnn code"
    if not isinstance(message, str):
        return "error object without a message text"
    return code, message


def api_error(
    status: int,
    headers: httpx.Headers,
    envelope: tuple[str, str],
    method: str,
    path: str,
    registry: SecretRegistry | None,
) -> ApiError:
    """The :class:`ApiError` of an error envelope's ``(code, message)``."""
    code, message = envelope
    # A service that echoes the token or secret back must not put it in an
    # exception's str (toasts, logs); catalogue texts hold no secret.
    if registry is not None:
        message = registry.hide(message)
    retry_after = parse_retry_after(headers.get("Retry-After"), time.time())
    return error_class_for(code)(
        status, code, message, method=method, path=path, retry_after=retry_after
    )


def raise_for_error(
    answer: AnswerLike, method: str, path: str, registry: SecretRegistry | None
) -> None:
    """Raise the error a non-2xx ``answer`` stands for; return on 2xx."""
    if answer.is_success:
        return
    envelope = _envelope(answer)
    if isinstance(envelope, str):
        raise malformed(answer, envelope, method, path, registry)
    error = api_error(answer.status_code, answer.headers, envelope, method, path, registry)
    del envelope
    raise error


def describe_validation_error(exc: ValidationError, model: type[ServiceModel]) -> str:
    """``not a Balance record (balance.available: amount out of range)``."""
    # hide_input_in_errors and include_input=False keep the body's values out.
    first = exc.errors(include_url=False, include_input=False)[0]
    label = _snake(model.__name__)
    where = ".".join([label, *(str(part) for part in first.get("loc", ()))])
    return f"not a {model.__name__} record ({where}: {first.get('msg', 'invalid')})"


def _snake(name: str) -> str:
    return "".join(f"_{c.lower()}" if c.isupper() else c for c in name).lstrip("_")


def parse_record(
    answer: AnswerLike,
    model: type[ModelT],
    method: str,
    path: str,
    registry: SecretRegistry | None,
) -> ModelT:
    """The record of a 2xx ``answer``; any non-conforming body is malformed."""
    if not answer.content:
        problem = f"empty body instead of a {model.__name__} record"
        raise malformed(answer, problem, method, path, registry)
    try:
        return model.from_json(answer.content)
    except ValidationError as exc:
        problem = describe_validation_error(exc, model)
        raise malformed(answer, problem, method, path, registry) from None
    except BaseException as exc:
        # A bug below this frame: the frames of the parser hold the raw body
        # (the token answer, account numbers) in their locals.
        cut_frames(exc, sys.exc_info()[2])
        raise


def parse_large(
    answer: AnswerLike,
    model: type[ModelT],
    method: str,
    path: str,
    registry: SecretRegistry,
) -> ModelT:
    # A worker thread: the collector would otherwise walk the growing heap
    # of records again and again while they are built.
    with gc_paused():
        return parse_record(answer, model, method, path, registry)
