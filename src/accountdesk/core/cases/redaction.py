"""Redaction of a recorded case: realistic fakes in place of a customer's identity and numbers.

A recording is redacted unless asked not to. :class:`Redactor` learns the
originals from what was read (account and routing numbers, names, e-mails,
phone numbers, street addresses, the user id) and replaces every occurrence
of each, in every text of the pack (a transaction description, an account
name, an error message, the MFA question), with a fake:

- numbers by numbers of the same shape (each digit a digit, separators
  kept; a 9-digit routing number keeps a valid ABA check digit); a number
  of 7 digits or more is found by its digits whatever the punctuation
  (``(312) 555-0199``, ``312-555-0199``, ``312.555.0199``) and its fake is
  written in the layout it was found in;
- names by names, e-mails by ``first.last@example.com`` of the fake name,
  phone numbers by 555-01xx numbers (the range kept for fiction) in the same
  layout, streets and cities by ordinary ones (a street also without its
  house number, and with its suffix written long or short: ``Oak Lane``,
  ``12 Oak Ln``), postal codes by the same shape;
- the user id by ``case_<n>``.

Deterministic: the same recording gives the same file. The fakes are drawn
from the case number and the position of each value, never from the value
itself, so a fake says nothing about the original (a hash of it would let
anyone confirm a guess). Standard library only.
"""

from __future__ import annotations

import random
import re
import unicodedata
from collections.abc import Iterator
from typing import Any

__all__ = [
    "EMAIL",
    "FOUND_IN_MESSAGE",
    "LAST_FOUR",
    "REDACTED_FIELDS",
    "STREET_WORDS",
    "Redactor",
    "case_id",
    "fields_redacted",
    "name_parts",
    "without_accents",
    "word_parts",
]

#: What a redacted recording replaced, as its header and ``recorded.redacted`` say.
REDACTED_FIELDS = (
    "account_number",
    "routing_number",
    "names",
    "emails",
    "phone_numbers",
    "addresses",
    "user_id",
)
#: Of those, what only the account record teaches (the rest: the identity record).
_FROM_ACCOUNT = frozenset({"account_number", "routing_number"})
#: What the error log's cases also replace: any e-mail address or long number in the message.
FOUND_IN_MESSAGE = "emails_and_numbers_in_the_message"
#: A pack user's keys that are the format's own words, never the customer's.
_FORMAT_KEYS = frozenset({"id", "recorded", "link_type", "answers"})


def fields_redacted(*, account: bool, identity: bool, message: bool = False) -> list[str]:
    """What a redaction replaced, as a header says it, when it learnt from these records.

    The user id always; the numbers only when the ``account`` record was read,
    the names, e-mails, phones and addresses only when ``identity`` was; and,
    for a case made from an error, what the ``message`` held.
    """
    learnt = [
        field
        for field in REDACTED_FIELDS
        if field == "user_id" or (account if field in _FROM_ACCOUNT else identity)
    ]
    return [*learnt, FOUND_IN_MESSAGE] if message else learnt


