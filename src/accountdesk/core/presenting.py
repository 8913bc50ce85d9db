"""Presenter mode: a customer's identity shown as fakes that stay the same all session.

For demos on a live service (a projector, a screen share, ``accountdesk
serve`` in a meeting). While :attr:`Presenter.active`, every text the
dashboard draws passes :meth:`Presenter.text` (the dashboard applies it to
each line it draws, so a million transactions are never rewritten: only the
rows on screen), and so does every text that leaves the app (a screenshot is
drawn the same way; the clipboard, a CSV export and the error reports pass
it as they are written). Amounts, dates, statuses, job kinds and AC codes
stay as they are: they are what a demo is about.

What is replaced, wherever it appears:

- **found by their shape**, whoever they belong to: e-mail addresses, phone,
  account and routing numbers (7 digits or more, whatever separates them;
  a date or an amount is neither), and the last four digits a text shows of
  one ("the phone ending 0147", ``••••3756``). A number's fake is drawn from
  its digits alone, and its last four from its last four, so the masked
  number, the number revealed (``r``) and "ending 3756" agree everywhere;
- **learnt from the records read** (:meth:`Presenter.learn`): the names of
  the identity (whole, and each part alone, also inside an account name or
  a transaction's description: see :func:`~accountdesk.core.cases.redaction.name_parts`),
  its street addresses (also without the house number, and the street's
  own words), cities and postal codes (and their first part), the account's
  owner's name ("Avery's Checking"), its numbers, and every user id the
  session meets (titles, recent lookups, the jobs screen, the palette,
  paths in error messages). A long one is also found at a line's end or
  start, where it wraps.

A fake met again is kept as it is (the screen under a dialog is drawn
again; a dialog's text may have been faked already). Dates (also compact:
``20261129``) and the app's own support address stay.

A fake has the original's length and each character the original's width
(a letter for a letter, a digit for a digit, punctuation kept; a name is
another name of the same length when one exists), so what is drawn keeps
its layout: the replacement is made in lines already laid out. Fakes are
drawn from a key made new for each session, so they say nothing of the
originals (none is a hash anyone could check a guess against) and the same
customer looks the same on every screen all session long.

Not found: a name the service put where nothing says it is a name (a name
in a description, of someone whose identity was never read). The service
still sees, and may log, the real calls. Standard library only (and the
recorder's rule for the last four digits a text shows, core.cases.redaction).
"""

from __future__ import annotations

import os
import random
import re
import unicodedata
from collections.abc import Iterable, Mapping
from typing import Any

from accountdesk.core.cases.redaction import EMAIL as _EMAIL
from accountdesk.core.cases.redaction import LAST_FOUR as _LAST_FOUR
from accountdesk.core.cases.redaction import STREET_WORDS, word_parts

__all__ = ["Presenter", "session_key"]

#: The records a customer's data is learnt from (:meth:`Presenter.learn`).
RECORDS = ("account", "identity")

_FIRST_NAMES = (
    "Alex", "Blake", "Dana", "Eden", "Emery", "Finley", "Gray",
    "Harper", "Hayden", "Indra", "Jamie", "Kendall", "Lane", "Logan", "Marlow",
    "Noor", "Oakley", "Parker", "Quinn", "Reese", "Rowan", "Sasha",
    "Skyler", "Tatum", "Umar", "Vivian", "Wren", "Yael", "Zion", "Ali", "Bo", "Kai",
    "Max", "Ray", "Amara", "Bruno", "Celine", "Dmitri", "Esme", "Farid", "Greta",
    "Hugo", "Ines", "Jonas", "Keiko", "Luca", "Mateo", "Nadia", "Oskar", "Priya", "Rafael",
    "Solveig", "Tobias", "Valentina", "Wilhelmina", "Christopher", "Alessandra",
)  # fmt: skip
_LAST_NAMES = (
    "Abbott", "Barnes", "Castillo", "Dalton", "Ellison", "Fischer", "Garrison", "Holloway",
    "Ibarra", "Jansen", "Kowalski", "Lindqvist", "Moreau", "Nakamura", "Okonkwo", "Pereira",
    "Quintero", "Rasmussen", "Sorensen", "Takahashi", "Underwood", "Valdez", "Whitfield",
    "Yamamoto", "Zeller", "Ashford", "Brennan", "Calloway", "Delgado", "Everly", "Fox",
    "Gil", "Hale", "Ito", "Kerr", "Lund", "Moss", "Ng", "Reyes", "Shaw", "Tran",
    "Vance", "Wolfe", "Young", "Blackwood", "Montgomery", "Fitzgerald", "Vanderbilt",
)  # fmt: skip
#: Name fakes by length: a name is replaced by a name of the same length where one exists.
#: (None of the shipped scenario users' names: a fake is never someone's name there.)
_NAMES_BY_LENGTH: dict[int, tuple[str, ...]] = {}
for _name in (*_FIRST_NAMES, *_LAST_NAMES):
    _NAMES_BY_LENGTH[len(_name)] = (*_NAMES_BY_LENGTH.get(len(_name), ()), _name)

