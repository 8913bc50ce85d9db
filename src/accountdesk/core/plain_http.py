"""Would the secret cross the network in clear? Plain HTTP to a host other than this machine.

Sign-in sends the API secret in the body of ``POST /token`` and every later
request a bearer token; over ``http://`` to another machine both travel
unencrypted, readable by anyone on the path. One rule decides it, for every
place that warns or refuses: the command line, web mode, the dashboard's
badge and sign-in.

"This machine" is only what needs no resolver to know: a literal loopback
address (``127.0.0.0/8``, ``::1``, IPv4-mapped ``::ffff:127.x.x.x``) or the
name ``localhost``. ``127.0.0.1.nip.io`` resolves to loopback only if a
resolver says so, and a resolver (or whoever controls the name) can say
otherwise; ``localhost.`` and ``ip6-localhost`` are not special either.
Standard library only.
"""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

__all__ = ["is_loopback_host", "plain_http_to_remote", "plain_http_warning"]


def is_loopback_host(host: str) -> bool:
    """True when ``host`` can only mean this machine (see the module docstring).

    Brackets around an IPv6 address are allowed; anything unsure (an empty
    host, ``0.0.0.0`` meaning every interface, a name) is not loopback.
    """
    name = host.strip().lower()
    if name == "localhost":
        return True
    try:
        address = ipaddress.ip_address(name.removeprefix("[").removesuffix("]"))
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped.is_loopback
    return address.is_loopback


def plain_http_to_remote(base_url: str | None) -> bool:
    """True when ``base_url`` is ``http://`` to a host that is not this machine.

    None, ``"sandbox"`` or anything without a scheme (the embedded sandbox:
    no network at all) is False, as is ``https://`` to anywhere.
    """
    if not base_url:
        return False
    parts = urlsplit(base_url.strip())
    if parts.scheme.lower() != "http":
        return False
    return not is_loopback_host(parts.hostname or "")


def plain_http_warning(base_url: str | None) -> str | None:
    """One line saying what plain HTTP to ``base_url`` exposes, or None when it is not that."""
    if not plain_http_to_remote(base_url):
        return None
    host = urlsplit(str(base_url).strip()).hostname
    return (
        f"{base_url} is plain HTTP to {host}: the API secret and every token cross the "
        "network not encrypted (fine for a training sandbox; use https:// for a real service)"
    )
