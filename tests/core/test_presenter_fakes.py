"""Presenter mode's fakes (core.presenting): what is replaced, what stays, and that it stays put."""

from __future__ import annotations

import re

import pytest
from rich.cells import cell_len

from accountdesk.core.presenting import Presenter

IDENTITY = {
    "user_id": "user_good",
    "names": ["Avery Johnson"],
    "emails": ["avery.johnson@example.com", "ajohnson@mail.example.org"],
    "phone_numbers": ["+1 312 555 0142"],
    "addresses": [
        {
            "street": "1400 N Lake Shore Dr Apt 12B",
            "city": "Chicago",
            "region": "IL",
            "postal_code": "60610",
            "country": "US",
        }
    ],
}
ACCOUNT = {
    "account_name": "Avery's Checking",
    "account_number": "000123456789",
    "routing_number": "021000021",
}
#: Each original, and the texts it was drawn in on some screen.
ORIGINALS = [
    "user_good",
    "Avery",
    "Johnson",
    "avery.johnson@example.com",
    "ajohnson",
    "mail.example",
    "312 555 0142",
    "0142",
    "1400 N Lake Shore Dr",
    "Lake Shore",
    "Chicago",
    "60610",
    "123456789",
    "6789",
    "021000021",
    "0021",
]
LINES = [
    "Account  user_good · Avery's Checking",
    "Number   000123456789   Routing 021000021",
    "Number   ••••6789",
    "Names    Avery Johnson",
    "E-mails  avery.johnson@example.com, ajohnson@mail.example.org",
    "Phones   +1 312 555 0142",
    "Address  1400 N Lake Shore Dr Apt 12B, Chicago IL 60610 US",
    "2026-11-03  Transfer to AVERY JOHNSON  -250.00  posted",
    "2026-11-04  Zelle from johnson a       1,204.55  pending",
    "MFA      Enter the 4-digit code sent to the phone ending 0142",
    "AC-104   user_good: the phone ending 0142 did not answer",
]


def presenter() -> Presenter:
    chosen = Presenter(active=True, key=b"k" * 32)
    chosen.learn("user_good", account=ACCOUNT, identity=IDENTITY)
    return chosen


def test_not_presenting_shows_every_text_as_it_is() -> None:
    quiet = Presenter(key=b"k" * 32)
    quiet.learn("user_good", account=ACCOUNT, identity=IDENTITY)
    assert [quiet.text(line) for line in LINES] == LINES


@pytest.mark.parametrize("line", LINES)
def test_no_original_is_left_in_a_line_and_the_line_keeps_its_cells(line: str) -> None:
    shown = presenter().text(line)
    assert shown != line
    assert cell_len(shown) == cell_len(line) and len(shown) == len(line)
    for original in ORIGINALS:
        assert original.casefold() not in shown.casefold(), (original, shown)


def test_amounts_dates_statuses_and_codes_stay() -> None:
    chosen = presenter()
    for line in LINES:
        shown = chosen.text(line)
        for kept in re.findall(r"\d{4}-\d\d-\d\d|-?[\d,]+\.\d\d|AC-\d{3}|posted|pending", line):
            assert kept in shown, (kept, shown)
    text = "Balance 12,345.67 as of 2026-11-03 · job 5c1d... 40% AC-112 · 2026-11-20 09:30:00 UTC"
    assert chosen.text(text) == text


def test_the_same_customer_looks_the_same_everywhere_and_the_last_four_agree() -> None:
    chosen = presenter()
    whole = chosen.text("000123456789")
    masked = chosen.text("••••6789")
    assert masked == f"••••{whole[-4:]}"
    phone = chosen.text("+1 312 555 0142")
    assert chosen.text("the phone ending 0142").endswith(re.sub(r"\D", "", phone)[-4:])
    assert chosen.text("Avery Johnson") == chosen.text("Avery Johnson")
    first, last = chosen.text("Avery Johnson").split()
    assert chosen.text("Avery's Checking") == f"{first}'s Checking"
    assert chosen.text("TRANSFER TO JOHNSON") == f"TRANSFER TO {last.upper()}"
    # A name's fake is a name, the original's length, in its case.
    assert first.istitle() and len(first) == len("Avery")


def test_each_session_fakes_anew_and_says_nothing_of_the_originals() -> None:
    one, two = Presenter(active=True), Presenter(active=True)
    for each in (one, two):
        each.learn("user_good", account=ACCOUNT, identity=IDENTITY)
    line = " ".join(LINES)
    assert one.text(line) != two.text(line)


def test_a_fake_is_never_another_customers_name() -> None:
    chosen = Presenter(active=True, key=b"k" * 32)
    # Every name a fake of a 4-letter name could be, learnt as customers' first.
    names = ["Alex", "Dana", "Eden", "Gray", "Lane", "Noor", "Umar", "Wren", "Yael", "Zion"]
    names += ["Hugo", "Ines", "Luca", "Esme", "Kerr", "Lund", "Moss", "Shaw", "Tran", "Hale"]
    for position, name in enumerate(names):
        chosen.learn(f"user_{position}", identity={"names": [f"{name} Smith"]})
    chosen.learn("user_x", identity={"names": ["Rosa Smith"]})
    assert chosen.text("Rosa").casefold() not in {name.casefold() for name in names}


