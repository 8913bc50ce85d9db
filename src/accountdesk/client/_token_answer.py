"""A token answer made usable: what can be used is, what no header can carry is refused.

The contract shows neither the token's format nor its lifetime ("not
shown"), and services differ: a lifetime of 0, -1, ``"3600"``, ``null``, none
at all, or 1e300 seconds; a token with spaces. Failing the sign-in on any of
them locks a person out of a token that works. So, before the answer is
validated (:class:`~accountdesk.client.TokenGrant` calls
:func:`usable_answer`):

- ``expires_in`` that is not a positive number of seconds up to a year
  becomes None, "unknown": the token is kept until the service refuses it
  (401, or 403 ``AC-001``), then renewed once and the request replayed. Not a
  default lifetime: any default is a guess, too short renews for nothing
  (the secret goes over the wire each time), too long is no better than
  waiting for the refusal, which costs one replayed request per token and is
  right whatever the real lifetime is. Numeric text (``"3600"``) is a number.
- ``token_type`` that is not an HTTP auth scheme (a token of RFC 9110:
  letters, digits and ``!#$%&'*+.^_`|~-``) is sent as ``Bearer``, the
  scheme the sandbox and OAuth 2 use; ``bearer`` in any case is ``Bearer``.
- the token's outer whitespace is dropped: a receiver strips it from a
  header value anyway (RFC 9110's OWS), so sending it would change nothing.
  Inner spaces are sent as given.

What cannot be sent in a header as the service sent it is refused by
:func:`token_problem`: an empty token, a control character (CR/LF would
split the header), a non-ASCII character (a header carries ASCII; any
encoding would be a guess), more than :data:`MAX_TOKEN_LENGTH` characters.
Each oddity is a :class:`Note` for the log; no note holds the token.
"""

from __future__ import annotations

import logging
import math
import re
from dataclasses import dataclass
from typing import Any

from accountdesk.client._bounds import MAX_TOKEN_LIFETIME

__all__ = ["MAX_TOKEN_LENGTH", "Note", "token_problem", "usable_answer"]

#: The longest token sent: servers commonly cap one header line at 8 KiB
#: (nginx's large_client_header_buffers), and "Bearer " comes before it.
MAX_TOKEN_LENGTH = 8192
#: An auth scheme: RFC 9110's ``token``.
_SCHEME = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")
#: A number written as text ("3600", "1e3", "NaN"): what ``float()`` reads, no more.
_NUMBER_TEXT = re.compile(
    r"\s*[+-]?(([0-9]+\.?[0-9]*|\.[0-9]+)(e[+-]?[0-9]+)?|nan|inf|infinity)\s*", re.IGNORECASE
)
_KEPT_UNTIL_REFUSED = "the token is kept and renewed when the service refuses it"
_ABSENT = object()


@dataclass(frozen=True, slots=True)
class Note:
    """Something odd about a token answer, for the log (never the token itself)."""

    level: int
    text: str


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:39] + "…"


def _lifetime(value: object) -> tuple[float | None, Note | None]:
    """Seconds the token lives, or None (unknown), and what was odd about it."""
    if value is _ABSENT:
        return None, Note(
            logging.INFO, f"the token answer has no expires_in; {_KEPT_UNTIL_REFUSED}"
        )
    number: float | None = None
    if isinstance(value, int | float) and not isinstance(value, bool):
        number = float(value) if not isinstance(value, int) or abs(value) < 2**1000 else math.inf
    elif isinstance(value, str) and len(value) <= 64 and _NUMBER_TEXT.fullmatch(value):
        number = float(value)
    if value is None:
        problem = "expires_in is null"
    elif number is None:
        problem = f"expires_in is not a number ({_shown(value)})"
    elif math.isnan(number):
        problem = f"expires_in is not a finite number ({_shown(value)})"
    elif number == 0:
        problem = "expires_in is 0"
    elif number < 0:
        problem = f"expires_in is negative ({_shown(value)})"
    elif number > MAX_TOKEN_LIFETIME:
        problem = f"expires_in is over a year ({number:g} s)"
    else:
        return number, None
    return None, Note(logging.WARNING, f"{problem}: taken as unknown; {_KEPT_UNTIL_REFUSED}")


def _scheme(value: object) -> tuple[str, Note | None]:
    if value is _ABSENT:
        return "Bearer", None
    if isinstance(value, str):
        scheme = value.strip()
        if scheme.lower() == "bearer":
            return "Bearer", None
        if _SCHEME.fullmatch(scheme):
            return scheme, None
        if not scheme:
            return "Bearer", Note(logging.WARNING, "token_type is empty; sent as Bearer")
    return "Bearer", Note(
        logging.WARNING, f"token_type is not a scheme ({_shown(value)}); sent as Bearer"
    )


def _token(value: object) -> tuple[object, list[Note]]:
    if not isinstance(value, str):
        return value, []  # not text: the model refuses it
    notes = []
    token = value.strip(" \t\r\n")
    if token != value and token:
        notes.append(Note(logging.WARNING, "access_token has outer whitespace; sent without it"))
    if " " in token:
        notes.append(Note(logging.WARNING, "access_token holds spaces; sent as given"))
    return token, notes


def usable_answer(data: dict[str, Any]) -> tuple[dict[str, Any], tuple[Note, ...]]:
    """``data`` (a token answer) with its lifetime, scheme and token made usable; the notes."""
    fixed = dict(data)
    token, notes = _token(fixed.get("access_token", _ABSENT))
    if token is not _ABSENT:
        fixed["access_token"] = token
    fixed["token_type"], scheme_note = _scheme(fixed.get("token_type", _ABSENT))
    fixed["expires_in"], lifetime_note = _lifetime(fixed.get("expires_in", _ABSENT))
    notes += [note for note in (scheme_note, lifetime_note) if note is not None]
    return fixed, tuple(notes)


def token_problem(token: str) -> str | None:
    """Why ``token`` cannot be sent in an ``Authorization`` header as given, or None."""
    if not token:
        return "access_token is empty"
    if len(token) > MAX_TOKEN_LENGTH:
        return f"access_token is longer than {MAX_TOKEN_LENGTH:,} characters"
    if any(ord(char) < 0x20 or ord(char) == 0x7F for char in token):
        return "access_token holds a control character"
    if not token.isascii():
        return "access_token holds a non-ASCII character (a header carries ASCII only)"
    return None