_FIRST_NAMES = (
    "Alex", "Bailey", "Cameron", "Dana", "Elliot", "Frankie", "Gray", "Harper", "Indra",
    "Jamie", "Kendall", "Logan", "Marlow", "Noor", "Oakley", "Parker", "Quinn", "Reese",
    "Sasha", "Tatum", "Umar", "Vivian", "Wren", "Xavi", "Yael", "Zion", "Amara", "Bruno",
    "Celine", "Dmitri", "Esme", "Farid", "Greta", "Hugo", "Ines", "Jonas", "Keiko", "Luca",
)  # fmt: skip
_LAST_NAMES = (
    "Abbott", "Barnes", "Castillo", "Dalton", "Ellison", "Fischer", "Garrison", "Holloway",
    "Ibarra", "Jansen", "Kowalski", "Lindqvist", "Moreau", "Nakamura", "Okonkwo", "Pereira",
    "Quintero", "Rasmussen", "Sorensen", "Takahashi", "Underwood", "Valdez", "Whitfield",
    "Yamamoto", "Zeller", "Ashford", "Brennan", "Calloway", "Delgado", "Everly",
)  # fmt: skip
_STREETS = (
    "Maple", "Cedar", "Willow", "Juniper", "Hawthorn", "Sycamore", "Linden", "Aspen",
    "Chestnut", "Magnolia", "Birch", "Alder", "Laurel", "Cypress", "Elm",
)  # fmt: skip
_SUFFIXES = ("St", "Ave", "Rd", "Ln", "Ct", "Pl", "Way", "Dr")
#: A street suffix's other spellings: "12 Oak Lane" is "12 Oak Ln" in a bank's text.
_SUFFIX_PAIRS = (
    ("Street", "St"), ("Avenue", "Ave"), ("Road", "Rd"), ("Lane", "Ln"), ("Court", "Ct"),
    ("Place", "Pl"), ("Drive", "Dr"), ("Boulevard", "Blvd"), ("Terrace", "Ter"),
    ("Parkway", "Pkwy"), ("Highway", "Hwy"), ("Circle", "Cir"), ("Square", "Sq"),
)  # fmt: skip
_SUFFIX_SPELLINGS = {
    spelling.casefold(): (long, short, f"{short}.")
    for long, short in _SUFFIX_PAIRS
    for spelling in (long, short)
}
#: What may stand between the digits of a number: a space, dot, dash, slash or bracket.
_BETWEEN_DIGITS = r"[ .()/\-]{0,3}"
#: Numbers this long or longer are found by their digits (phone, account, routing numbers).
_FOUND_BY_DIGITS = 7
#: What :meth:`Redactor.learn_from_text` finds in a text: e-mail addresses, long numbers.
EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_LONG_NUMBER = re.compile(r"(?<![\w+])\+?\d(?:[ .()/\-]{0,3}\d){6,}(?!\w)")
_DATE = re.compile(r"\d{4}-\d\d-\d\d|\d\d?/\d\d?/\d{4}")
#: The last four digits a text shows of a number: "ending 0147", "••••3756", "x3756",
#: "XXXXXX3756", "XXX-XXX-0147".
LAST_FOUR = re.compile(
    r"(?:(?<=ending )|(?<=ending in )|(?<=[•*·#])|(?<=\bx)|(?<=[Xx]{2})|(?<=[Xx•*][ -]))"
    r"\d{4}(?!\d)"
)
#: Words of a name that are words of many other texts too: never learnt alone.
_PARTICLES = frozenset(
    {"de", "da", "di", "du", "la", "le", "el", "al", "van", "von", "der", "den", "del",
     "bin", "ibn", "st", "mc", "jr", "sr", "ii", "iii", "iv", "and", "the", "of"}
)  # fmt: skip
#: A street's words that are every street's: never learnt alone (its name's other words are).
STREET_WORDS = frozenset(
    {"north", "south", "east", "west", "street", "avenue", "road", "lane", "drive",
     "boulevard", "court", "place", "terrace", "circle", "highway", "parkway", "square",
     "way", "apartment", "apt", "suite", "ste", "unit", "floor", "building", "bldg",
     "rear", "front", "upper", "lower", "first", "second", "third", "fourth", "fifth",
     "ave", "blvd", "hwy", "pkwy", "trail", "route", "box", "the"}
)  # fmt: skip
#: Fake names for e-mail addresses found in a text are drawn apart from the identity's.
_SEEN_IN_TEXT = 1_000
#: (city, state, first digits of its ZIP codes) in the United States.
_US_CITIES = (
    ("Springfield", "IL", "627"), ("Madison", "WI", "537"), ("Boise", "ID", "837"),
    ("Albany", "NY", "122"), ("Raleigh", "NC", "276"), ("Tucson", "AZ", "857"),
    ("Dayton", "OH", "454"), ("Fresno", "CA", "937"), ("Omaha", "NE", "681"),
    ("Tulsa", "OK", "741"), ("Spokane", "WA", "992"), ("Burlington", "VT", "054"),
)  # fmt: skip
_OTHER_CITIES = ("Riverton", "Lakeside", "Fairview", "Kingsbridge", "Millbrook", "Westvale")
#: Area codes in use: a fake number looks like a number, its 555-01xx line is fiction.
_AREA_CODES = ("212", "303", "312", "404", "415", "503", "512", "602", "617", "702", "919")


def case_id(number: int) -> str:
    """The id a redacted recording's user gets: ``case_1``, ``case_2``..."""
    return f"case_{number}"


