"""Turn an endpoint template and its parameters into a safe request path.

Each parameter becomes exactly one percent-encoded path segment, so no
``user_id`` or ``job_id`` can reach another endpoint: ``"a/b"`` is sent as
``a%2Fb``, ``"a?b"`` as ``a%3Fb``, ``"%2F"`` as ``%252F``. The dot segments
``.`` and ``..`` survive percent-encoding unchanged (they are unreserved
characters) and any server or proxy would resolve them, so they are refused
here, together with empty and blank ids.
"""

from __future__ import annotations

from urllib.parse import quote

from accountdesk.contract import Endpoint

from .errors import InvalidIdentifierError


def encode_segment(name: str, value: object, endpoint: Endpoint) -> str:
    """``value`` as one percent-encoded segment, or :class:`InvalidIdentifierError`."""

    def refuse(why: str) -> InvalidIdentifierError:
        return InvalidIdentifierError(
            name, f"{name} {why}.", method=endpoint.method, path=endpoint.path
        )

    if not isinstance(value, str):
        raise refuse(f"must be a string, not {type(value).__name__}")
    if not value.strip():
        raise refuse("must not be empty or blank")
    if value in {".", ".."}:
        raise refuse(f"must not be {value!r} (a dot segment would change the endpoint)")
    return quote(value, safe="")


def build_path(endpoint: Endpoint, **parameters: object) -> str:
    """The request path of ``endpoint`` with every parameter encoded."""
    missing = set(endpoint.path_parameters) - parameters.keys()
    if missing:  # a programming error in the client, not a user input problem
        raise TypeError(f"{endpoint} needs {sorted(missing)}")
    encoded = {
        name: encode_segment(name, parameters[name], endpoint) for name in endpoint.path_parameters
    }
    return endpoint.path.format(**encoded)
