"""Read an httpx response as a record or as the right error.

Anything outside the contract's shape becomes :class:`MalformedResponseError`
with a redacted excerpt; only a well-formed error envelope (``error.code``
matching ``AC-nnn``, ``error.message`` a string) becomes an :class:`ApiError`.
The client never invents a service code.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable
from typing import Any, TypeVar

import httpx
from pydantic import ValidationError

from accountdesk.contract import CODE_PATTERN

from ._backoff import parse_retry_after
from ._redact import MIN_SECRET_LENGTH, excerpt, hide_secrets
from .errors import MalformedResponseError, error_class_for
from .models import ServiceModel

ModelT = TypeVar("ModelT", bound=ServiceModel)


def _malformed(
    response: httpx.Response, problem: str, method: str, path: str, secrets: Iterable[str | None]
) -> MalformedResponseError:
    return MalformedResponseError(
        response.status_code,
        excerpt(response.content, secrets),
        problem=problem,
        method=method,
        path=path,
    )


def _load_json(content: bytes) -> Any:
    """The decoded body; ValueError for anything that is not JSON."""
    try:
        return json.loads(content)
    except RecursionError:  # nested thousands of levels deep: not a record of ours
        raise ValueError("JSON nested too deeply") from None


def service_code(response: httpx.Response) -> str | None:
    """The ``AC-nnn`` code when the body is the service's error envelope, else None."""
    try:
        body = _load_json(response.content)
    except ValueError:
        return None
    error = body.get("error") if isinstance(body, dict) else None
    code = error.get("code") if isinstance(error, dict) else None
    return code if isinstance(code, str) and CODE_PATTERN.match(code) else None


def _content_kind(response: httpx.Response) -> str:
    content_type = response.headers.get("Content-Type", "").split(";")[0].strip()
    return content_type or "no content type"


def raise_for_error(
    response: httpx.Response, method: str, path: str, secrets: Iterable[str | None]
) -> None:
    """Raise the error a non-2xx ``response`` stands for; return on 2xx."""
    if response.is_success:
        return
    if not response.content:
        raise _malformed(response, "empty body instead of an error envelope", method, path, secrets)
    try:
        body = _load_json(response.content)
    except ValueError:
        problem = f"not JSON ({_content_kind(response)}) instead of an error envelope"
        raise _malformed(response, problem, method, path, secrets) from None
    error = body.get("error") if isinstance(body, dict) else None
    if not isinstance(error, dict):
        raise _malformed(response, "JSON without an error object", method, path, secrets)
    code, message = error.get("code"), error.get("message")
    if not isinstance(code, str) or CODE_PATTERN.match(code) is None:
        raise _malformed(response, "error object without an AC-nnn code", method, path, secrets)
    if not isinstance(message, str):
        raise _malformed(response, "error object without a message text", method, path, secrets)
    # A service that echoes the token or secret back must not put it in an
    # exception's str (toasts, logs); catalogue texts hold no secret, so stay verbatim.
    message = hide_secrets(message, (s for s in secrets if s and len(s) >= MIN_SECRET_LENGTH))
    retry_after = parse_retry_after(response.headers.get("Retry-After"), time.time())
    raise error_class_for(code)(
        response.status_code, code, message, method=method, path=path, retry_after=retry_after
    )


def parse_record(
    response: httpx.Response,
    model: type[ModelT],
    method: str,
    path: str,
    secrets: Iterable[str | None],
) -> ModelT:
    """The record of a 2xx ``response``; any non-conforming body is malformed."""
    if not response.content:
        problem = f"empty body instead of a {model.__name__} record"
        raise _malformed(response, problem, method, path, secrets)
    try:
        return model.from_json(response.content)
    except ValidationError as exc:
        # hide_input_in_errors keeps the body's values out of the message.
        first = exc.errors(include_url=False, include_input=False)[0]
        where = ".".join(str(part) for part in first.get("loc", ())) or "body"
        problem = f"not a {model.__name__} record ({where}: {first.get('msg', 'invalid')})"
        raise _malformed(response, problem, method, path, secrets) from None
