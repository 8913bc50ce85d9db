"""Turn an endpoint template and its parameters into a safe request path.

Each parameter becomes exactly one percent-encoded path segment, so no
``user_id`` or ``job_id`` can reach another endpoint: ``"a/b"`` is sent as
``a%2Fb``, ``"a?b"`` as ``a%3Fb``, ``"%2F"`` as ``%252F``. The dot segments
``.`` and ``..`` survive percent-encoding unchanged (they are unreserved
characters) and any server or proxy would resolve them, so they are refused
here, together with empty and blank ids. So are ids that cannot be sent at
all: text with an unpaired surrogate (no UTF-8 form) and ids so long that
httpx would refuse the URL or a server the request line.

:func:`identifier_problem` states the rule as a sentence, so a UI can explain
a refusal before anything is sent.
"""

from __future__ import annotations

from functools import lru_cache
from urllib.parse import quote

from accountdesk.contract import Endpoint

from .errors import InvalidIdentifierError

__all__ = ["MAX_SEGMENT_LENGTH", "build_path", "encode_segment", "identifier_problem"]

#: Longest encoded segment sent. Real ids are short; servers commonly refuse
#: request lines over 8 KiB, and httpx refuses URLs over 64 KiB.
MAX_SEGMENT_LENGTH = 2048


def _encoded(value: str) -> str | None:
    try:
        return quote(value, safe="")
    except UnicodeEncodeError:
        return None


def identifier_problem(name: str, value: object) -> str | None:
    """Why ``value`` cannot be sent as the path parameter ``name``, or None.

    The sentence names the parameter (``"job_id must not be empty or
    blank."``) and never repeats the value.
    """
    if not isinstance(value, str):
        return f"{name} must be a string, not {type(value).__name__}."
    return _checked(name, value)[1]


def encode_segment(name: str, value: object, endpoint: Endpoint) -> str:
    """``value`` as one percent-encoded segment, or :class:`InvalidIdentifierError`."""
    segment, problem = (
        _checked(name, value) if isinstance(value, str) else (None, identifier_problem(name, value))
    )
    if segment is None:
        raise InvalidIdentifierError(
            name, problem or "invalid", method=endpoint.method, path=endpoint.path
        )
    return segment


def _checked(name: str, value: str) -> tuple[str | None, str | None]:
    """(the encoded segment, None), or (None, why it cannot be sent)."""
    if len(value) > MAX_SEGMENT_LENGTH:  # too long whatever its encoding: never kept
        return _check(name, value)
    return _check_cached(name, value)


def _check(name: str, value: str) -> tuple[str | None, str | None]:
    if not value.strip():
        return None, f"{name} must not be empty or blank."
    if value in {".", ".."}:
        return None, f"{name} must not be {value!r} (a dot segment would change the endpoint)."
    segment = _encoded(value)
    if segment is None:
        return None, f"{name} must be valid text (it holds an unpaired surrogate)."
    if len(segment) > MAX_SEGMENT_LENGTH:
        return None, (
            f"{name} is too long ({len(segment)} characters once encoded, "
            f"at most {MAX_SEGMENT_LENGTH})."
        )
    return segment, None


#: The same few ids are sent again and again (a job polled every second, the
#: user on screen): checking and encoding one was 13 us of each call.
_check_cached = lru_cache(maxsize=1024)(_check)


def build_path(endpoint: Endpoint, **parameters: object) -> str:
    """The request path of ``endpoint`` with every parameter encoded."""
    missing = set(endpoint.path_parameters) - parameters.keys()
    if missing:  # a programming error in the client, not a user input problem
        raise TypeError(f"{endpoint} needs {sorted(missing)}")
    encoded = {
        name: encode_segment(name, parameters[name], endpoint) for name in endpoint.path_parameters
    }
    return endpoint.path.format(**encoded)
