"""What a path parameter may be: the rule for ids, as a sentence, and each id encoded once.

An id becomes exactly one percent-encoded path segment (:mod:`._paths`
builds the path with it). Refused: empty and blank ids, the dot segments
``.`` and ``..`` (percent-encoding leaves them as they are, and any server or
proxy would resolve them), text with an unpaired surrogate (no UTF-8 form),
and ids so long that httpx would refuse the URL or a server the request
line. :func:`identifier_problem` says why in a sentence, so a UI can explain
a refusal before anything is sent; the bounds on what the service sends use
the same rule (:mod:`._bounds`). Standard library only.
"""

from __future__ import annotations

from functools import lru_cache
from urllib.parse import quote

__all__ = ["MAX_SEGMENT_LENGTH", "checked_segment", "identifier_problem"]

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
    return checked_segment(name, value)[1]


def checked_segment(name: str, value: str) -> tuple[str | None, str | None]:
    """(``value`` encoded as one segment, None), or (None, why it cannot be sent)."""
    if len(value) > _KEPT_LENGTH:  # longer than real ids: checked each time, never kept
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
#: user on screen): checking and encoding one was 13 us of each call. Kept:
#: the last 256 ids of at most 64 characters (a uuid is 36), more than the
#: 200 jobs the tracker keeps per service. A session checks new ids all day: 1,024
#: kept took the soak's new jobs (1,765 in 30 minutes) 17 minutes to fill,
#: and held 420 KB of uuid-long ids, 2.6 MB of the longest a service may
#: send (issue 33, "Memory over a working day").
_KEPT_LENGTH = 64
_check_cached = lru_cache(maxsize=256)(_check)