class Redactor:
    """Replaces a customer's identifying values in a pack user (see the module docstring)."""

    def __init__(self, case_number: int) -> None:
        self.case_number = case_number
        self.user_id = case_id(case_number)
        #: original (as found) -> fake, every variant of every value.
        self._fakes: dict[str, str] = {}
        self._pattern: re.Pattern[str] | None = None
        self._lookup: dict[str, str] = {}
        #: Last four digits of numbers shown masked (``••••1450``, "phone ending 0142").
        self._last_four: dict[str, str] = {}
        #: A long number's digits -> its fake's, found whatever separates the digits.
        self._digits: dict[str, str] = {}

    def _rng(self, what: str, position: int) -> random.Random:
        # Seeded by the case and the place, never by the value (see the module docstring).
        return random.Random(f"accountdesk-redaction:{self.case_number}:{what}:{position}")

    # -- learning the originals ------------------------------------------------

    def learn(
        self,
        *,
        user_id: str,
        account: dict[str, Any] | None,
        identity: dict[str, Any] | None,
    ) -> None:
        """Learn what to replace from the account and identity records that were read."""
        self._add(user_id, self.user_id)
        account = account or {}
        for field, make in (("account_number", _same_shape), ("routing_number", _routing)):
            value = account.get(field)
            if isinstance(value, str) and value.strip():
                fake = make(value, self._rng(field, 0))
                self._add_number(value, fake)
        identity = identity or {}
        names = [n for n in identity.get("names") or () if isinstance(n, str) and n.strip()]
        fake_names = [self._fake_name(position, name) for position, name in enumerate(names)]
        for name, fake in zip(names, fake_names, strict=True):
            self._add_name(name, fake)
        owner = fake_names[0] if fake_names else self._fake_name(0, "")
        emails = [e for e in identity.get("emails") or () if isinstance(e, str) and e.strip()]
        for position, email in enumerate(emails):
            self._add(email, _fake_email(owner, position))
        phones = [p for p in identity.get("phone_numbers") or () if isinstance(p, str)]
        for position, phone in enumerate(phones):
            if phone.strip():
                fake = _fake_phone(phone, self._rng("phone", position))
                self._add_number(phone, fake)
                # The number as dialled at home: without its country code.
                national, fake_national = _national(phone), _national(fake)
                if national and fake_national:
                    self._add(national, fake_national)
        for position, address in enumerate(identity.get("addresses") or ()):
            if isinstance(address, dict):
                self._learn_address(position, address)
        # "Sam's Savings": an owner's name, even when identity could not be read.
        owner_word = re.match(r"([^\W\d_]{2,})['’]s\b", str(account.get("account_name") or ""))
        if owner_word is not None:
            self._add(owner_word.group(1), owner.split()[0])
        self._pattern = None

    def learn_from_text(self, text: str) -> None:
        """Also replace each e-mail address and number of 7 digits or more found in ``text``.

        For a text whose originals no record told (an error message met
        without the user's identity): a name cannot be found this way, an
        e-mail address or a phone or account number can. A date is a date.
        """
        emails = dict.fromkeys(EMAIL.findall(text))
        for position, email in enumerate(emails):
            owner = self._fake_name(_SEEN_IN_TEXT + position, "")
            self._add(email, _fake_email(owner, position))
        numbers = [n for n in dict.fromkeys(_LONG_NUMBER.findall(text)) if not _DATE.fullmatch(n)]
        for position, number in enumerate(numbers):
            self._add_number(number, _fake_phone(number, self._rng("seen", position)))
        self._pattern = None

    def _fake_name(self, position: int, original: str) -> str:
        rng = self._rng("name", position)
        for _ in range(10):
            fake = f"{rng.choice(_FIRST_NAMES)} {rng.choice(_LAST_NAMES)}"
            if fake.casefold() != original.casefold():
                return fake
        return fake

    def _add_name(self, name: str, fake: str) -> None:
        self._add(name, fake)
        # Each part on its own ("Avery's Checking", "Transfer to JOHNSON", "Zelle to
        # O'NEIL" of O'Neil-Smith): the first word's parts as the fake's first name.
        fake_parts = fake.split()
        first, last = fake_parts[0], fake_parts[-1]
        own_first = set(name_parts(name.split()[0])) if name.split() else set()
        for part in name_parts(name):
            self._add(part, first if part in own_first else last)

    def _add_number(self, value: str, fake: str) -> None:
        self._add(value, fake)
        digits, fake_digits = re.sub(r"\D", "", value), re.sub(r"\D", "", fake)
        if len(digits) >= _FOUND_BY_DIGITS and len(digits) == len(fake_digits):
            # The same number however it is punctuated: 312-555-0199 for (312) 555-0199.
            self._digits.setdefault(digits, fake_digits)
        if len(digits) >= 4 and len(fake_digits) >= 4:
            self._last_four[digits[-4:]] = fake_digits[-4:]

    def _learn_address(self, position: int, address: dict[str, Any]) -> None:
        rng = self._rng("address", position)
        country = address.get("country")
        american = not country or str(country).upper() in {"US", "USA", "UNITED STATES"}
        city, region, zip_prefix = rng.choice(_US_CITIES)
        street = address.get("street")
        if isinstance(street, str) and street.strip():
            fake = f"{rng.randint(10, 9899)} {rng.choice(_STREETS)} {rng.choice(_SUFFIXES)}"
            self._add(street, fake)
            self._learn_street_name(street, fake)
        for field, fake in (("city", city if american else rng.choice(_OTHER_CITIES)),):
            value = address.get(field)
            if isinstance(value, str) and value.strip():
                self._add(value, fake)
        region_value = address.get("region")
        if american and isinstance(region_value, str) and region_value.strip():
            self._fakes.setdefault(_address_key("region", position, region_value), region)
        postal = address.get("postal_code")
        if isinstance(postal, str) and postal.strip():
            fake = _same_shape(postal, rng)
            if american and re.fullmatch(r"\d{5}(-\d{4})?", postal):
                fake = zip_prefix + fake[3:]
            self._add_number(postal, fake)
            # Its first part alone ("92688" of "92688-1234").
            head, dash, _ = postal.strip().partition("-")
            if dash and len(head) >= 4:
                self._add(head, fake[: len(head)])

    def _learn_street_name(self, street: str, fake: str) -> None:
        """A street's name on its own and with its suffix's other spelling (``Oak Ln``)."""
        number = re.match(r"\s*(\d+[A-Za-z]?)\s+", street)
        name = street[number.end() :].strip() if number else street.strip()
        words = name.split()
        if len(words) < 2 or len(name) < 5:
            return  # one word ("Broadway") is too often a word of other texts
        fake_name = fake.partition(" ")[2]
        # Its own words alone ("Clark" of "North Clark Street"): a description may
        # hold the start of it ("Rent 4410 North Clark Street Apt 3").
        for word in re.findall(r"[^\W\d_]{3,}", name):
            if word.casefold() not in STREET_WORDS:
                self._add(word, fake_name.split()[0])
        spellings = _SUFFIX_SPELLINGS.get(words[-1].rstrip(".").casefold(), ())
        for suffix in (words[-1], *spellings):
            variant = " ".join([*words[:-1], suffix])
            self._add(variant, fake_name)
            if number:
                self._add(f"{number.group(1)} {variant}", fake)

    def _add(self, original: str, fake: str) -> None:
        if original and original not in self._fakes:
            self._fakes[original] = fake

    # -- replacing --------------------------------------------------------------

    @property
    def originals(self) -> list[str]:
        """Every value that is replaced (for tests and the header's count)."""
        return [value for value in self._fakes if not value.startswith("\0")]

    def text(self, text: str) -> str:
        """``text`` with every original replaced by its fake (whole words and numbers only).

        The last four digits of a learnt number, where a text says they are
        (``card ending 4417``, ``••••4417``, ``x4417``), become its fake's.
        """
        if not self._fakes or not text:
            return text
        pattern = self._compiled()
        lookup = self._lookup  # built with the pattern: this runs for every text of a statement
        text = pattern.sub(
            lambda match: lookup.get(match.group().lower()) or self._fake_of(match.group()), text
        )
        if self._last_four:
            last_four = self._last_four
            text = LAST_FOUR.sub(lambda match: last_four.get(match.group(), match.group()), text)
        return text

    def _fake_of(self, found: str) -> str:
        fake_digits = self._digits.get(re.sub(r"\D", "", found))
        if fake_digits is not None:
            return _into_layout(found, fake_digits)
        # Case folding beyond lower() (rare scripts): find the original the pattern matched.
        for value, fake in self._fakes.items():
            if re.fullmatch(re.escape(value), found, re.IGNORECASE):
                return fake
        return self.user_id  # never the original

    def masked(self, text: str) -> str:
        """A masked number or a question naming last digits: the fake's last four in their place."""
        text = self.text(text)
        for original, fake in self._last_four.items():
            text = re.sub(rf"(?<!\d){original}(?!\d)", fake, text)
        return text

    def region(self, position: int, region: str) -> str:
        """An address's region: the fake city's state for an American address, else as it was."""
        return self._fakes.get(_address_key("region", position, region), region)

    def _compiled(self) -> re.Pattern[str]:
        if self._pattern is None:
            values = sorted(self.originals, key=len, reverse=True)
            # Written values first: at one place, the longest written form wins.
            alternatives = [_bounded(value) for value in values]
            alternatives += [_any_punctuation(digits) for digits in self._digits]
            self._pattern = re.compile("|".join(alternatives), re.IGNORECASE)
            self._lookup = {value.lower(): fake for value, fake in self._fakes.items()}
        return self._pattern

    def pack_user(self, user: dict[str, Any]) -> dict[str, Any]:
        """``user`` (a pack user's plain data) with every text of the customer's replaced.

        Every value passes :meth:`value`, but the format's own words (the id,
        given as already redacted; ``recorded``; ``link_type``); a forced
        answer's message passes :meth:`text`; the MFA question keeps its
        shape (:meth:`masked`: "the phone ending ••47").
        """
        out = {
            key: (value if key in _FORMAT_KEYS else self.value(value))
            for key, value in user.items()
        }
        answers = [
            {**answer, "message": self.text(answer["message"])}
            for answer in user.get("answers", [])
        ]
        if answers:
            out["answers"] = answers
        else:
            out.pop("answers", None)
        mfa = out.get("mfa")
        if isinstance(mfa, dict) and "question" in mfa:
            mfa["question"] = self.masked(mfa["question"])
        return out

    def value(self, value: Any) -> Any:
        """Every string inside ``value`` (dicts and lists walked) through :meth:`text`."""
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, list):
            return [self.value(item) for item in value]
        if isinstance(value, dict):
            return {key: self.value(item) for key, item in value.items()}
        return value


