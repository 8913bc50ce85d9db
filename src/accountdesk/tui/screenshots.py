"""Write one SVG per screen of the dashboard, from a frozen embedded sandbox.

    accountdesk screenshots screenshots/

Every picture is made the way the snapshot tests make theirs, with the same
:class:`~accountdesk.tui.driver.Driver` steps: the embedded sandbox and the
app clock are frozen at one instant, job ids are seeded, polling is slowed to
once an hour and input cursors do not blink, so running it twice gives the
same files (written 0600, like everything the app writes).
"""

from __future__ import annotations

import asyncio
import tempfile
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path

from pydantic import SecretStr
from textual.widgets import DataTable

from accountdesk.core.desk import Desk
from accountdesk.core.settings.model import SANDBOX_API_KEY, SANDBOX_API_SECRET, Settings
from accountdesk.core.settings.paths import AppDirs
from accountdesk.core.store import Store
from accountdesk.tui.app import AccountDeskApp
from accountdesk.tui.driver import Driver

__all__ = ["FROZEN_NOW", "SCREENS", "SIZE", "frozen_desk", "write_screenshots"]

#: The instant the sandbox and the app clock are frozen at.
FROZEN_NOW = datetime(2026, 11, 20, 9, 30, tzinfo=UTC)
SIZE = (100, 30)

Steps = Callable[[Driver], Awaitable[None]]


def frozen_desk(root: Path) -> Desk:
    """A desk on an embedded sandbox frozen at :data:`FROZEN_NOW`, with files under ``root``."""
    settings = Settings(api_key=SANDBOX_API_KEY, api_secret=SecretStr(SANDBOX_API_SECRET))
    dirs = AppDirs(root / "config.toml", root / "data", root / "logs")
    return Desk(
        settings,
        dirs,
        clock=lambda: FROZEN_NOW,
        poll_interval=3600.0,
        sandbox_options={"frozen_at": FROZEN_NOW, "ids": 1},
    )


async def _login(driver: Driver) -> None:
    return None


async def _lookup(driver: Driver) -> None:
    await driver.sign_in()


async def _account(driver: Driver) -> None:
    await driver.sign_in()
    await driver.open_account("user_good")


def _from_account(*actions: str) -> Steps:
    """Steps that open user_good's account, then run ``actions`` one by one."""

    async def steps(driver: Driver) -> None:
        await _account(driver)
        for action in actions:
            await driver.run(action)

    return steps


async def _jobs(driver: Driver) -> None:
    await _account(driver)
    await driver.run("refresh_balance")
    await driver.run("start_identity")
    await driver.advance_sandbox_clock(5)
    await driver.run("start_transactions")
    await driver.run("app.show_jobs")
    driver.app.clear_notifications()
    await driver.settle()


async def _mfa(driver: Driver) -> None:
    await driver.sign_in()
    await driver.open_account("user_mfa")
    await driver.run("refresh_balance")
    driver.app.clear_notifications()


async def _error_log(driver: Driver) -> None:
    await driver.sign_in(api_secret="not-the-secret")
    await driver.sign_in(api_secret=SANDBOX_API_SECRET)
    for user_id in ("user_fi_down", "user_manual", "user_fi_paused", "nobody"):
        await driver.open_account(user_id)
        await driver.back()
    await driver.run("app.show_error_log")
    # AC-106: its meaning says which read answered it (the balance, not the identity: AC-113).
    table = driver.app.screen.query_one(DataTable)
    table.move_cursor(row=table.row_count - 2)
    driver.app.clear_notifications()
    await driver.settle()


async def _toast(driver: Driver) -> None:
    await driver.sign_in()
    await driver.open_account("user_manual")


async def _tour(driver: Driver) -> None:
    """A guided tour's caption: the manual user's first refusal (``accountdesk demo manual-user``)."""
    from accountdesk.core.tours.tour import shipped_tour
    from accountdesk.tui.tour import TourRunner

    runner = TourRunner(driver.app, shipped_tour("manual-user"), driver=driver)
    runner.start()
    await runner.wait_idle()
    runner.next()
    await runner.wait_idle()
    await driver.settle()


#: File name (without .svg) -> the steps that lead to the screen.
SCREENS: dict[str, Steps] = {
    "login": _login,
    "lookup": _lookup,
    "account": _account,
    "identity": _from_account("view_identity"),
    "jobs": _jobs,
    "mfa": _mfa,
    "transactions": _from_account("view_transactions"),
    "error_log": _error_log,
    "help": _from_account("app.help"),
    "toast": _toast,
    "tour": _tour,
}


async def _shoot(name: str, steps: Steps) -> str:
    with tempfile.TemporaryDirectory() as scratch:
        app = AccountDeskApp(frozen_desk(Path(scratch)), cursor_blink=False)
        app.animation_level = "none"
        async with app.run_test(size=SIZE, notifications=True) as pilot:
            await pilot.pause()
            await steps(Driver(app, pilot.pause))
            await pilot.pause()
            return app.export_screenshot(title=f"accountdesk · {name.replace('_', ' ')}")


def write_screenshots(folder: Path, names: list[str] | None = None) -> list[Path]:
    """Write ``<name>.svg`` for each screen into ``folder``; returns the paths."""
    store = Store()
    written = []
    for name in names or list(SCREENS):
        svg = asyncio.run(_shoot(name, SCREENS[name]))
        path = folder / f"{name}.svg"
        if store.write_text(path, svg):
            written.append(path)
    return written
