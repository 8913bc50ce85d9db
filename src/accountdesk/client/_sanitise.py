"""The client's sanitiser: the contract's (:mod:`accountdesk.contract.sanitise`), re-exported.

One sanitiser for the service's text and for files a person hands us; the
sandbox, which may not import the client, uses it from the contract too.
"""

from __future__ import annotations

from accountdesk.contract.sanitise import (
    MAX_TEXT_LENGTH,
    bound_text,
    has_unsafe_characters,
    sanitise_text,
    service_text,
)

__all__ = [
    "MAX_TEXT_LENGTH",
    "bound_text",
    "has_unsafe_characters",
    "sanitise_text",
    "service_text",
]
