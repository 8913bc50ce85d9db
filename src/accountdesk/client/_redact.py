"""Keep credentials out of log records and error excerpts.

Two layers: patterns that recognise credentials by their shape
(``Authorization:`` headers, bearer tokens, ``"access_token": "..."``,
``api_secret=...``), and a registry of exact secret strings (every client
registers its API secret and each token it receives), so a secret is hidden
even where no pattern would spot it.
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Iterable

REDACTED = "[REDACTED]"

#: Logger of the client library; :class:`RedactingFilter` is attached to it.
LOGGER_NAME = "accountdesk.client"

# Secrets shorter than this are not registered globally: redacting every "ab"
# in every log line would wreck the log without protecting much.
MIN_SECRET_LENGTH = 4

_HEADER = re.compile(
    r"""(?P<head>\b(?:proxy-)?authorization['"]?\s*[:=]\s*['"]?)"""
    r"""(?P<value>(?:(?:bearer|basic|token)\s+)?[^\s'",}]+)""",
    re.IGNORECASE,
)
_BEARER = re.compile(r"(?P<head>\bbearer\s+)(?P<value>[A-Za-z0-9\-._~+/]+=*)", re.IGNORECASE)
_KEY_VALUE = re.compile(
    r"""(?P<head>['"]?\b(?:access_token|refresh_token|api_secret|client_secret|password|"""
    r"""account_number|routing_number)['"]?\s*[:=]\s*)"""
    r"""(?P<value>"(?:[^"\\]|\\.)*"?|'[^']*'?|[^\s,&}\]]+)""",
    re.IGNORECASE,
)
# Runs of 6+ digits look like account or routing numbers; excerpts mask them.
_DIGIT_RUN = re.compile(r"\d{6,}")

_registry_lock = threading.Lock()
_registered: set[str] = set()


def register_secret(value: str | None) -> None:
    """Have every :class:`RedactingFilter` hide ``value`` from now on."""
    if value and len(value) >= MIN_SECRET_LENGTH:
        with _registry_lock:
            _registered.add(value)


def _replace_value(match: re.Match[str]) -> str:
    value = match.group("value")
    quote = value[0] if value[:1] in {'"', "'"} else ""
    closing = quote if quote and len(value) > 1 and value.endswith(quote) else ""
    return f"{match.group('head')}{quote}{REDACTED}{closing}"


def hide_secrets(text: str, secrets: Iterable[str | None] = ()) -> str:
    """``text`` with every registered secret and each of ``secrets`` replaced.

    Exact strings only, no patterns: safe on text that must otherwise stay
    verbatim, such as the message of a service error.
    """
    with _registry_lock:
        known = set(_registered)
    known.update(secret for secret in secrets if secret)
    # Longest first, so a secret that contains another is hidden whole.
    for secret in sorted(known, key=len, reverse=True):
        if secret in text:
            text = text.replace(secret, REDACTED)
    return text


def redact(text: str, secrets: Iterable[str | None] = ()) -> str:
    """``text`` with credentials replaced by ``[REDACTED]``.

    ``secrets`` are exact strings to hide in addition to the registered ones
    and the patterns.
    """
    text = hide_secrets(text, secrets)
    text = _HEADER.sub(_replace_value, text)
    text = _BEARER.sub(_replace_value, text)
    return _KEY_VALUE.sub(_replace_value, text)


def excerpt(body: bytes, secrets: Iterable[str | None] = (), limit: int = 200) -> str:
    """A short, single-line, redacted excerpt of a response body for an error.

    Empty when a secret too short to redact safely (under 4 characters)
    occurs in the body: better no excerpt than a maybe-leaked secret.
    """
    text = body[: limit * 20].decode("utf-8", errors="replace")
    text = " ".join(text.split())
    own = [secret for secret in secrets if secret]
    if any(len(secret) < MIN_SECRET_LENGTH and secret in text for secret in own):
        return ""
    text = _DIGIT_RUN.sub(lambda m: "•" * 4 + m.group()[-2:], redact(text, own))
    if len(body) > limit * 20 and len(text) <= limit:
        # The cut may have halved a secret, which no exact match then finds,
        # and the end of the text is visible: drop the last word.
        text = text.rpartition(" ")[0]
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return text


class RedactingFilter(logging.Filter):
    """A logging filter that hides credentials in a record's message.

    Attached to the ``accountdesk.client`` logger on import; attach it to a
    handler too (``handler.addFilter(RedactingFilter())``) to cover records of
    other loggers written there. ``secrets`` are extra exact strings to hide.
    Never drops a record: it rewrites ``msg``/``args`` and the exception text.
    """

    def __init__(self, name: str = "", secrets: Iterable[str] = ()) -> None:
        super().__init__(name)
        self._secrets = tuple(secret for secret in secrets if secret)

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # noqa: BLE001 (a broken format string is the handler's problem)
            return True
        redacted = redact(message, self._secrets)
        if redacted != message or record.args:
            record.msg = redacted
            record.args = None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text, self._secrets)
        if record.stack_info:
            record.stack_info = redact(record.stack_info, self._secrets)
        return True


def install_logger_filter() -> None:
    """Attach one :class:`RedactingFilter` to the client's logger (idempotent)."""
    logger = logging.getLogger(LOGGER_NAME)
    if not any(isinstance(existing, RedactingFilter) for existing in logger.filters):
        logger.addFilter(RedactingFilter())
