"""Your own cases in the dashboard: record a user (account screen, palette), a scenario from an error."""

from __future__ import annotations

import re
import stat
from pathlib import Path

import httpx
import pytest
from textual.widgets import Button, Checkbox, Input
from tui_helpers import FROZEN_NOW, open_account, settle, sign_in, toasts, widget_text

from accountdesk.sandbox import FrozenClock, create_app, load_scenarios
from accountdesk.sandbox.packs.reading import parse_pack
from accountdesk.tui.commands import desk_commands, system_commands
from accountdesk.tui.screens.error_log import ErrorLogScreen
from accountdesk.tui.screens.record_case import RecordCaseDialog

pytestmark = pytest.mark.anyio


@pytest.fixture
def home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    # Paths are shown from ~: the same picture on every run.
    monkeypatch.setenv("HOME", str(tmp_path))
    return tmp_path


async def _record_dialog(pilot, user_id: str = "user_good") -> RecordCaseDialog:
    await sign_in(pilot)
    await open_account(pilot, user_id)
    await pilot.press("s")
    await settle(pilot)
    dialog = pilot.app.screen
    assert isinstance(dialog, RecordCaseDialog)
    return dialog


async def test_s_records_the_user_redacted_into_the_data_folder(make_app, app_dirs, home) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        dialog = await _record_dialog(pilot)
        field = dialog.query_one("#record-path", Input)
        assert field.value == "~/data/scenarios/case_1-20261120-093000.toml"
        assert dialog.query_one("#record-jobs", Checkbox).value  # a sandbox: jobs are fake
        await pilot.press("enter")  # the Record button has the focus
        await settle(pilot)
        result = widget_text(dialog.query_one("#record-result"))
        saved = app_dirs["data_dir"] / "scenarios" / "case_1-20261120-093000.toml"
        assert "Saved to ~/data/scenarios/case_1-20261120-093000.toml" in result
        assert (
            "get_balance         200" in result and "refresh_balance     202 job pending" in result
        )
        assert dialog.query_one("#record-go", Button).label.plain == "Done"
        await pilot.press("enter")
        await settle(pilot)
        assert not isinstance(app.screen, RecordCaseDialog)
    assert stat.S_IMODE(saved.stat().st_mode) == 0o600
    text = saved.read_text(encoding="utf-8")
    pack = parse_pack(text, source=str(saved))
    assert [user.id for user in pack.users] == ["case_1"]
    for original in ("user_good", "Avery", "Johnson", "4820193756", "071000013", "0142"):
        assert original not in text, original


async def test_unredacted_recording_keeps_the_id_and_warns(make_app, app_dirs, home) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        dialog = await _record_dialog(pilot, "user_fi_paused")
        await pilot.click("#record-redact")
        await settle(pilot)
        assert dialog.query_one("#record-path", Input).value.startswith(
            "~/data/scenarios/user_fi_paused-"
        )
        assert "Not redacted" in widget_text(dialog.query_one("#record-warning"))
        dialog.query_one("#record-jobs", Checkbox).value = False
        await settle(pilot)  # the jobs' note folds away: the button moves up
        await pilot.click("#record-go")
        await settle(pilot)
        assert "get_balance         400 AC-106" in widget_text(dialog.query_one("#record-result"))
    (saved,) = (app_dirs["data_dir"] / "scenarios").glob("user_fi_paused-*.toml")
    users = load_scenarios([saved], shipped_users=False).users
    assert users["user_fi_paused"].answers[0].code == "AC-106"


async def test_a_file_that_cannot_be_written_is_said_in_the_dialog(
    make_app, home, tmp_path
) -> None:
    (tmp_path / "taken").write_text("a file, not a folder", encoding="utf-8")
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        dialog = await _record_dialog(pilot)
        dialog.query_one("#record-path", Input).value = "~/taken/case.toml"
        await pilot.click("#record-go")
        await settle(pilot)
        assert "Not saved: could not write" in widget_text(dialog.query_one("#record-result"))
        assert not dialog.query_one("#record-go", Button).disabled  # try another file