def name_parts(name: str) -> list[str]:
    """Each part of ``name`` that may be met alone: ``Mary-Jane O'Neil-Smith`` gives
    Mary-Jane, Mary, Jane, O'Neil-Smith, O'Neil, ONeil, Neil, Smith (and ``Bo Li``: Bo, Li;
    ``José Núñez``: José, Jose, Núñez, Nunez).

    Two letters are a name's part when they are one of its words (never
    "de", "van" and the like); two wide characters too (太郎).
    """
    return list(dict.fromkeys(part for word in name.split() for part, _ in word_parts(word, word)))


def word_parts(word: str, fake: str) -> Iterator[tuple[str, str]]:
    """Each part of a name's ``word`` that may be met alone, with the same part of ``fake``.

    ``fake`` has the word's length and its punctuation where the word has it
    (presenter mode's fakes): a part's fake is then the fake's same cells, so
    a name reads the same whole and in parts. The recorder passes the word
    itself and keeps the parts alone.
    """
    kept = '.,()"'
    start = len(word) - len(word.lstrip(kept))
    end = len(word.rstrip(kept))
    pairs = [(word[start:end], fake[start:end])]
    for split in (r"[^-‐'’]+", r"[^-‐]+"):  # at hyphens and apostrophes; at hyphens
        whole, whole_fake = pairs[0]
        pairs += [
            (whole[m.start() : m.end()], whole_fake[m.start() : m.end()])
            for m in re.finditer(split, whole)
        ]
    for part, part_fake in list(pairs):
        # "ONeil" for O'Neil: the same cells without the apostrophe.
        kept_at = [i for i, char in enumerate(part) if char not in "'’"]
        if len(kept_at) < len(part):
            pairs.append(
                ("".join(part[i] for i in kept_at), "".join(part_fake[i] for i in kept_at))
            )
    for part, part_fake in list(pairs):
        plain = without_accents(part)
        if plain != part:  # "NUNEZ" for Núñez
            pairs.append((plain, part_fake))
    for part, part_fake in dict(pairs).items():
        short = len(part) < 2 or part.casefold() in _PARTICLES
        if not short:
            yield part, part_fake


