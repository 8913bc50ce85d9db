"""Presenter mode in the dashboard: nothing of the customer's is drawn, on any screen or dialog.

Every shipped scenario user, the example pack's and a pack user with the
customer's data in every text field (``presenting_pack.toml``) is walked
through every screen that shows a customer (account with the numbers
revealed, identity, transactions, the MFA dialog, jobs, the error log, the
lookup screen's recents) while presenting, and what the terminal shows is
read as composited: no original value, nor a first or last name alone, nor
the last four digits of a phone, account or routing number.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Button, Checkbox
from tui_helpers import FROZEN_NOW, open_account, screen_text, settle, sign_in, toast_titles

from accountdesk.core import presenting
from accountdesk.core.cases.case import PRESENTING_NOTE
from accountdesk.sandbox import FrozenClock, create_app, load_scenarios
from accountdesk.sandbox.packs.reading import shipped_pack_path
from accountdesk.sandbox.scenarios import Scenario
from accountdesk.tui.screens.record_case import RecordCaseDialog

pytestmark = pytest.mark.anyio

PACK = Path(__file__).with_name("presenting_pack.toml")
EXAMPLE = shipped_pack_path("fi-paused-mfa-locks.toml")
SCENARIOS = load_scenarios([EXAMPLE, PACK])
USERS = sorted(SCENARIOS.users)


@pytest.fixture(autouse=True)
def _one_key(monkeypatch: pytest.MonkeyPatch) -> None:
    # The same fakes on every run: a fake that happened to hold an original's
    # last four digits would fail one run in many, never twice in a row.
    monkeypatch.setattr(presenting, "session_key", lambda: b"\7" * 32)


@pytest.fixture
def sandbox_app() -> Any:
    return create_app(
        clock=FrozenClock(FROZEN_NOW), ids=1, scenarios=SCENARIOS, bulk_transactions=300
    )


def originals(user: Scenario) -> list[str]:
    """What identifies ``user``'s customer, as the service sends it, and its parts."""
    found = [user.user_id]
    identity, account = user.identity, user.account
    for name in identity.names:
        found += [name, *(part for part in name.split() if len(part) >= 3)]
    for email in identity.emails:
        found += [email, email.partition("@")[0]]
    for phone in identity.phone_numbers:
        digits = re.sub(r"\D", "", phone)
        found += [phone, digits[-4:]]
    for address in identity.addresses:
        found += [value for value in (address.street, address.city, address.postal_code) if value]
    for number in (account.account_number, account.routing_number):
        if number:
            found += [number, number[-4:]]
    owner = re.match(r"(\w+)'s ", account.account_name or "")
    if owner:
        found.append(owner.group(1))
    return found


def leaks(text: str, user: Scenario) -> list[str]:
    """The originals of ``user`` found in ``text`` (digits as digits, words as whole words).

    Escapes are read as what they escape (``user\\_good`` in Markdown is user_good).
    """
    text = re.sub(r"\\(.)", r"\1", text)
    found = []
    for original in originals(user):
        if original.isdigit():
            hit = re.search(rf"(?<!\d){original}(?!\d)", text)
        else:
            # A whole word between anything but letters and digits ("x_kowalczyk" holds it).
            pattern = rf"(?<![^\W_]){re.escape(original)}(?![^\W_])"
            hit = re.search(pattern, text, re.IGNORECASE)
        if hit:
            found.append(original)
    return found


def refused(user: Scenario, endpoint: str) -> bool:
    """Whether ``user``'s ``endpoint`` answers an error (so nothing of it is drawn)."""
    return any(answer.endpoints is None or endpoint in answer.endpoints for answer in user.answers)


async def _press(pilot: Any, *keys: str) -> None:
    for key in keys:
        await pilot.press(key)
        await settle(pilot)


async def _every_screen(pilot: Any, user_id: str) -> dict[str, str]:
    """What each screen that shows ``user_id``'s customer draws, by a name for the screen."""
    app = pilot.app
    drawn: dict[str, str] = {}
    await sign_in(pilot)
    drawn["lookup"] = screen_text(app)
    await open_account(pilot, user_id)
    drawn["account"] = screen_text(app)
    await _press(pilot, "r")
    drawn["account, numbers revealed"] = screen_text(app)
    await _press(pilot, "v")
    drawn["identity"] = screen_text(app)
    await _press(pilot, "escape", "x")
    drawn["transactions"] = screen_text(app)
    await _press(pilot, "escape", "b")
    drawn["after a refresh started (a dialog, a toast)"] = screen_text(app)
    if type(app.screen).__name__ == "MfaDialog":
        await _press(pilot, "escape")
    await _press(pilot, "i")
    drawn["after an identity job started"] = screen_text(app)
    if type(app.screen).__name__ == "MfaDialog":
        await _press(pilot, "escape")
    await _press(pilot, "j")
    drawn["jobs"] = screen_text(app)
    await _press(pilot, "escape", "e")
    drawn["error log"] = screen_text(app)
    await _press(pilot, "escape", "escape")
    drawn["lookup, with the user in the recents"] = screen_text(app)
    return drawn