def test_user_ids_met_are_faked_in_titles_paths_and_lists() -> None:
    chosen = Presenter(active=True, key=b"k" * 32)
    chosen.learn_user_ids(["user_good", "acct-8841"])
    for line in ["Account · user_good", "/accounts/acct-8841/balance", "acct-8841  user_good"]:
        shown = chosen.text(line)
        assert "user_good" not in shown and "acct-8841" not in shown and len(shown) == len(line)
    assert chosen.user_id("user_new") != "user_new"
    assert chosen.text("user_new") == chosen.user_id("user_new")
    # A word that only holds a user id is not one.
    assert chosen.text("user_goodness") == "user_goodness"


def test_shapes_are_found_in_a_customer_never_read() -> None:
    chosen = Presenter(active=True, key=b"k" * 32)
    line = "Call +44 20 7946 0958 or mail r.ng@family-ng.net; card ending 4417"
    shown = chosen.text(line)
    for original in ("7946", "0958", "r.ng", "family-ng", "4417"):
        assert original not in shown
    assert shown.endswith(shown[-4:]) and len(shown) == len(line)
    assert "@gmail.com" in chosen.text("ann@gmail.com")  # a provider is nobody's


def test_wide_characters_keep_their_cells() -> None:
    chosen = Presenter(active=True, key=b"k" * 32)
    chosen.learn("u_1", identity={"names": ["山田 太郎"], "addresses": [{"city": "東京都港区"}]})
    line = "名前 山田 太郎 · 東京都港区"
    shown = chosen.text(line)
    assert cell_len(shown) == cell_len(line)
    assert "山田" not in shown and "東京都港区" not in shown


def test_a_datum_cut_short_is_faked_as_the_start_of_its_fake() -> None:
    chosen = presenter()
    whole = chosen.text("Account · user_good")
    assert chosen.text("Account · user_go…") == whole[: len("Account · user_go")] + "…"
    cut = chosen.text("Zelle to AVERY JOHNS…")
    assert (
        "JOHNS" not in cut
        and cut.startswith("Zelle to ")
        and len(cut) == len("Zelle to AVERY JOHNS…")
    )
    assert "Lake Sh" not in chosen.text("Address 1400 N Lake Sh…")
    for line in ("mail ajohnson@mail.ex…", "mail bob.smith@corp.ex…", "call +1 415 555 01…"):
        shown = chosen.text(line)
        assert shown.startswith(line[:5]) and shown[5:-1] != line[5:-1] and len(shown) == len(line)
    # What was cut and is no one's stays.
    assert chosen.text("Checking… Ch… 2026-11-0… 12,345.6…") == "Checking… Ch… 2026-11-0… 12,345.6…"


def test_what_was_read_is_known_and_only_the_rest_is_missing() -> None:
    chosen = Presenter(key=b"k" * 32)  # learnt while not presenting too
    assert chosen.missing("user_good") == ["account", "identity"]
    chosen.learn("user_good", account=ACCOUNT)
    assert chosen.missing("user_good") == ["identity"]
    chosen.tried("user_good", "identity")
    assert chosen.missing("user_good") == []
    chosen.active = True
    assert chosen.text("Avery's Checking") != "Avery's Checking"


# -- found trying it before a demo, with a customer whose data is awkward -------

AWKWARD_IDENTITY = {
    "names": ["Mary-Jane O'Neil-Smith", "Bo Li", "山田 太郎"],
    "emails": ["mj.oneil@oneilfamily.net"],
    "phone_numbers": ["(773) 555-0199"],
    "addresses": [
        {
            "street": "4410 North Clark Street Apartment 3 Rear Unit Building C",
            "city": "Rancho Santa Margarita",
            "postal_code": "92688-1234",
            "country": "US",
        }
    ],
}
AWKWARD_ACCOUNT = {
    "account_name": "Mary-Jane's Joint Checking",
    "account_number": "6023418857",
    "account_number_masked": "XXXXXX8857",
    "routing_number": "271070801",
}
#: Each line a reviewer saw drawn with an original in it, and that original.
AWKWARD_LINES = [
    ("Number       XXXXXX8857", "8857"),
    ("Balance unavailable (acct XXXXXX8857, phone 773-555-0199)", "8857"),
    ("Enter the code sent to XXX-XXX-0199", "0199"),
    ("2026-11-20  Zelle to O'NEIL  -20.00", "neil"),
    ("2026-11-19  Transfer from MARY-JANE  -30.00", "mary"),
    ("2026-11-18  Venmo *Smith  -40.00", "smith"),
    ("2026-11-17  Zelle to LI  -50.00", " li "),
    ("2026-11-16  Mary Jane ONeil Smith refund  -95.00", "oneil"),
    ("2026-11-15  Postal 92688 store  -11.00", "92688"),
    ("2026-11-14  Rent 4410 North Clark Street Apt 3  -70.00", "clark"),
    ("2026-11-13  to 太郎 100-0001  -50.00", "太郎"),
]


