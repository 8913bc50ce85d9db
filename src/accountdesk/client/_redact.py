"""Keep credentials and account numbers out of log records and error excerpts.

Two layers: patterns that recognise credentials by their shape
(``Authorization:`` headers, bearer tokens, ``"access_token": "..."``,
``api_secret=...``), and exact strings. Each client owns a
:class:`SecretRegistry` with its API secret and its current and previous
token (older tokens drop out), so a secret is hidden even where no pattern
would spot it. :class:`RedactingFilter` consults the registries it is given,
by default those of every live client.

Exact strings shorter than :data:`MIN_SECRET_LENGTH` are never replaced
(hiding every "ab" would wreck every message); a body excerpt that contains
one is not shown at all.
"""

from __future__ import annotations

import logging
import re
import threading
import weakref
from collections import deque
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    # At run time pydantic loads with the first secret, not with the log's
    # filter: the sign-in screen's first frame is drawn without it (issue 16).
    from pydantic import SecretStr


__all__ = [
    "LOGGER_NAME",
    "MIN_SECRET_LENGTH",
    "REDACTED",
    "RedactingFilter",
    "SecretRegistry",
    "excerpt",
    "install_logger_filter",
    "live_registries",
    "mask_digit_runs",
    "redact",
    "register_secret",
]

REDACTED = "[REDACTED]"

#: Logger of the client library; a :class:`RedactingFilter` is attached to it.
LOGGER_NAME = "accountdesk.client"

#: Exact-string redaction applies to secrets at least this long.
MIN_SECRET_LENGTH = 8

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
# Runs of 6+ digits look like account or routing numbers. A word of 12+
# lowercase hex characters with a letter among them is an id (the sandbox's job
# ids, request ids): the digits inside it are not a number, and an id with a
# hole in it cannot be quoted to the service. Matched first, it is left whole.
_DIGIT_RUN = re.compile(
    r"(?P<hex_id>(?<![A-Za-z0-9])(?=[0-9a-f]*[a-f])[0-9a-f]{12,}(?![A-Za-z0-9]))|\d{6,}"
)


def _mask(match: re.Match[str]) -> str:
    found = match.group()
    return found if match.group("hex_id") else "•" * 4 + found[-2:]


def mask_digit_runs(text: str) -> str:
    """``text`` with every run of 6+ digits shown as ``••••`` and its last two digits.

    Hex ids (12+ lowercase hex characters, a letter among them, a word of
    their own or after ``_``) stay whole.
    """
    return _DIGIT_RUN.sub(_mask, text)


def _plain(value: str | SecretStr) -> str:
    return value if isinstance(value, str) else value.get_secret_value()


class SecretRegistry:
    """The exact secrets one client knows, to hide wherever they appear.

    Holds fixed secrets (the API secret, a sandbox control token) and the
    two newest tokens: the current one and the one it replaced (still in
    flight in requests that were sent before the renewal). Thread-safe; its
    repr never shows a secret.
    """

    __slots__ = ("__weakref__", "_fixed", "_lock", "_pattern", "_short", "_tokens")

    def __init__(self, *secrets: str | SecretStr | None) -> None:
        self._lock = threading.Lock()
        self._fixed: list[SecretStr] = []
        self._tokens: deque[SecretStr] = deque(maxlen=2)
        self._pattern: re.Pattern[str] | None = None
        self._short: tuple[SecretStr, ...] = ()
        for secret in secrets:
            if secret:
                self.add_secret(secret)
        _LIVE.add(self)

    def add_secret(self, secret: str | SecretStr) -> None:
        """Hide ``secret`` from now on, for the registry's lifetime."""
        from pydantic import SecretStr

        wrapped = SecretStr(secret) if isinstance(secret, str) else secret
        with self._lock:
            if wrapped.get_secret_value() and wrapped not in self._fixed:
                self._fixed.append(wrapped)
                self._rebuild()

    def add_token(self, token: SecretStr) -> None:
        """Make ``token`` the current token; the one before the previous drops out."""
        with self._lock:
            if token.get_secret_value() and (not self._tokens or self._tokens[-1] != token):
                self._tokens.append(token)
                self._rebuild()

    def _rebuild(self) -> None:
        every = [*self._fixed, *self._tokens]
        long = sorted(
            {_plain(s) for s in every if len(_plain(s)) >= MIN_SECRET_LENGTH},
            key=len,
            reverse=True,  # longest first: a secret containing another is hidden whole
        )
        self._pattern = re.compile("|".join(map(re.escape, long))) if long else None
        self._short = tuple(s for s in every if len(_plain(s)) < MIN_SECRET_LENGTH)

    def hide(self, text: str) -> str:
        """``text`` with every secret of at least :data:`MIN_SECRET_LENGTH` characters replaced."""
        pattern = self._pattern
        return text if pattern is None else pattern.sub(REDACTED, text)

    def has_short_secret_in(self, text: str) -> bool:
        """Whether a secret too short to redact occurs in ``text``."""
        return any(_plain(secret) in text for secret in self._short)

    def __len__(self) -> int:
        return len(self._fixed) + len(self._tokens)

    def __repr__(self) -> str:
        return f"<SecretRegistry: {len(self)} secret(s)>"


