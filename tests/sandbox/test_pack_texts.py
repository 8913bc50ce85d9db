"""A pack's texts are held to the tour files' rule: no escape, control character or bidi mark.

A pack is a file a trainer receives from elsewhere and prints
(``accountdesk scenarios check``) or serves: every text it carries is
refused, with one line naming the field, when it holds anything a terminal
would obey (issue 33, item 1).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from accountdesk.sandbox import load_scenarios
from accountdesk.sandbox.packs.reading import PackError

#: What a hostile pack writes: a screen wipe, a clipboard write, a link, a bidi override.
HOSTILE = {
    "ESC[2J": "\x1b[2J",
    "OSC 52": "\x1b]52;c;aGVsbG8=\x07",
    # Short enough for the shortest text (a currency, 16 characters): refused for what it is.
    "OSC 8": "\x1b]8;;e\x07x\x1b]8;;\x07",
    "U+202E": "abc\u202edef",
}

#: Every free text of a pack: (the TOML with X where the text goes, the field as a problem names it).
TEXT_FIELDS = [
    ("title = X\n[[users]]\nid = 'case_1'\n", "title"),
    ("description = X\n[[users]]\nid = 'case_1'\n", "description"),
    ("[[credentials]]\napi_key = 'k'\napi_secret = X\n", "credentials[1].api_secret"),
    ("[[users]]\nid = 'case_1'\nsummary = X\n", "users[1] (case_1).summary"),
    ("[[users]]\nid = 'case_1'\ndescription = X\n", "users[1] (case_1).description"),
    *(
        (
            f"[[users]]\nid = 'case_1'\n[users.account]\n{name} = X\n",
            f"users[1] (case_1).account.{name}",
        )
        for name in (
            "institution_name",
            "account_name",
            "account_type",
            "account_number",
            "account_number_masked",
            "routing_number",
            "currency",
        )
    ),
    (
        "[[users]]\nid = 'case_1'\n[users.balance]\ncurrency = X\n",
        "users[1] (case_1).balance.currency",
    ),
    *(
        (
            f"[[users]]\nid = 'case_1'\n[users.identity]\n{name} = [X]\n",
            f"users[1] (case_1).identity.{name}[1]",
        )
        for name in ("names", "emails", "phone_numbers")
    ),
    *(
        (
            f"[[users]]\nid = 'case_1'\n[[users.identity.addresses]]\n{name} = X\n",
            f"users[1] (case_1).identity.addresses[1].{name}",
        )
        for name in ("street", "city", "region", "postal_code", "country")
    ),
    *(
        (
            (
                "[[users]]\nid = 'case_1'\n[users.transactions]\n"
                f"rows = [{{transaction_id = 't1', amount = '1.00', {name} = X}}]\n"
            ),
            f"users[1] (case_1).transactions.rows[1].{name}",
        )
        for name in ("description", "category")
    ),
    (
        "[[users]]\nid = 'case_1'\n[users.transactions]\nrows = [{transaction_id = X, amount = '1.00'}]\n",
        "users[1] (case_1).transactions.rows[1].transaction_id",
    ),
    (
        "[[users]]\nid = 'case_1'\n[users.transactions]\ncurrency = X\n",
        "users[1] (case_1).transactions.currency",
    ),
    (
        "[[users]]\nid = 'case_1'\n[[users.answers]]\nendpoint = 'get_balance'\ncode = 'AC-104'\nmessage = X\n",
        "users[1] (case_1).answers[1].message",
    ),
    (
        "[[users]]\nid = 'case_1'\n[users.mfa]\nanswer = '1234'\nquestion = X\n",
        "users[1] (case_1).mfa.question",
    ),
    ("[[users]]\nid = 'case_1'\n[users.mfa]\nanswer = X\n", "users[1] (case_1).mfa.answer"),
    (
        "[[users]]\nid = 'case_1'\n[users.jobs.identity.fail]\ncode = 'AC-104'\nmessage = X\n",
        "users[1] (case_1).jobs.identity.fail.message",
    ),
    *(
        (
            (
                "[[users]]\nid = 'case_1'\n[users.recorded]\nservice = 's'\n"
                f"at = 2026-03-02T09:00:00Z\n{name} = {value}\n"
            ),
            f"users[1] (case_1).recorded.{shown}",
        )
        for name, value, shown in (
            ("by", "X", "by"),
            ("notes", "[X]", "notes[1]"),
            ("redacted", "[X]", "redacted[1]"),
        )
    ),
    (
        "[[users]]\nid = 'case_1'\n[users.recorded]\nservice = X\nat = 2026-03-02T09:00:00Z\n",
        "users[1] (case_1).recorded.service",
    ),
]


def _pack(tmp_path: Path, template: str, text: str) -> Path:
    path = tmp_path / "pack.toml"
    # JSON's string escapes (\u001b, \u202e, \\) are TOML's too.
    path.write_text(template.replace("X", json.dumps(text)), encoding="utf-8")
    return path


@pytest.mark.parametrize(("template", "field"), TEXT_FIELDS, ids=[f for _, f in TEXT_FIELDS])
@pytest.mark.parametrize("hostile", list(HOSTILE.values()), ids=list(HOSTILE))
def test_every_text_of_a_pack_refuses_what_a_terminal_would_obey(
    tmp_path: Path, template: str, field: str, hostile: str
) -> None:
    path = _pack(tmp_path, template, hostile)
    with pytest.raises(PackError) as caught:
        load_scenarios([path])
    problems = caught.value.problems
    assert len(problems) == 1, problems
    (problem,) = problems
    assert problem.startswith(f"{path}: line ") and f": {field}: " in problem
    assert problem.endswith("control characters are not allowed (escapes, bidi marks)")
    assert "\x1b" not in problem and "\u202e" not in problem and "\x07" not in problem


@pytest.mark.parametrize(("template", "field"), TEXT_FIELDS, ids=[f for _, f in TEXT_FIELDS])
def test_the_same_fields_take_plain_text(tmp_path: Path, template: str, field: str) -> None:
    # The rule refuses what a terminal obeys, not text: accents, symbols, emoji.
    load_scenarios([_pack(tmp_path, template, "Crédit • €12 ✓")])


def test_a_description_may_run_over_lines(tmp_path: Path) -> None:
    # A paragraph in a TOML multi-line string: its newlines are not escapes.
    path = tmp_path / "pack.toml"
    path.write_text(
        'description = """First line.\nSecond line."""\n[[users]]\nid = "case_1"\n'
        'description = """One.\nTwo."""\n',
        encoding="utf-8",
    )
    assert load_scenarios([path]).sources[-1].description == "First line.\nSecond line."