def without_accents(text: str) -> str:
    """``text`` with each accented letter as its plain one (Núñez: Nunez), of the same length."""
    plain = []
    for char in text:
        base = "".join(
            c for c in unicodedata.normalize("NFKD", char) if not unicodedata.combining(c)
        )
        plain.append(base if len(base) == 1 else char)
    return "".join(plain)


def _address_key(field: str, position: int, value: str) -> str:
    # Kept apart from the texts replaced everywhere: a region ("IL") is a word in many texts.
    return f"\0{field}:{position}:{value}"


def _bounded(value: str) -> str:
    """``value`` as a pattern that matches it only as a whole word or number."""
    escaped = re.escape(value)
    start = r"(?<![0-9A-Za-z])" if value[:1].isalnum() else ""
    end = r"(?![0-9A-Za-z])" if value[-1:].isalnum() else ""
    return f"{start}{escaped}{end}"


def _any_punctuation(digits: str) -> str:
    """``digits`` as a pattern that finds them with separators between (not within a longer number)."""
    return r"(?<![0-9])" + _BETWEEN_DIGITS.join(digits) + r"(?![0-9])"


def _same_shape(value: str, rng: random.Random) -> str:
    """Each digit another digit, each letter another letter of its case; the rest kept."""
    for _ in range(10):
        out = []
        for position, char in enumerate(value):
            if char.isdigit():
                low = 1 if position == 0 and char != "0" else 0
                out.append(str(rng.randint(low, 9)))
            elif "a" <= char <= "z":
                out.append(chr(rng.randint(97, 122)))
            elif "A" <= char <= "Z":
                out.append(chr(rng.randint(65, 90)))
            else:
                out.append(char)
        fake = "".join(out)
        if fake != value:
            return fake
    return fake