_LIVE: weakref.WeakSet[SecretRegistry] = weakref.WeakSet()
# Secrets an app hands over itself with register_secret (not tied to a client).
_APP_SECRETS = SecretRegistry()


def live_registries() -> list[SecretRegistry]:
    """The registries of every client still alive, plus :func:`register_secret`'s."""
    return list(_LIVE)


def register_secret(value: str | SecretStr | None) -> None:
    """Have every default :class:`RedactingFilter` hide ``value`` for the process's lifetime.

    For an app's own secrets. Clients no longer use it: each keeps its
    secrets in its own :class:`SecretRegistry`.
    """
    if value:
        _APP_SECRETS.add_secret(value)


def _replace_value(match: re.Match[str]) -> str:
    value = match.group("value")
    quote = value[0] if value[:1] in {'"', "'"} else ""
    closing = quote if quote and len(value) > 1 and value.endswith(quote) else ""
    return f"{match.group('head')}{quote}{REDACTED}{closing}"


Registries = Iterable[SecretRegistry] | Callable[[], Iterable[SecretRegistry]]


def _hide_exact(
    text: str, registries: Iterable[SecretRegistry], extra: Iterable[str | None]
) -> str:
    for registry in registries:
        text = registry.hide(text)
    for secret in sorted((s for s in extra if s and len(s) >= MIN_SECRET_LENGTH), key=len)[::-1]:
        text = text.replace(secret, REDACTED)
    return text


def redact(
    text: str, secrets: Iterable[str | None] = (), registries: Registries | None = None
) -> str:
    """``text`` with credentials replaced by ``[REDACTED]``.

    Hides the exact secrets of ``registries`` (default: every live client's)
    and of ``secrets``, then anything shaped like a credential.
    """
    chosen = _resolve(registries)
    text = _hide_exact(text, chosen, secrets)
    text = _HEADER.sub(_replace_value, text)
    text = _BEARER.sub(_replace_value, text)
    return _KEY_VALUE.sub(_replace_value, text)


def _resolve(registries: Registries | None) -> list[SecretRegistry]:
    if registries is None:
        return live_registries()
    if callable(registries):
        return list(registries())
    return list(registries)


def excerpt(body: bytes, registry: SecretRegistry | None = None, limit: int = 200) -> str:
    """A short, single-line, redacted excerpt of a response body for an error.

    Empty when a secret too short to redact safely occurs in the body:
    better no excerpt than a maybe-leaked secret. Digit runs are masked.
    """
    text = body[: limit * 20].decode("utf-8", errors="replace")
    text = " ".join(text.split())
    if registry is not None and registry.has_short_secret_in(text):
        return ""
    text = mask_digit_runs(redact(text, registries=[registry] if registry else []))
    if len(body) > limit * 20 and len(text) <= limit:
        # The cut may have halved a secret, which no exact match then finds,
        # and the end of the text is visible: drop the last word.
        text = text.rpartition(" ")[0]
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return text


class RedactingFilter(logging.Filter):
    """A logging filter that hides credentials and account numbers in a record.

    Hides the exact secrets of ``registries`` (an iterable, or a callable
    returning one; default: the registries of every live client, see
    :func:`live_registries`), the extra exact strings ``secrets``, anything
    shaped like a credential, and runs of 6+ digits. Attach one to an app's
    log handler (``handler.addFilter(RedactingFilter())``); :meth:`watch`
    adds a client's registry to an explicit list. Never drops a record: it
    rewrites ``msg``/``args``, the exception text and the stack text.
    """

    def __init__(
        self, name: str = "", secrets: Iterable[str] = (), registries: Registries | None = None
    ) -> None:
        super().__init__(name)
        self._secrets = tuple(secret for secret in secrets if secret)
        self._registries = registries
        self._watched: weakref.WeakSet[SecretRegistry] = weakref.WeakSet()

    def watch(self, registry: SecretRegistry) -> None:
        """Also hide ``registry``'s secrets (held weakly: a dropped client drops out)."""
        self._watched.add(registry)

    def _scrub(self, text: str, registries: list[SecretRegistry]) -> str:
        return mask_digit_runs(redact(text, self._secrets, registries))

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # noqa: BLE001 (a broken format string is the handler's problem)
            return True
        registries = [*_resolve(self._registries), *self._watched]
        scrubbed = self._scrub(message, registries)
        if scrubbed != message or record.args:
            record.msg = scrubbed
            record.args = None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = self._scrub(record.exc_text, registries)
        if record.stack_info:
            record.stack_info = self._scrub(record.stack_info, registries)
        return True


def install_logger_filter() -> None:
    """Attach one :class:`RedactingFilter` to the client's logger (idempotent)."""
    logger = logging.getLogger(LOGGER_NAME)
    if not any(isinstance(existing, RedactingFilter) for existing in logger.filters):
        logger.addFilter(RedactingFilter())