@pytest.mark.parametrize(
    ("user_id", "size"),
    [
        *((user_id, (100, 30)) for user_id in USERS),
        # Narrower: more is cut short ("Kowalc…"), and cut is faked too.
        ("annabel_kowalczyk", (80, 24)),
        ("user_fi_incomplete", (80, 24)),
    ],
)
async def test_no_customer_datum_is_drawn_on_any_screen_while_presenting(
    make_app: Any, user_id: str, size: tuple[int, int]
) -> None:
    user = SCENARIOS.users[user_id]
    app = make_app(present=True)
    async with app.run_test(size=size) as pilot:
        drawn = await _every_screen(pilot, user_id)
        presenter = app.desk.presenter
    for screen, text in drawn.items():
        assert "PRESENTING" in text, screen
        assert not leaks(text, user), (screen, leaks(text, user), text)
    # The same fake wherever the customer is drawn: the user id in the titles,
    # the name on the account and identity screens.
    fake_id = presenter.text(user_id)
    assert fake_id != user_id
    for screen in ("account", "lookup, with the user in the recents"):
        assert fake_id[:12] in drawn[screen], screen  # a long title is cut short
    if user.identity.names and not refused(user, "get_identity"):
        assert presenter.text(user.identity.names[0]) in drawn["identity"]
    owner = re.match(r"(\w+)'s ", user.account.account_name or "")
    if owner and not refused(user, "get_account"):
        assert f"{presenter.text(owner.group(1))}'s" in drawn["account"]


async def test_what_is_drawn_is_the_original_when_not_presenting(make_app: Any) -> None:
    # The test above could not fail if the screens drew nothing: here they do.
    user = SCENARIOS.users["annabel_kowalczyk"]
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        drawn = await _every_screen(pilot, "annabel_kowalczyk")
    every = "\n".join(drawn.values())
    assert "PRESENTING" not in every
    assert set(leaks(every, user)) == set(originals(user))


# -- what leaves the app ---------------------------------------------------------------


def svg_text(svg: str) -> str:
    """The text an SVG screenshot draws, its rows' pieces joined."""
    pieces = re.findall(r"<text[^>]*>([^<]*)</text>", svg)
    return html.unescape(" ".join(pieces)).replace("\xa0", " ")