def _routing(value: str, rng: random.Random) -> str:
    """A 9-digit routing number keeps a valid ABA check digit; any other shape, its shape."""
    if not re.fullmatch(r"\d{9}", value):
        return _same_shape(value, rng)
    for _ in range(10):
        first_eight = f"{rng.randint(1, 12):02d}" + "".join(
            str(rng.randint(0, 9)) for _ in range(6)
        )
        weights = (3, 7, 1, 3, 7, 1, 3, 7)
        total = sum(int(d) * w for d, w in zip(first_eight, weights, strict=True))
        fake = first_eight + str((10 - total % 10) % 10)
        if fake != value:
            return fake
    return fake


def _fake_email(owner: str, position: int) -> str:
    first, _, last = owner.lower().partition(" ")
    domains = ("example.com", "mail.example.org", "example.net")
    local = f"{first}.{last}" if position % 2 == 0 else f"{first[:1]}{last}"
    suffix = "" if position < len(domains) else str(position)
    return f"{local}{suffix}@{domains[position % len(domains)]}"


def _fake_phone(phone: str, rng: random.Random) -> str:
    """A 555-01xx number in the original's layout (North American), else the same shape."""
    digits = re.sub(r"\D", "", phone)
    if len(digits) in (10, 11) and (len(digits) == 10 or digits[0] == "1"):
        fake = (digits[0] if len(digits) == 11 else "") + rng.choice(_AREA_CODES) + "55501"
        fake += f"{rng.randint(0, 99):02d}"
        return _into_layout(phone, fake)
    if phone.startswith("+"):
        # Keep the country code (up to the first separator): a fake of the same country.
        code, sep, rest = phone.partition(" ")
        return code + sep + _same_shape(rest, rng) if sep else "+" + _same_shape(phone[1:], rng)
    return _same_shape(phone, rng)


def _national(phone: str) -> str:
    """A phone number's digits without its country code (``+1 (415) 555-2671`` -> 4155552671)."""
    digits = re.sub(r"\D", "", phone)
    code = re.match(r"\+(\d{1,3})\D", phone)
    if code is not None:
        national = digits[len(code.group(1)) :]
    elif len(digits) == 11 and digits.startswith("1"):
        national = digits[1:]
    else:
        return ""
    return national if len(national) >= 7 else ""


def _into_layout(layout: str, digits: str) -> str:
    """``digits`` written in ``layout``'s places (``+1 312 555 0142``)."""
    feed: Iterator[str] = iter(digits)
    return "".join(next(feed, "0") if char.isdigit() else char for char in layout)