async def test_the_palette_offers_recording_on_an_account_only_once(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await sign_in(pilot)
        assert not any("scenario" in c.title for c in desk_commands(app))
        await open_account(pilot, "user_mfa")
        (command,) = [c for c in desk_commands(app) if "scenario" in c.title]
        assert command.title == "Record user_mfa as a scenario"
        shown = [c.title for c in system_commands(app, app.screen, [])]
        assert "Scenario" not in shown  # the key's short name is not listed twice
        command.run()
        await settle(pilot)
        assert isinstance(app.screen, RecordCaseDialog) and app.screen.user_id == "user_mfa"


async def test_a_scenario_from_an_error_of_the_log(make_app, app_dirs, home) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await sign_in(pilot, api_secret="wrong")
        await sign_in(pilot, api_secret="sandbox_secret")
        await open_account(pilot, "user_fi_paused")
        await pilot.press("escape")
        app.clear_notifications()
        await app.push_screen(ErrorLogScreen())
        await settle(pilot)
        await pilot.press("s")  # the last error: the balance's AC-106
        await settle(pilot)
        (saved,) = (app_dirs["data_dir"] / "scenarios").glob("case_1-*.toml")
        title, text, _ = toasts(app)[-1]
        assert title == "Scenario case_1 saved: AC-106 · 400"
        assert "Serve it: accountdesk sandbox --scenarios ~/data/scenarios/case_1-" in text
        await pilot.press("up", "s")  # the sign-in's AC-101: a key's error, not a user's
        await settle(pilot)
        title, text, _ = toasts(app)[-1]
        assert title == "No scenario" and "sign-in error belongs to a key" in text
    users = load_scenarios([saved], shipped_users=False).users
    (answer,) = users["case_1"].answers
    assert (answer.endpoints, answer.status, answer.code) == (
        frozenset({"get_balance"}),
        400,
        "AC-106",
    )
    assert "user_fi_paused" not in saved.read_text(encoding="utf-8")


# -- snapshots ---------------------------------------------------------------------------


@pytest.mark.parametrize("size", [(100, 30), (80, 24)], ids=["100x30", "80x24"])
def test_record_dialog(snap_compare, make_app, home, size) -> None:
    async def run_before(pilot) -> None:
        await _record_dialog(pilot)

    assert snap_compare(make_app(), terminal_size=size, run_before=run_before)


def test_record_dialog_saved(snap_compare, make_app, home) -> None:
    async def run_before(pilot) -> None:
        await _record_dialog(pilot, "user_mfa")
        await pilot.press("enter")
        await settle(pilot)

    assert snap_compare(make_app(), terminal_size=(100, 30), run_before=run_before)


async def test_two_scenarios_of_one_second_keep_both_files(make_app, app_dirs, home) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await sign_in(pilot)
        await open_account(pilot, "user_fi_down")
        await pilot.press("escape")
        await app.push_screen(ErrorLogScreen())
        await settle(pilot)
        await pilot.press("s")
        await settle(pilot)
        await pilot.press("s")  # the same second on the frozen clock
        await settle(pilot)
        await pilot.press("escape")
        await open_account(pilot, "user_good")
        for suggested in ("user_good-20261120-093000.toml", "user_good-20261120-093000-2.toml"):
            await pilot.press("s")
            await settle(pilot)
            dialog = app.screen
            assert isinstance(dialog, RecordCaseDialog)
            await pilot.click("#record-redact")  # unredacted: named after the user, twice
            await settle(pilot)
            # The dialog suggests a name no file has.
            assert dialog.query_one("#record-path", Input).value.endswith(suggested)
            await pilot.click("#record-go")
            await settle(pilot)
            await pilot.press("enter")  # Done
            await settle(pilot)
        await pilot.press("s")
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, RecordCaseDialog)
        # A file typed by hand is never replaced.
        dialog.query_one(
            "#record-path", Input
        ).value = "~/data/scenarios/case_1-20261120-093000.toml"
        await pilot.click("#record-go")
        await settle(pilot)
        assert "exists: give another file" in widget_text(dialog.query_one("#record-result"))
    names = sorted(p.name for p in (app_dirs["data_dir"] / "scenarios").glob("*.toml"))
    assert names == [
        "case_1-20261120-093000.toml",
        "case_2-20261120-093000.toml",
        "user_good-20261120-093000-2.toml",
        "user_good-20261120-093000.toml",
    ]


