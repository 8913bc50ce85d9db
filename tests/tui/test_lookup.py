"""Lookup screen: id validation before sending, recent lookups, the scenario list,
and the toast each scenario user earns."""

from __future__ import annotations

import json

import httpx
import pytest
from textual.widgets import Input, OptionList
from tui_helpers import (
    RecordingTransport,
    open_account,
    settle,
    sign_in,
    state_dir,
    toast_titles,
    toasts,
)

from accountdesk.contract import ERRORS
from accountdesk.contract.endpoints import ACCOUNT
from accountdesk.contract.identifiers import sandbox_user_id_problem as user_id_problem
from accountdesk.sandbox.scenarios import SCENARIO_USERS
from accountdesk.tui.screens.account import AccountScreen
from accountdesk.tui.screens.lookup import LookupScreen

pytestmark = pytest.mark.anyio


#: Scenario user -> the one toast looking them up earns (balance for user_manual).
SCENARIO_TOASTS = {
    "user_manual": "AC-105",
    "user_fi_down": "AC-104",
    "user_fi_paused": "AC-106",
    "user_fi_incomplete": "AC-103",
    "nobody_here": "AC-102",
}


async def test_each_scenario_user_earns_its_toast(make_app) -> None:
    # One session for all users: an app start per user would only cost time.
    app = make_app()
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await sign_in(pilot)
        for user_id, code in SCENARIO_TOASTS.items():
            app.clear_notifications()
            await open_account(pilot, user_id)
            assert isinstance(app.screen, AccountScreen), user_id
            spec = ERRORS[code]
            assert toast_titles(app) == [f"{code} · {spec.status}"], user_id
            expected = f"{spec.message_for(user_id=user_id)}\nNext: {spec.next_step}"
            assert toasts(app)[0][1] == expected
            await pilot.press("escape")
            await settle(pilot)


async def test_good_user_has_no_toast(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await sign_in(pilot)
        await open_account(pilot, "user_good")
        assert toasts(app) == []
        assert app.screen.account is not None
        assert app.screen.balance is not None


async def test_limited_key_on_another_user_is_ac001(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await sign_in(pilot, api_key="limited_key", api_secret="limited_secret")
        await open_account(pilot, "user_mfa")
        assert toast_titles(app) == ["AC-001 · 403"]
        assert toasts(app)[0][1].splitlines() == [
            ERRORS["AC-001"].message_for(ACCOUNT, user_id="user_mfa"),
            f"Next: {ERRORS['AC-001'].next_step}",
        ]


async def test_invalid_user_id_is_refused_before_sending(make_app, sandbox_transport) -> None:
    recorder = RecordingTransport(sandbox_transport)
    app = make_app(transport=recorder)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await sign_in(pilot)
        sent_before = len(recorder.requests)
        # The rule itself is checked case by case below; here, that the screen refuses.
        for bad in ("../x", "%2F", "..", "x" * 65):
            await open_account(pilot, bad)
            assert isinstance(app.screen, LookupScreen)
            problem = str(app.screen.query_one("#user-id-problem").render())
            assert problem.strip() == user_id_problem(bad)
            assert app.screen.query_one("#user-id", Input).has_class("-invalid")
        assert not [p for p in recorder.paths[sent_before:] if p.startswith("/accounts")]
        assert app.desk.recents.user_ids == []


async def test_recent_lookups_survive_a_restart(make_app, app_dirs) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await sign_in(pilot)
        for user_id in ("user_good", "user_manual", "user_nobody", "user_good"):
            await open_account(pilot, user_id)
            await app.screen.run_action("back")
            await settle(pilot)
    saved = json.loads((state_dir(app_dirs) / "recent.json").read_text())
    # user_nobody answered AC-102: no user, so not worth keeping.
    assert saved == {"sandbox": ["user_good", "user_manual"]}

    again = make_app()
    async with again.run_test(size=(100, 30), notifications=True) as pilot:
        await sign_in(pilot)
        recent = again.screen.query_one("#recent", OptionList)
        assert [recent.get_option_at_index(i).id for i in range(recent.option_count)] == [
            "user_good",
            "user_manual",
        ]


async def test_scenario_list_opens_an_account_without_typing(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await sign_in(pilot)
        scenarios = app.screen.query_one("#scenarios", OptionList)
        ids = [scenarios.get_option_at_index(i).id for i in range(scenarios.option_count)]
        assert ids == list(SCENARIO_USERS)
        scenarios.focus()
        scenarios.highlighted = ids.index("user_good")
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, AccountScreen)
        assert app.screen.user_id == "user_good"


async def test_scenario_list_unavailable_is_said(make_app) -> None:
    def broken(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/token":
            return httpx.Response(
                200, json={"access_token": "t", "token_type": "Bearer", "expires_in": 60}
            )
        return httpx.Response(503, text="down")

    app = make_app(transport=httpx.MockTransport(broken))
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await sign_in(pilot)
        scenarios = app.screen.query_one("#scenarios", OptionList)
        assert "unavailable" in str(scenarios.get_option_at_index(0).prompt)


async def test_back_from_an_account_the_user_id_field_is_empty(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await sign_in(pilot)
        await open_account(pilot, "user_mfa")
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, LookupScreen)
        field = app.screen.query_one("#user-id", Input)
        assert field.value == "" and field.has_focus
        await pilot.press(*"user_good")
        assert field.value == "user_good"
        # Help on top of the lookup screen leaves a half-typed id alone.
        await pilot.press("f1")
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert field.value == "user_good"


async def test_recent_lookups_are_kept_per_service(make_app, app_dirs, sandbox_transport) -> None:
    from accountdesk.core.recents import RecentLookups
    from accountdesk.core.store import Store

    data_dir = app_dirs["data_dir"]
    data_dir.mkdir(parents=True)
    # A file of the very first format is the sandbox's list (any key's: the
    # first key to sign in on the sandbox gets it).
    (data_dir / "recent.json").write_text(json.dumps(["user_manual"]))
    live = make_app(sandbox=False, base_url="https://api.bank.example")
    async with live.run_test(size=(100, 30), notifications=True) as pilot:
        await sign_in(pilot, api_key="sandbox_key", api_secret="sandbox_secret")
        recent = live.screen.query_one("#recent", OptionList)
        assert recent.get_option_at_index(0).id is None  # "No lookups yet"
        await open_account(pilot, "user_good")
    saved = json.loads(
        (state_dir(app_dirs, "https://api.bank.example") / "recent.json").read_text()
    )
    assert saved == {"https://api.bank.example": ["user_good"]}

    sandbox = make_app()
    async with sandbox.run_test(size=(100, 30), notifications=True) as pilot:
        await sign_in(pilot)
        recent = sandbox.screen.query_one("#recent", OptionList)
        assert [recent.get_option_at_index(i).id for i in range(recent.option_count)] == [
            "user_manual"
        ]
    assert RecentLookups(Store(), data_dir / "recent.json", "https://other.example").user_ids == []
