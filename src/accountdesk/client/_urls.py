"""The one rule for the service's base URL, shared by the client and any UI.

A base URL is compared, stored and shown in one spelling: scheme and host in
lower case, no trailing slash. It must be an absolute ``http``/``https`` URL
with a host and a port in range, and nothing that would travel where it
should not: no user name or password (they would end up in reprs, logs and
config files), no query or fragment (every path is appended to it).
"""

from __future__ import annotations

import re

import httpx

from accountdesk.client._sanitise import sanitise_text
from accountdesk.client.errors import InvalidBaseUrlError

__all__ = ["normalise_base_url"]

# What a host looks like once httpx has IDNA-encoded it: DNS labels, an IPv4
# address or an IPv6 one (kept without its brackets). A space or a "%" is not.
_HOST = re.compile(rb"[A-Za-z0-9._\-]+|[0-9A-Fa-f:.]+")


def _shown(text: str, limit: int = 80) -> str:
    # The URL came from a person or a config file, but a message about it may
    # reach the terminal: inert and short.
    text = sanitise_text(text)
    return repr(text if len(text) <= limit else text[: limit - 1] + "…")


def normalise_base_url(url: str) -> str:
    """``HTTPS://Host:8443/api/`` -> ``https://host:8443/api``: one spelling per service.

    Raises :class:`~accountdesk.client.InvalidBaseUrlError` with a sentence
    saying what is wrong. The message never repeats a user name or password.
    """
    if not isinstance(url, str):
        raise InvalidBaseUrlError(f"The service URL must be text, not {type(url).__name__}.")
    text = url.strip()
    if not text:
        raise InvalidBaseUrlError("Enter the service URL, such as https://api.bank.example.")
    try:
        parsed = httpx.URL(text)
    except (httpx.InvalidURL, TypeError, ValueError):
        # httpx's own text may quote the URL, password included: not echoed.
        raise InvalidBaseUrlError(
            "The service URL cannot be read as a URL; "
            "write it like https://api.bank.example[:port][/path]."
        ) from None
    if parsed.userinfo:
        raise InvalidBaseUrlError("The service URL must not contain a user name or password.")
    if parsed.scheme not in ("http", "https"):
        scheme = f" (not {_shown(parsed.scheme)})" if parsed.scheme else ""
        raise InvalidBaseUrlError(f"The service URL must start with http:// or https://{scheme}.")
    if not parsed.host:
        raise InvalidBaseUrlError(f"The service URL {_shown(text)} has no host name.")
    if not _HOST.fullmatch(parsed.raw_host):
        raise InvalidBaseUrlError(f"The service URL {_shown(text)} has no valid host name.")
    if parsed.query or parsed.fragment:
        raise InvalidBaseUrlError(
            f"The service URL {_shown(text)} must not contain a query (?…) or a fragment (#…)."
        )
    if parsed.port is not None and not 0 < parsed.port < 65536:
        raise InvalidBaseUrlError(f"Port {parsed.port} is out of range (1-65535).")
    netloc = parsed.netloc.decode("ascii").lower()
    path = parsed.raw_path.decode("ascii").rstrip("/")
    return f"{parsed.scheme}://{netloc}{path}"