#: Words of places, for a street's or a city's fakes (a word of the same length where one exists).
_PLACE_WORDS = (
    "Ash", "Bay", "Elm", "Fir", "Way", "Row", "Hill", "Lake", "Mill", "Pine", "Vale",
    "Wood", "Moor", "Dale", "Glen", "Maple", "Cedar", "Birch", "Aspen", "Grove", "Ridge",
    "Brook", "Field", "Drive", "Court", "Close", "Meadow", "Harbor", "Summit", "Willow",
    "Garden", "Valley", "Orchard", "Juniper", "Terrace", "Norwood", "Fairfax", "Ashbury",
    "Hawthorn", "Elmhurst", "Westbury", "Crescent", "Lakeview", "Greenwood", "Riverside",
    "Kingsbury", "Cliffside", "Fairhaven", "Bridgeport", "Stonebridge", "Northampton",
)  # fmt: skip
_PLACES_BY_LENGTH: dict[int, tuple[str, ...]] = {}
for _place in _PLACE_WORDS:
    _PLACES_BY_LENGTH[len(_place)] = (*_PLACES_BY_LENGTH.get(len(_place), ()), _place)

#: A number of 7 digits or more, whatever separates its digits; never inside a word or id.
_LONG_NUMBER = re.compile(r"(?<![\w+.,])\+?\d(?:[ .()/\-]{0,3}\d){6,}(?![\w])")
#: What looks like a number but is a date or an amount: kept.
_DATE = re.compile(r"\d{4}-\d\d-\d\d|\d\d?/\d\d?/\d{4}|\d{4}/\d\d/\d\d")
_DATE_TIME = re.compile(
    r"(?<!\d)(?:\d{4}-\d\d-\d\d(?:[ T]\d\d:\d\d(?::\d\d)?)?|\d\d?/\d\d?/\d{4}|\d{4}/\d\d/\d\d"
    # A compact date, and time: the app's own file names (20261129-035821), a reference.
    r"|(?:19|20)\d\d(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])(?:[-_T]\d{6})?)(?!\d)"
)
_AMOUNT = re.compile(r"[-+]?\d+\.\d\d")
#: How a text too long for its place is drawn cut short (Rich's and Textual's ellipsis).
_ELLIPSIS = "…"
#: The shortest start of a learnt original, cut short, that is faked ("Jo…" is too many words').
_SHORTEST_CUT = 3
#: What is left at the end of a cut address or number (before the ellipsis).
_CUT_SHAPE = re.compile(r"(?:[\w.+-]+@[\w.-]*|\+?\d(?:[ ().\-]{0,3}\d){4,}[ ().\-]*)$")
#: A cut date or amount: kept, as a whole one is.
_CUT_KEPT = re.compile(r"\d{4}-[\d-]*|[-+]?\d+\.\d?")
#: Domains of mail providers: no one's, kept in a fake address.
_MAIL_PROVIDERS = frozenset(
    {
        "gmail.com", "googlemail.com", "yahoo.com", "outlook.com", "hotmail.com", "live.com",
        "icloud.com", "me.com", "aol.com", "proton.me", "protonmail.com", "gmx.com",
        "example.com", "example.org", "example.net",
    }
)  # fmt: skip
#: A run of letters (a name's word between its hyphens and apostrophes).
_LETTERS = re.compile(r"[^\W\d_]+")
#: A country's second-level domains: no one's, kept as the top level is.
_SECOND_LEVEL = frozenset({"co", "com", "org", "net", "ac", "gov", "edu", "ne", "or", "go"})
#: Learnt words shorter than this are left alone: "Jo", "Li" are parts of too many words
#: (a name's parts are learnt from two letters: "Bo Li" is two names, see name_parts).
_SHORTEST_WORD = 3
#: Fakes made lately, each kept as it is when met again (a dialog's screen draws the
#: screen under it again; a dialog's text box holds text already faked).
_MADE_KEPT = 65_536
#: Lines remembered with their fakes (the same rows are drawn again and again).
_REMEMBERED = 8192
#: A word or a number, as :meth:`Presenter._plain` looks for learnt ones.
_TOKEN = re.compile(r"\w+")
_NO_DIGITS = str.maketrans("", "", "0123456789")
#: Amounts and dates: digits that are no one's.
_KEPT_ANYWHERE = re.compile(
    r"(?<![\d.,])[-+]?\d[\d,]*\.\d\d(?![\d.,])"
    r"|(?<!\d)\d{4}-\d\d-\d\d(?:[ T]\d\d:\d\d(?::\d\d)?)?(?!\d)"
)
#: Two spaces or more: between a table's cells (Textual pads each by one).
_COLUMN_GAP = re.compile(r"(\s{2,})")


