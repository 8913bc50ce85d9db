"""Snapshots of the shell's screens and of one toast per error family.

Deterministic: sandbox and app clocks frozen, job ids seeded, no cursor
blink, no network. Accept changes with ``--snapshot-update`` only after
looking at the SVGs (``snapshot_report.html`` shows the differences).
"""

from __future__ import annotations

import httpx
import pytest
from tui_helpers import open_account, settle, sign_in

from accountdesk.tui.screens.error_log import ErrorLogScreen


@pytest.fixture
def make_app(make_app):
    """The shared factory, with toasts that outlive a slow machine's run_before."""

    def factory(**overrides):
        app = make_app(**overrides)
        app.NOTIFICATION_TIMEOUT = 600
        return app

    return factory


def _refusing_transport() -> httpx.MockTransport:
    def refuse(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("[Errno 111] Connection refused", request=request)

    return httpx.MockTransport(refuse)


async def _signed_in(pilot) -> None:
    await sign_in(pilot)


def _account(user_id: str, *keys: str):
    """Sign in, open ``user_id``'s account, then press ``keys`` one by one."""

    async def run_before(pilot) -> None:
        await sign_in(pilot)
        await open_account(pilot, user_id)
        for key in keys:
            await pilot.press(key)
            await settle(pilot)

    return run_before


@pytest.mark.parametrize("size", [(100, 30), (80, 24)], ids=["100x30", "80x24"])
def test_login(snap_compare, make_app, size) -> None:
    assert snap_compare(make_app(), terminal_size=size)


def _live_service() -> httpx.MockTransport:
    """A live service: it answers 404 where a sandbox lists its scenario users."""

    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(404, json={"error": {"code": "AC-904", "message": "No such"}})

    return httpx.MockTransport(answer)


def test_login_live_service(snap_compare, make_app) -> None:
    app = make_app(
        sandbox=False,
        base_url="https://api.bank.example",
        api_key="live_key",
        api_secret="x",
        transport=_live_service(),
    )

    async def run_before(pilot) -> None:
        await settle(pilot)  # the badge once the service said what it is

    assert snap_compare(app, terminal_size=(100, 30), run_before=run_before)


def test_login_plain_http_to_another_machine(snap_compare, make_app) -> None:
    app = make_app(
        sandbox=False,
        base_url="http://10.1.2.3:8080",
        api_key="live_key",
        api_secret="x",
        transport=_live_service(),
    )

    async def run_before(pilot) -> None:
        await settle(pilot)
        await pilot.app.screen.run_action("sign_in")  # asked once before the secret goes
        await settle(pilot)

    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)


def test_lookup(snap_compare, make_app) -> None:
    assert snap_compare(make_app(), terminal_size=(100, 30), run_before=_signed_in)


@pytest.mark.parametrize("size", [(100, 30), (80, 24)], ids=["100x30", "80x24"])
def test_account(snap_compare, make_app, size) -> None:
    assert snap_compare(make_app(), terminal_size=size, run_before=_account("user_good"))


def test_identity(snap_compare, make_app) -> None:
    assert snap_compare(make_app(), terminal_size=(100, 30), run_before=_account("user_good", "v"))


@pytest.mark.parametrize("size", [(100, 30), (80, 24)], ids=["100x30", "80x24"])
def test_error_log(snap_compare, make_app, size) -> None:
    async def run_before(pilot) -> None:
        await sign_in(pilot, api_secret="wrong")
        await sign_in(pilot, api_secret="sandbox_secret")
        for user_id in ("user_fi_down", "user_manual", "nobody"):
            await open_account(pilot, user_id)
            await pilot.press("escape")
        pilot.app.clear_notifications()
        await pilot.app.push_screen(ErrorLogScreen())
        await settle(pilot)
        await pilot.press("up", "up")  # AC-104: the detail pane with its meaning and next step
        await settle(pilot)

    assert snap_compare(make_app(), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", [(100, 30), (80, 24)], ids=["100x30", "80x24"])
def test_clipboard_dialog(snap_compare, make_app, monkeypatch, tmp_path, size) -> None:
    # The saved file's path is shown from ~, so the picture is the same on every run.
    monkeypatch.setenv("HOME", str(tmp_path))

    async def run_before(pilot) -> None:
        await sign_in(pilot)
        await open_account(pilot, "user_fi_down")
        await pilot.press("escape")
        pilot.app.clear_notifications()
        await pilot.app.push_screen(ErrorLogScreen())
        await settle(pilot)
        await pilot.press("c")
        await settle(pilot)

    app = make_app(clipboard="file")
    assert snap_compare(app, terminal_size=size, run_before=run_before)


def test_help(snap_compare, make_app) -> None:
    assert snap_compare(make_app(), terminal_size=(100, 30), run_before=_account("user_good", "f1"))


# -- one toast per error family (T2 covers the MFA family) --------------------


def test_toast_auth_ac101(snap_compare, make_app) -> None:
    async def run_before(pilot) -> None:
        await sign_in(pilot, api_secret="wrong")

    assert snap_compare(make_app(), terminal_size=(100, 30), run_before=run_before)


def test_toast_user_ac102(snap_compare, make_app) -> None:
    assert snap_compare(make_app(), terminal_size=(100, 30), run_before=_account("nobody"))


def test_toast_manual_user_ac105(snap_compare, make_app) -> None:
    assert snap_compare(make_app(), terminal_size=(100, 30), run_before=_account("user_manual"))


def test_toast_fi_ac104(snap_compare, make_app) -> None:
    assert snap_compare(make_app(), terminal_size=(100, 30), run_before=_account("user_fi_down"))


def test_toast_conflict_ac112(snap_compare, make_app) -> None:
    assert snap_compare(
        make_app(), terminal_size=(100, 30), run_before=_account("user_good", "i", "i")
    )


def test_toast_transport(snap_compare, make_app) -> None:
    app = make_app(
        transport=_refusing_transport(),
        sandbox=False,
        base_url="https://api.bank.example",
        api_key="live_key",
        api_secret="live_secret",
    )
    assert snap_compare(app, terminal_size=(100, 30), run_before=_signed_in)