async def test_cases_saved_in_the_dashboard_each_get_the_next_free_number(
    make_app, app_dirs, home
) -> None:
    folder = app_dirs["data_dir"] / "scenarios"
    app = make_app()
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        dialog = await _record_dialog(pilot, "user_fi_paused")
        await pilot.press("enter")
        await settle(pilot)
        await pilot.press("enter")  # Done
        await settle(pilot)
        await pilot.press("escape")
        await app.push_screen(ErrorLogScreen())
        await settle(pilot)
        await pilot.press("s")  # the balance's AC-106 the account screen met
        await settle(pilot)
        title, _, _ = toasts(app)[-1]
        assert title == "Scenario case_2 saved: AC-106 · 400"
        await pilot.press("escape")
        await open_account(pilot, "user_good")
        await pilot.press("s")
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, RecordCaseDialog)
        assert dialog.query_one("#record-path", Input).value == (
            "~/data/scenarios/case_3-20261120-093000.toml"
        )
    saved = sorted(folder.glob("*.toml"))
    assert [path.name[:7] for path in saved] == ["case_1-", "case_2-"]
    # Served together, beside the shipped users: no id is defined twice.
    users = load_scenarios(saved).users
    assert {"case_1", "case_2", "user_good"} <= users.keys()


LEAKY = """
[[users]]
id = "jane.doe-77"

[users.account]
account_number = "000123456789"

[users.identity]
names = ["Jane Q. Doe"]
emails = ["jane.doe@bigcorp.test"]
phone_numbers = ["(312) 555-0199"]

[[users.answers]]
endpoint = "get_balance"
code = "AC-777"
status = 503
message = "Jane Doe (acct 000123456789, jane.doe@bigcorp.test, 312-555-0199) is unavailable; her branch: 646-555-0123, ops@branch.test"
"""


async def test_a_scenario_from_an_error_redacts_the_message_as_record_does(
    make_app, app_dirs, home, tmp_path
) -> None:
    pack = tmp_path / "leaky.toml"
    pack.write_text(LEAKY, encoding="utf-8")
    sandbox = create_app(clock=FrozenClock(FROZEN_NOW), ids=1, scenarios=load_scenarios([pack]))
    app = make_app(transport=httpx.ASGITransport(sandbox))
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await sign_in(pilot)
        await open_account(pilot, "jane.doe-77")
        await pilot.press("escape")
        await app.push_screen(ErrorLogScreen())
        await settle(pilot)
        await pilot.press("s")
        await settle(pilot)
        title, _, _ = toasts(app)[-1]
        assert title.startswith("Scenario case_1 saved: AC-777")
    (saved,) = (app_dirs["data_dir"] / "scenarios").glob("case_1-*.toml")
    text = saved.read_text(encoding="utf-8")
    originals = ["jane.doe-77", "Jane", "Doe", "000123456789", "jane.doe@bigcorp.test"]
    originals += ["312-555-0199", "646-555-0123", "ops@branch.test"]
    assert [value for value in originals if value.lower() in text.lower()] == [], text
    # Fakes of the same shape, in the message's own layout; the header says what was replaced.
    (answer,) = load_scenarios([saved]).users["case_1"].answers
    assert re.fullmatch(
        r"[A-Z][a-z]+ [A-Z][a-z]+ \(acct \d{12}, [a-z]+\.[a-z]+@example\.com, \d{3}-555-01\d\d\) "
        r"is unavailable; her branch: \d{3}-555-01\d\d, \S+@\S+\.\w+",
        answer.message or "",
    ), answer.message
    assert (
        "# Redacted (replaced by fakes of the same shape): account number, routing number, " in text
    )
