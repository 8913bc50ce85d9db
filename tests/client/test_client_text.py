"""service_text's shortcut for plain text gives what the full sanitiser gives."""

from __future__ import annotations

import pytest

from accountdesk.client._sanitise import bound_text, sanitise_text, service_text


def _full(text: str, limit: int) -> str:
    return bound_text(sanitise_text(bound_text(text, limit)), limit)


@pytest.mark.parametrize("code", range(128))
def test_every_ascii_character(code: int) -> None:
    text = f"a{chr(code)}b"
    assert service_text(text) == _full(text, 2000)


@pytest.mark.parametrize(
    "text", ["plain", "", "é", "\u202eevil", "\x9b31m", "\ud800", "x" * 2000, "x" * 2001]
)
def test_other_text_and_the_length_bound(text: str) -> None:
    assert service_text(text) == _full(text, 2000)
    assert service_text(text, 5) == _full(text, 5)