def awkward() -> Presenter:
    chosen = Presenter(active=True, key=b"k" * 32)
    chosen.learn("user_alpha", account=AWKWARD_ACCOUNT, identity=AWKWARD_IDENTITY)
    return chosen


@pytest.mark.parametrize(("line", "original"), AWKWARD_LINES)
def test_parts_of_names_masked_numbers_and_partial_addresses_are_faked(
    line: str, original: str
) -> None:
    shown = awkward().text(line)
    assert original.casefold() not in f" {shown.casefold()} ", shown
    assert len(shown) == len(line)


def test_a_masked_number_ends_as_its_revealed_fake_does() -> None:
    chosen = awkward()
    revealed = chosen.text("6023418857")
    assert chosen.text("XXXXXX8857") == f"XXXXXX{revealed[-4:]}"


def test_an_address_wrapped_over_two_lines_is_faked_on_both() -> None:
    chosen = awkward()
    whole = chosen.text("4410 North Clark Street Apartment 3 Rear Unit Building C")
    first = chosen.text("│ 4410 North Clark Street Apartment 3 │")
    second = chosen.text("│ Rear Unit Building C, Rancho Santa Margarita │")
    assert "clark" not in first.casefold() and "rear unit building" not in second.casefold()
    assert first == f"│ {whole[: len('4410 North Clark Street Apartment 3')]} │"


def test_what_is_drawn_twice_is_faked_once() -> None:
    # A dialog's screen draws the screen under it again; a dialog's text box
    # holds text already faked: neither may become a fake of the fake.
    chosen = presenter()
    for line in [*LINES, "write to someone@elsewhere.example or call 212-555-0101"]:
        once = chosen.text(line)
        assert chosen.text(once) == once, line


def test_compact_dates_and_the_apps_own_address_stay() -> None:
    chosen = presenter()
    for kept in [
        "CSV saved: transactions-user_good-20261129-035821.csv",
        "ACH debit ref 20261101",
        "write to support@accountdesk.example with the request id",
    ]:
        shown = chosen.text(kept)
        assert shown == kept.replace("user_good", chosen.text("user_good")), shown


def test_an_amount_holding_a_learnt_number_stays_an_amount() -> None:
    chosen = Presenter(active=True, key=b"k" * 32)
    chosen.learn("user_x", account={"account_number": "1234567"})
    assert chosen.text("Balance 1234567.89 USD") == "Balance 1234567.89 USD"
    assert "1234567" not in chosen.text("Account 1234567, ending 4567")


# -- found by a second look, with the same awkward customer ---------------------------

SECOND_LOOK = {
    "names": ["Mary-Jane O'Neil-Smith", "Bo Li", "José Núñez"],
    "emails": ["taro@yamada.co.jp"],
    "addresses": [
        {
            "street": "4410 North Clark Street Apartment 3",
            "city": "Rancho Santa Margarita",
            "postal_code": "92688",
        }
    ],
}


def second_look() -> Presenter:
    chosen = Presenter(active=True, key=b"k" * 32)
    chosen.learn("user_alpha", identity=SECOND_LOOK)
    return chosen


@pytest.mark.parametrize(
    ("line", "original"),
    [
        ("│ 12 Oak Summit Close, Rancho │", "rancho"),
        ("│ Margarita, CA, 92688, US │", "margarita"),
        ("Rent 4410 North Clark Street Apt 3", "4410"),
        ("Pago a NUNEZ JOSE", "nunez"),
        ("Pago a NUNEZ JOSE", "jose"),
    ],
)
def test_a_citys_words_a_house_number_and_a_name_without_its_accents_are_faked(
    line: str, original: str
) -> None:
    shown = second_look().text(line)
    assert original not in shown.casefold(), shown


def test_a_names_parts_are_faked_as_they_are_in_the_whole_name() -> None:
    chosen = second_look()
    whole = chosen.text("Mary-Jane O'Neil-Smith")
    first, last = whole.split()
    assert chosen.text("Mary Jane") == first.replace("-", " ")
    assert chosen.text("Zelle to O'NEIL") == f"Zelle to {last.split('-')[0].upper()}"
    assert chosen.text("Venmo *Smith") == f"Venmo *{last.split('-')[1]}"
    assert chosen.text("ONeil") == last.split("-")[0].replace("'", "")
    # Two names are two fakes, not one.
    assert chosen.text("Bo") != chosen.text("Li")


def test_a_second_level_domain_is_kept_as_the_top_level_one_is() -> None:
    shown = second_look().text("taro@yamada.co.jp")
    assert shown.endswith(".co.jp") and "yamada" not in shown