def session_key() -> bytes:
    """A new random key for a session's fakes (never kept: the next session's fakes differ)."""
    return os.urandom(32)


class Presenter:
    """Whether the session presents, and its fakes (see the module docstring).

    ``locked``: presenting cannot be turned off from the app (``accountdesk
    serve --present``: the page is the audience's).
    """

    def __init__(
        self, *, active: bool = False, locked: bool = False, key: bytes | None = None
    ) -> None:
        self.active = active or locked
        self.locked = locked
        self._key = key if key is not None else session_key()
        #: Learnt original -> its fake (words, addresses, user ids), matched case-insensitively.
        self._words: dict[str, str] = {}
        self._known: set[str] = set()
        #: Of each user, the records learnt from or tried ("account", "identity").
        self._records: dict[str, set[str]] = {}
        self._pattern: re.Pattern[str] | None = None
        self._lookup: dict[str, str] = {}
        self._seen: dict[str, str] = {}
        #: Fakes made (casefolded), newest last: never faked again (see _MADE_KEPT).
        self._made: dict[str, None] = {}
        #: Learnt originals of two words or more (casefolded) -> their fakes: found at a
        #: line's end or start too, where a long one wraps.
        self._phrases: dict[str, str] = {}
        self._phrase_words: set[str] = set()
        self._tokens: set[str] = set()
        #: Each word's fake (by kind), and every fake given: see _fake_word.
        self._word_fakes: dict[tuple[str, str], str] = {}
        self._given: set[str] = set()
        #: Changes whenever something new is learnt: what was drawn before may need drawing again.
        self.generation = 0

    # -- learning ----------------------------------------------------------------

    def missing(self, user_id: str) -> list[str]:
        """Which of ``user_id``'s records (``account``, ``identity``) were neither read nor tried."""
        known = self._records.get(user_id, set())
        return [record for record in RECORDS if record not in known]

    def tried(self, user_id: str, record: str) -> None:
        """``user_id``'s ``record`` could not be read: not asked for again this session."""
        self._records.setdefault(user_id, set()).add(record)

    def learn_user_ids(self, user_ids: Iterable[str]) -> None:
        """User ids the session shows (recent lookups, tracked jobs): each gets its fake."""
        added = False
        for user_id in user_ids:
            if user_id and user_id.casefold() not in self._known:
                self._add(user_id, self._fake_id(user_id))
                added = True
        if added:
            self._changed()

    def learn(
        self,
        user_id: str,
        *,
        account: Mapping[str, Any] | None = None,
        identity: Mapping[str, Any] | None = None,
    ) -> None:
        """What ``user_id``'s account and identity records say is the customer's (None: unread).

        Every record the session reads is learnt from, presenting or not, so
        turning presenter mode on fakes at once what is already drawn.
        """
        records = self._records.setdefault(user_id, set())
        records.update(
            record for record, raw in (("account", account), ("identity", identity)) if raw
        )
        self._add(user_id, self._fake_id(user_id))
        identity = identity or {}
        account = account or {}
        # Numbers learnt, not only found by their shape: an 8-digit one may look like a date.
        numbers = [account.get("account_number"), account.get("routing_number")]
        for number in _texts([*numbers, *(identity.get("phone_numbers") or ())]):
            if len(re.sub(r"\D", "", number)) >= 7:  # as the shape rule: "1234.56" is an amount
                self._add(number, self._fake_number(number))
        for name in _texts(identity.get("names")):
            self._learn_name(name)
        for address in identity.get("addresses") or ():
            if isinstance(address, Mapping):
                self._learn_address(address)
        owner = re.match(r"([^\W\d_]{2,})['’]s\b", str(account.get("account_name") or ""))
        if owner is not None:
            self._learn_word(owner.group(1), "name")
        self._changed()

    def _learn_name(self, name: str) -> None:
        words = name.split()
        # Each run of letters a name: "Mary-Jane" as "Umar-Zion", so that its parts
        # alone ("Mary", "Jane", "MARY JANE") are the same cells of the same fake.
        fakes = [_LETTERS.sub(lambda m: self._fake_word(m.group(), "name"), w) for w in words]
        self._add(name, " ".join(fakes))
        for word, fake in zip(words, fakes, strict=True):
            for part, part_fake in word_parts(word, fake):
                self._add(part, _cased_like(part, part_fake) if part.isascii() else part_fake)

    def _learn_word(self, word: str, kind: str) -> None:
        self._add(word, self._fake_word(word, kind))

    def _learn_address(self, address: Mapping[str, Any]) -> None:
        street = address.get("street")
        if isinstance(street, str) and street.strip():
            self._add(street.strip(), self._fake_place(street.strip(), "street"))
            number = re.match(r"\s*\d+[A-Za-z]?\s+", street)
            name = street[number.end() :].strip() if number else street.strip()
            house = number.group().strip() if number else ""
            if len(house) >= 3:  # "Rent 4410 North ...": its house number alone
                self._add(house, self._fake_place(house, "street"))
            if len(name.split()) >= 2:  # one word ("Broadway") is a word of too many texts
                self._add(name, self._fake_place(name, "street"))
                # Its own words alone ("Clark" of "North Clark Street"): a description
                # may hold the start of it ("Rent 4410 North Clark Street Apt 3").
                for word in re.findall(r"[^\W\d_]{3,}", name):
                    if word.casefold() not in STREET_WORDS:
                        self._add(word, self._fake_word(word, "place", _PLACES_BY_LENGTH))
        city = address.get("city")
        if isinstance(city, str) and len(city.strip()) >= _SHORTEST_WORD:
            self._add(city.strip(), self._fake_place(city.strip(), "city"))
            if len(city.split()) >= 2:  # each word alone: "Rancho", a line's end as it wraps
                for word in re.findall(r"[^\W\d_]{3,}", city):
                    if word.casefold() not in STREET_WORDS:
                        self._add(word, self._fake_word(word, "place", _PLACES_BY_LENGTH))
        postal_code = address.get("postal_code")
        if isinstance(postal_code, str) and len(postal_code.strip()) >= _SHORTEST_WORD:
            # Part by part, so that its first part alone ("92688" of "92688-1234") is
            # faked as it is in the whole.
            parts = re.split(r"([ -])", postal_code.strip())
            fakes = [p if p in " -" else self._fake_chars(p, "postal_code") for p in parts]
            self._add(postal_code.strip(), "".join(fakes))
            if len(parts) > 1 and len(parts[0]) >= 4:
                self._add(parts[0], fakes[0])

    def _add(self, original: str, fake: str) -> None:
        if original.casefold() not in self._known:
            self._known.add(original.casefold())
            self._words[original] = fake

    def _changed(self) -> None:
        self._pattern = None
        self._seen.clear()
        self.generation += 1

    # -- replacing ---------------------------------------------------------------

    def text(self, text: str) -> str:
        """``text`` as it may be shown: every customer datum replaced (``text`` when not presenting)."""
        if not self.active or not text:
            return text
        seen = self._seen.get(text)
        if seen is not None:
            return seen
        if _COLUMN_GAP.search(text):
            # A table's line: its cells one by one (a date, a description, a
            # category recur row after row, and each is remembered), a fifth
            # of the time of the whole line through the pattern. No datum
            # holds two spaces in a row: names, numbers and addresses are
            # matched with at most one space inside.
            remembered: dict[str, str] = self._seen
            shown_pieces: list[str] = []
            for piece in _COLUMN_GAP.split(text):
                hit = remembered.get(piece)  # the cache first: a call less for most cells
                if hit is None:
                    hit = piece if not piece or piece.isspace() else self.text(piece)
                shown_pieces.append(hit)
            return "".join(shown_pieces)
        pattern = self._pattern or self._compile()
        if self._plain(text):
            self._remember(text, text)
            return text
        # The edges first: a long original's start or rest there is no whole word yet.
        shown = self._wrapped(text) if self._phrases else text
        shown = pattern.sub(self._replace, shown) if pattern.search(shown) else shown
        if _ELLIPSIS in shown:
            shown = self._cut(shown)
        self._remember(text, shown)
        return shown

    def _plain(self, text: str) -> bool:
        """Whether ``text`` surely holds nothing to fake: no word learnt, no address, no number.

        Most of what a table draws (an amount, a category): this answers
        for it in a fraction of the pattern's time. Not sure means no.
        """
        if not text.isascii() or "@" in text or _ELLIPSIS in text:
            return False
        if len(text) - len(text.translate(_NO_DIGITS)) >= 4:
            # Dates and amounts aside, a number, or the last four of one, may be in it.
            rest = _KEPT_ANYWHERE.sub(" ", text)
            if len(rest) - len(rest.translate(_NO_DIGITS)) >= 4:
                return False
        return self._tokens.isdisjoint(_TOKEN.findall(text.casefold()))

    def _remember(self, text: str, shown: str) -> None:
        if len(self._seen) >= _REMEMBERED:
            self._seen.clear()
        self._seen[text] = shown

    def user_id(self, user_id: str) -> str:
        """``user_id`` as it may be shown (learnt now if it was not)."""
        if not self.active:
            return user_id
        self.learn_user_ids([user_id])
        return self.text(user_id)

    def _compile(self) -> re.Pattern[str]:
        words = sorted(self._words, key=len, reverse=True)
        # An e-mail address first: its parts are faked as one (a learnt name in it too).
        alternatives = [f"(?P<email>{_EMAIL.pattern})"]
        if words:
            alternatives.append(f"(?P<word>{'|'.join(_bounded(word) for word in words)})")
        # A date (and its time) before a number: its digits are no one's.
        alternatives += [
            f"(?P<date>{_DATE_TIME.pattern})",
            f"(?P<number>{_LONG_NUMBER.pattern})",
            f"(?P<four>{_LAST_FOUR.pattern})",
        ]
        self._pattern = re.compile("|".join(alternatives), re.IGNORECASE)
        self._lookup = {word.casefold(): fake for word, fake in self._words.items()}
        #: Every word of every original learnt: a text with none of them holds none.
        self._tokens = {token for word in self._lookup for token in _TOKEN.findall(word)}
        self._phrases = {
            word.casefold(): fake for word, fake in self._words.items() if " " in word.strip()
        }
        self._phrase_words = {
            word for phrase in self._phrases for word in re.findall(r"\w+", phrase)
        }
        return self._pattern

    def _wrapped(self, text: str) -> str:
        """``text`` with the start of a long original at its end, and its rest at its start, faked.

        A street, a name of several words too long for its place is wrapped
        onto two lines, and each line is drawn (and faked) alone: neither
        holds the whole. Two words at least of it, whole, at the edge of the
        line (its borders aside).
        """
        words = re.findall(r"\w+", text.casefold())
        if not words or (
            words[-1] not in self._phrase_words and words[0] not in self._phrase_words
        ):
            return text
        folded = text.casefold()
        edge = re.search(r"[\W_]*$", folded)
        end = edge.start() if edge else len(folded)
        start = re.match(r"[\W_]*", folded).end()  # type: ignore[union-attr]
        for phrase, fake in self._phrases.items():
            for at in [m.start() for m in re.finditer(" ", phrase)]:
                head, tail = phrase[:at], phrase[at + 1 :]
                if " " in head and folded[:end].endswith(head):
                    begin = end - len(head)
                    if begin == 0 or not folded[begin - 1].isalnum():
                        text = text[:begin] + _cased_like(text[begin:end], fake[:at]) + text[end:]
                if " " in tail and folded[start:].startswith(tail):
                    stop = start + len(tail)
                    if stop == len(folded) or not folded[stop].isalnum():
                        faked = fake[at + 1 :]
                        text = text[:start] + _cased_like(text[start:stop], faked) + text[stop:]
        return text

    def _cut(self, text: str) -> str:
        """``text`` with what was cut short (``Kowalc…``, ``ajohnson@mail.ex…``) faked too.

        A datum too long for its place is drawn cut, with an ellipsis, before
        the line reaches the presenter: what is left of it is no whole word,
        number or address. The longest start of a learnt original that ends
        at the ellipsis becomes the same start of its fake (so a title cut
        short still reads as the fake id), and a cut address or number of no
        one learnt is faked by its shape.
        """
        parts = text.split(_ELLIPSIS)
        for index, before in enumerate(parts[:-1]):
            parts[index] = self._cut_end(before)
        return _ELLIPSIS.join(parts)

    def _cut_end(self, before: str) -> str:
        folded = before.casefold()
        best = 0
        fake = ""
        for original, replacement in self._lookup_all():
            for size in range(
                min(len(original) - 1, len(folded)), max(best, _SHORTEST_CUT - 1), -1
            ):
                start = len(folded) - size
                whole = start == 0 or not folded[start - 1].isalnum()
                if whole and folded.endswith(original[:size]):
                    best, fake = size, replacement[:size]
                    break
        if best:
            return before[: len(before) - best] + _cased_like(before[len(before) - best :], fake)
        shape = _CUT_SHAPE.search(before)
        if shape is not None and not _CUT_KEPT.fullmatch(shape.group().strip()):
            return before[: shape.start()] + self._fake_chars(shape.group(), "cut")
        return before

    def _lookup_all(self) -> Iterable[tuple[str, str]]:
        if self._pattern is None:
            self._compile()
        return self._lookup.items()

    def _replace(self, match: re.Match[str]) -> str:
        found = match.group()
        if found.casefold() in self._made:
            return found  # a fake drawn again (see _MADE_KEPT)
        fake = self._replace_new(match)
        if fake != found:
            self._made[fake.casefold()] = None
            if len(self._made) > _MADE_KEPT:
                del self._made[next(iter(self._made))]
        return fake

    def _replace_new(self, match: re.Match[str]) -> str:
        found = match.group()
        kind = match.lastgroup
        if kind == "word":
            fake = self._lookup.get(found.casefold())
            return _cased_like(found, fake) if fake is not None else self._fake_chars(found, "word")
        if kind == "date":
            return found
        if kind == "email":
            # The app's own address (the error catalogue's "write to ..."): no one's.
            # Imported here: the catalogue is not needed before the first fake.
            from accountdesk.contract.errors import SUPPORT_EMAIL

            return found if found.casefold() == SUPPORT_EMAIL else self._fake_email(found)
        if kind == "number":
            if _DATE.fullmatch(found) or _AMOUNT.fullmatch(found):
                return found
            cut = match.string[match.end() : match.end() + 1] == _ELLIPSIS
            if cut and _CUT_KEPT.fullmatch(found):  # a date or an amount cut short
                return found
            return self._fake_number(found)
        return self._last_four_of(found)

    # -- fakes: the original's length and width, drawn from the session's key ----------

    def _rng(self, kind: str, original: str) -> random.Random:
        # Here, not at start-up: hmac brings hashlib, which the app's first
        # frame does without (tests/tui/test_app_startup.py).
        import hmac

        digest = hmac.new(self._key, f"{kind}\0{original.casefold()}".encode(), "sha256")
        return random.Random(digest.digest())

    def _fake_id(self, user_id: str) -> str:
        return self._fake_chars(user_id, "user")

    def _fake_word(
        self, word: str, kind: str, words: Mapping[int, tuple[str, ...]] = _NAMES_BY_LENGTH
    ) -> str:
        """A name (or a place's word) of the same length, its case kept, where one exists; else a word of its shape.

        The same word, the same fake all session; two words, two fakes.
        """
        made = self._word_fakes.get((kind, word.casefold()))
        if made is not None:
            return _cased_like(word, made)
        rng = self._rng(kind, word)
        # Never an original learnt this session (a fake must not read as another
        # customer), nor another word's fake ("Bo Li" is not "Ng Ng").
        taken = self._known | self._given
        choices = [
            n
            for n in words.get(len(word), ())
            if n.casefold() != word.casefold() and n.casefold() not in taken
        ]
        if word.isascii() and word.isalpha() and choices:
            made = rng.choice(choices)
        else:
            made = self._fake_chars(word, kind)
        self._word_fakes[(kind, word.casefold())] = made
        self._given.add(made.casefold())
        return _cased_like(word, made)

    def _fake_place(self, text: str, kind: str) -> str:
        """A street or city: each word a place's word of its length, each number another.

        Word by word, so that a street's name reads the same alone ("Oak
        Lane") and with its number ("12 Oak Lane").
        """
        return "".join(
            self._fake_word(token, "place", _PLACES_BY_LENGTH)
            if token.isascii() and token.isalpha()
            else self._fake_chars(token, kind)
            for token in re.findall(r"[^\W\d_]+|\d+|[\W_]+", text)
        )

    def _fake_chars(self, text: str, kind: str) -> str:
        """Each letter a letter, each digit a digit, each wide character a wide letter; the rest kept."""
        rng = self._rng(kind, text)
        for _ in range(10):
            fake = "".join(_like(char, rng) for char in text)
            if fake.casefold() != text.casefold():
                return fake
        return fake

    def _fake_email(self, email: str) -> str:
        """Each part of the address faked: a learnt name as its fake, the rest by its shape.

        A mail provider's domain (gmail.com) and the top-level domain are no
        one's: kept. Any other domain (a family's, an employer's) is faked.
        """
        local, _, domain = email.partition("@")
        parts = re.split(r"([._+-])", local)
        faked = "".join(
            part
            if not part or part in "._+-"
            else _cased_like(part, self._lookup[part.casefold()])
            if part.casefold() in self._lookup
            else self._fake_chars(part, "email")
            for part in parts
        )
        labels = domain.split(".")
        if domain.casefold() not in _MAIL_PROVIDERS:
            # The top level, and a country's second level ("co" of yamada.co.jp), are no one's.
            public = 2 if len(labels) > 2 and labels[-2].casefold() in _SECOND_LEVEL else 1
            labels = [self._fake_chars(label, "domain") for label in labels[:-public]] + labels[
                -public:
            ]
        return f"{faked}@{'.'.join(labels)}"

    def _fake_number(self, number: str) -> str:
        digits = re.sub(r"\D", "", number)
        rng = self._rng("number", digits)
        head = "".join(str(rng.randint(0, 9)) for _ in digits[:-4])
        if head and head[0] == "0" and digits[0] != "0":
            head = str(rng.randint(1, 9)) + head[1:]
        feed = iter(head + self._last_four_of(digits[-4:]))
        return "".join(next(feed) if char.isdigit() else char for char in number)

    def _last_four_of(self, four: str) -> str:
        rng = self._rng("last four", four)
        for _ in range(10):
            fake = f"{rng.randint(0, 9999):04d}"
            if fake != four:
                return fake
        return fake