async def test_what_leaves_the_app_while_presenting_carries_the_fakes_and_says_so(
    make_app: Any, app_dirs: dict[str, Path], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    user_id = "annabel_kowalczyk"
    user = SCENARIOS.users[user_id]
    app = make_app(present=True)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await sign_in(pilot)
        await open_account(pilot, user_id)
        await _press(pilot, "r")
        # A screenshot: drawn as the screen is, and its title says so.
        saved = Path(str(app.deliver_screenshot()))
        await settle(pilot)
        svg = saved.read_text(encoding="utf-8")
        assert "PRESENTING" in svg and "Avery" not in svg
        assert svg_text(svg).count("•") == 0 and not leaks(svg_text(svg), user)
        assert "Screenshot saved (presenting: fakes)" in toast_titles(app)
        # The identity job's refusal names the customer: a toast, the log, a ticket.
        await _press(pilot, "i")
        await _press(pilot, "e")
        await _press(pilot, "c")
        ticket = app.clipboard
        assert "AC-104" in ticket and not leaks(ticket, user)
        await _press(pilot, "u")
        curl = app.clipboard
        assert "curl" in curl and not leaks(curl, user)
        assert toast_titles(app).count("Copied (presenting: fakes)") == 2
        await _press(pilot, "m", "J")
        exports = sorted((app_dirs["data_dir"] / "exports").glob("errors-*"))
        assert [path.suffix for path in exports] == [".json", ".md"]
        for path in exports:
            text = path.read_text(encoding="utf-8")
            assert "AC-104" in text and not leaks(text, user)
            assert "Presenting: the customer's data is shown as fakes" in text or (
                json.loads(text)["presenting"] is True
            )
        # A scenario of the error: redacted, whatever the log's default.
        await _press(pilot, "s")
        await _press(pilot, "escape", "x", "s")
        [csv_path] = (app_dirs["data_dir"] / "exports").glob("transactions-*.csv")
        rows = csv_path.read_text(encoding="utf-8")
        assert user_id not in csv_path.name and "Zelle to" in rows and not leaks(rows, user)
        assert "CSV exported (presenting: fakes)" in toast_titles(app)
    cases = list((app_dirs["data_dir"] / "scenarios").glob("*.toml"))
    assert cases, "the error's scenario was saved"
    for case in cases:
        text = case.read_text(encoding="utf-8")
        assert not leaks(text, user) and PRESENTING_NOTE in text


async def test_a_recording_made_while_presenting_is_redacted_whatever_is_ticked(
    make_app: Any, app_dirs: dict[str, Path], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    user_id = "annabel_kowalczyk"
    app = make_app(present=True)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await sign_in(pilot)
        await open_account(pilot, user_id)
        await _press(pilot, "s")
        dialog = app.screen
        assert isinstance(dialog, RecordCaseDialog)
        box = dialog.query_one("#record-redact", Checkbox)
        assert box.value and box.disabled
        assert "Presenting: the recording is redacted." in screen_text(app)
        box.value = False  # as a script (or a tour) might: still redacted
        await settle(pilot)
        dialog.query_one("#record-go", Button).press()
        await settle(pilot)
        assert dialog.saved is not None and dialog.saved.redacted
        text = dialog.saved.path.read_text(encoding="utf-8")
    assert not leaks(text, SCENARIOS.users[user_id]) and PRESENTING_NOTE in text


# -- the switch -------------------------------------------------------------------------


async def test_f6_presents_at_once_and_stopping_asks_first(make_app: Any) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await sign_in(pilot)
        await open_account(pilot, "user_good")
        assert "PRESENTING" not in screen_text(app) and "Avery's" in screen_text(app)
        await _press(pilot, "f6")
        assert app.desk.presenter.active
        text = screen_text(app)
        assert "PRESENTING" in text and "Avery" not in text and "user_good" not in text
        assert "2026-11-20 09:30:00" in text and "1,300.00" in text  # dates and amounts stay
        # Off shows the real data again: asked first, and "n" keeps presenting.
        await _press(pilot, "f6")
        assert type(app.screen).__name__ == "ConfirmDialog"
        assert "Stop presenting?" in screen_text(app) and "PRESENTING" in screen_text(app)
        assert "Avery" not in screen_text(app)  # the account under the dialog too
        await _press(pilot, "n")
        assert app.desk.presenter.active and "Avery" not in screen_text(app)
        await _press(pilot, "f6", "y")
        assert not app.desk.presenter.active
        assert "PRESENTING" not in screen_text(app) and "Avery's" in screen_text(app)
        # The palette offers it too, and names what it does now.
        titles = {command.title for command in app.get_system_commands(app.screen)}
        assert "Start presenting" in titles and "Stop presenting" not in titles


async def test_a_page_served_presenting_cannot_stop(make_app: Any) -> None:
    app = make_app(present=True)
    app.desk.presenter.locked = True  # what accountdesk serve --present starts each tab with
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await sign_in(pilot)
        await _press(pilot, "f6")
        assert app.desk.presenter.active and type(app.screen).__name__ != "ConfirmDialog"
        assert "cannot be turned off here" in " ".join(n.message for n in app._notifications)
        titles = {command.title for command in app.get_system_commands(app.screen)}
        assert not titles & {"Start presenting", "Stop presenting"}
        app.desk.set_presenting(False)  # nor through the desk
        assert app.desk.presenter.active


async def test_presenting_is_said_at_every_size_even_too_small(make_app: Any) -> None:
    app = make_app(present=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await sign_in(pilot)
        for size in [(100, 30), (80, 24), (60, 16), (59, 16), (40, 12), (30, 5), (20, 6)]:
            await pilot.resize_terminal(*size)
            await settle(pilot)
            assert "PRESENTING" in screen_text(app), size
        # A dialog over it (the badge mounted on the dialog), down to one cell: drawn, no crash.
        await pilot.resize_terminal(100, 30)
        await _press(pilot, "f6")
        assert type(app.screen).__name__ == "ConfirmDialog"
        for size in [(40, 12), (20, 6), (1, 1), (100, 30)]:
            await pilot.resize_terminal(*size)
            await settle(pilot)
            if size[0] >= 20:
                assert "PRESENTING" in screen_text(app), size
        assert app.desk.presenter.active


async def test_the_palette_says_presenting_and_a_dialog_keeps_the_fakes_under_it(
    make_app: Any,
) -> None:
    # Found trying it before a demo: the palette covered the header's badge, and
    # the screen under a dialog was drawn with fakes of its fakes.
    app = make_app(present=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await sign_in(pilot)
        await open_account(pilot, "user_good")
        await _press(pilot, "v")
        before = screen_text(app)
        await _press(pilot, "ctrl+p")
        assert type(app.screen).__name__ == "CommandPalette"
        assert "PRESENTING" in screen_text(app)
        await _press(pilot, "escape", "f6")
        assert type(app.screen).__name__ == "ConfirmDialog"
        under = screen_text(app)
        emails = re.findall(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+", before)
        assert emails and all(email in under for email in emails), (emails, under)
