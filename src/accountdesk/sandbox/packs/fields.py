"""The single values of a scenario pack: texts, amounts, moments, error codes, durations.

The pack models (:mod:`.pack_models`) are built from these. Every text a
pack carries is held to the rule tour files follow (the one sanitiser's,
:func:`accountdesk.contract.sanitise.inert_text`): a control character,
an escape sequence or a bidi mark is refused, with one line naming the
field, since a pack is a file a trainer receives from elsewhere, prints
(``accountdesk scenarios check``) and serves to every screen.
"""

from __future__ import annotations

import datetime as dt
import difflib
import re
from typing import Annotated

from pydantic import AfterValidator, Field

from accountdesk.contract import CODE_PATTERN
from accountdesk.contract.sanitise import inert_text
from accountdesk.sandbox.clock import LATEST_START, MAX_DURATION

__all__ = [
    "MAX_SUMMARY",
    "MAX_TEXT",
    "MAX_TITLE",
    "Currency",
    "Paragraph",
    "Question",
    "Seconds",
    "Summary",
    "Text",
    "Title",
    "Token",
    "amount_text",
    "aware",
    "did_you_mean",
    "error_code",
    "inert_paragraph",
    "one_of",
]

#: The longest text a pack gives (the client cuts what it shows at the same length).
MAX_TEXT = 2_000
MAX_SUMMARY = 240
MAX_TITLE = 80
_MAX_SECONDS = MAX_DURATION.total_seconds()
_AMOUNT = re.compile(r"-?[0-9]{1,24}(\.[0-9]{1,24})?")


def inert_paragraph(text: str) -> str:
    """A text that may run over lines (a description), otherwise held to the rule."""
    return inert_text(text, newlines=True)


_Inert = AfterValidator(inert_text)
#: One line of text, as a pack's fields mostly are.
Text = Annotated[str, Field(max_length=MAX_TEXT), _Inert]
#: A description: a paragraph, newlines allowed.
Paragraph = Annotated[str, Field(max_length=MAX_TEXT), AfterValidator(inert_paragraph)]
Summary = Annotated[str, Field(min_length=1, max_length=MAX_SUMMARY), _Inert]
Title = Annotated[str, Field(min_length=1, max_length=MAX_TITLE), _Inert]
Currency = Annotated[str, Field(min_length=1, max_length=16), _Inert]
#: A secret, an MFA answer, a transaction id: 1 to 256 characters.
Token = Annotated[str, Field(min_length=1, max_length=256), _Inert]
Question = Annotated[str, Field(min_length=1, max_length=500), _Inert]
Seconds = Annotated[float, Field(gt=0, le=_MAX_SECONDS, allow_inf_nan=False)]


def did_you_mean(given: str, choices: list[str] | tuple[str, ...]) -> str:
    """``; did you mean 'account'?`` for a near miss among ``choices``, else ``""``."""
    close = difflib.get_close_matches(given, list(choices), n=1, cutoff=0.6)
    return f"; did you mean {close[0]!r}?" if close else ""


def one_of(kind: str, given: str, choices: tuple[str, ...] | list[str]) -> ValueError:
    """The error for ``given``, which is not one of ``choices`` (a near miss suggested)."""
    hint = did_you_mean(given, choices)
    listing = "" if hint else f"; the {kind}s: {', '.join(choices)}"
    return ValueError(f"{given!r} is not {_article(kind)} {kind}{hint}{listing}")


def _article(word: str) -> str:
    return "an" if word[:1] in "aeiou" else "a"


def amount_text(value: str | None) -> str | None:
    """``value`` when it is an amount written as text (``"-12.50"``)."""
    if value is not None and not _AMOUNT.fullmatch(value):
        raise ValueError(f'{value!r} is not an amount: write it as text, e.g. "-12.50"')
    return value


def aware(moment: dt.datetime | None) -> dt.datetime | None:
    """``moment`` when it has a UTC offset and is before the clock's last start."""
    if moment is None:
        return None
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError("needs a UTC offset, e.g. 2026-03-02T09:00:00Z")
    if moment > LATEST_START:
        raise ValueError(f"must be before {LATEST_START.date()}")
    return moment


def error_code(code: str) -> str:
    """``code`` when it has an error code's shape (``AC-`` and three digits)."""
    if not CODE_PATTERN.match(code):
        raise ValueError(f"{code!r} is not an error code: AC- and three digits, e.g. AC-106")
    return code