def _texts(value: Any) -> list[str]:
    return [item.strip() for item in value or () if isinstance(item, str) and item.strip()]


def _bounded(word: str) -> str:
    """``word`` as a pattern that matches it only whole (not inside a longer word or number)."""
    escaped = re.escape(word)
    start = r"(?<![\w])" if word[:1].isalnum() else ""
    end = r"(?![\w])" if word[-1:].isalnum() else ""
    if word[:1].isdigit():  # a number learnt is not the start of an amount's digits
        start = r"(?<![\w.,])"
    if word[-1:].isdigit():  # nor its whole part ("1234567.89")
        end = r"(?![\w]|[.,]\d)"
    return f"{start}{escaped}{end}"


def _cased_like(found: str, fake: str) -> str:
    """``fake`` in ``found``'s case: ``AVERY`` -> ``QUINN``, ``avery`` -> ``quinn``."""
    if len(fake) != len(found):
        return fake
    if found.isupper():
        return fake.upper()
    if found.islower():
        return fake.lower()
    return "".join(
        f.upper() if o.isupper() else f.lower() if o.islower() else f
        for o, f in zip(found, fake, strict=True)
    )


def _like(char: str, rng: random.Random) -> str:
    """A character of ``char``'s kind and width (the same cells on a terminal)."""
    if char.isdigit():
        return str(rng.randint(0, 9))
    if unicodedata.east_asian_width(char) in ("W", "F"):
        return chr(0xFF21 + rng.randint(0, 25))  # a fullwidth letter: two cells, as it was
    if char.isalpha():
        letter = chr(97 + rng.randint(0, 25))
        return letter.upper() if char.isupper() else letter
    return char
