"""Turn an endpoint template and its parameters into a safe request path.

Each parameter becomes exactly one percent-encoded path segment, so no
``user_id`` or ``job_id`` can reach another endpoint: ``"a/b"`` is sent as
``a%2Fb``, ``"a?b"`` as ``a%3Fb``, ``"%2F"`` as ``%252F``. The dot segments
``.`` and ``..`` survive percent-encoding unchanged (they are unreserved
characters) and any server or proxy would resolve them, so they are refused
here, together with empty and blank ids. So are ids that cannot be sent at
all: text with an unpaired surrogate (no UTF-8 form) and ids so long that
httpx would refuse the URL or a server the request line.

The rule itself is :mod:`._identifiers` (a UI explains a refusal with it
before anything is sent).
"""

from __future__ import annotations

from accountdesk.client._identifiers import checked_segment, identifier_problem
from accountdesk.client.errors import InvalidIdentifierError
from accountdesk.contract import Endpoint

__all__ = ["build_path", "encode_segment"]


def encode_segment(name: str, value: object, endpoint: Endpoint) -> str:
    """``value`` as one percent-encoded segment, or :class:`InvalidIdentifierError`."""
    segment, problem = (
        checked_segment(name, value)
        if isinstance(value, str)
        else (None, identifier_problem(name, value))
    )
    if segment is None:
        raise InvalidIdentifierError(
            name, problem or "invalid", method=endpoint.method, path=endpoint.path
        )
    return segment


def build_path(endpoint: Endpoint, **parameters: object) -> str:
    """The request path of ``endpoint`` with every parameter encoded."""
    missing = set(endpoint.path_parameters) - parameters.keys()
    if missing:  # a programming error in the client, not a user input problem
        raise TypeError(f"{endpoint} needs {sorted(missing)}")
    encoded = {
        name: encode_segment(name, parameters[name], endpoint) for name in endpoint.path_parameters
    }
    return endpoint.path.format(**encoded)
