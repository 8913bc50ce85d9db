"""One rule for "the secret would cross the network in clear": plain HTTP to a host not this machine.

Only literal loopback addresses and ``localhost`` count as this machine: a
name such as ``127.0.0.1.nip.io`` resolves to loopback only if a resolver
says so, and a resolver can lie.
"""

from __future__ import annotations

import pytest

from accountdesk.core.plain_http import is_loopback_host, plain_http_to_remote, plain_http_warning


@pytest.mark.parametrize(
    ("base_url", "in_clear"),
    [
        ("http://api.bank.example", True),
        ("HTTP://API.Bank.example:8080/v1", True),
        ("http://10.0.0.5:8765", True),
        ("http://0.0.0.0:8765", True),
        ("http://127.0.0.1.nip.io:8765", True),
        ("http://localhost.evil.example", True),
        ("http://[2001:db8::1]:8765", True),
        ("https://api.bank.example", False),
        ("https://10.0.0.5", False),
        ("http://127.0.0.1:8765", False),
        ("http://127.8.9.10", False),
        ("http://[::1]:8765", False),
        ("http://[::ffff:127.0.0.1]:8765", False),
        ("http://localhost:8765", False),
        ("http://LOCALHOST", False),
        (None, False),
        ("sandbox", False),
        ("", False),
    ],
)
def test_plain_http_to_a_remote_host(base_url: str | None, in_clear: bool) -> None:
    assert plain_http_to_remote(base_url) is in_clear
    warning = plain_http_warning(base_url)
    assert (warning is not None) is in_clear
    if warning is not None:
        assert "\n" not in warning and "not encrypted" in warning and "https://" in warning


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("127.0.0.1", True),
        ("127.255.0.9", True),
        ("::1", True),
        ("[::1]", True),
        ("::ffff:127.0.0.1", True),
        ("localhost", True),
        (" LocalHost ", True),
        ("localhost.", False),
        ("ip6-localhost", False),
        ("127.0.0.1.nip.io", False),
        ("0.0.0.0", False),
        ("::", False),
        ("", False),
        ("192.168.1.20", False),
    ],
)
def test_loopback_hosts_are_literal(host: str, loopback: bool) -> None:
    assert is_loopback_host(host) is loopback


def test_web_mode_uses_the_same_rule() -> None:
    from accountdesk.web.options import is_loopback

    for host in ("127.0.0.1", "localhost", "::1", "ip6-localhost", "127.0.0.1.nip.io", "0.0.0.0"):
        assert is_loopback(host) is is_loopback_host(host), host
