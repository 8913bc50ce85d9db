"""Write one SVG per screen of the dashboard, from the frozen sandbox.

    python -m accountdesk.tui.screenshots screenshots/
    accountdesk screenshots screenshots/

Every picture is made the same way the snapshot tests make theirs: the
in-process sandbox and the app clock are frozen at one instant, job ids are
seeded, polling is slowed to once an hour and the Input cursor does not
blink, so running the command twice gives the same files.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx

#: The instant the sandbox and the app clock are frozen at.
FROZEN_NOW = datetime(2026, 11, 20, 9, 30, tzinfo=UTC)
SIZE = (100, 30)

Steps = Callable[[Any, Any], Awaitable[None]]


async def _settle(pilot: Any) -> None:
    for _ in range(3):
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()


async def _sign_in(pilot: Any, sandbox: Any) -> None:
    await pilot.app.screen.run_action("sign_in")
    await _settle(pilot)


async def _open(pilot: Any, user_id: str) -> None:
    from textual.widgets import Input

    pilot.app.screen.query_one("#user-id", Input).value = user_id
    await pilot.app.screen.run_action("lookup")
    await _settle(pilot)


async def _press(pilot: Any, *keys: str) -> None:
    for key in keys:
        await pilot.press(key)
        await _settle(pilot)


async def _login(pilot: Any, sandbox: Any) -> None:
    return None


async def _lookup(pilot: Any, sandbox: Any) -> None:
    await _sign_in(pilot, sandbox)


async def _account(pilot: Any, sandbox: Any) -> None:
    await _sign_in(pilot, sandbox)
    await _open(pilot, "user_good")


def _from_account(*keys: str) -> Steps:
    """Steps that open user_good's account, then press ``keys`` (screens reached from it)."""

    async def steps(pilot: Any, sandbox: Any) -> None:
        await _account(pilot, sandbox)
        await _press(pilot, *keys)

    return steps


async def _jobs(pilot: Any, sandbox: Any) -> None:
    await _account(pilot, sandbox)
    await _press(pilot, "b", "i")
    sandbox.state.clock.advance(5)
    pilot.app.poll_jobs_now(force=True)
    await _settle(pilot)
    await _press(pilot, "t", "j")
    pilot.app.clear_notifications()
    await _settle(pilot)


async def _mfa(pilot: Any, sandbox: Any) -> None:
    await _sign_in(pilot, sandbox)
    await _open(pilot, "user_mfa")
    await _press(pilot, "b")
    pilot.app.clear_notifications()


async def _error_log(pilot: Any, sandbox: Any) -> None:
    from textual.widgets import Input

    pilot.app.screen.query_one("#api-secret", Input).value = "not-the-secret"
    await _sign_in(pilot, sandbox)
    pilot.app.screen.query_one("#api-secret", Input).value = "sandbox_secret"
    await _sign_in(pilot, sandbox)
    for user_id in ("user_fi_down", "user_manual", "user_fi_paused", "nobody"):
        await _open(pilot, user_id)
        await _press(pilot, "escape")
    await _press(pilot, "f3")
    pilot.app.clear_notifications()


async def _toast(pilot: Any, sandbox: Any) -> None:
    await _sign_in(pilot, sandbox)
    await _open(pilot, "user_manual")


#: File name (without .svg) -> the steps that lead to the screen.
SCREENS: dict[str, Steps] = {
    "login": _login,
    "lookup": _lookup,
    "account": _account,
    "identity": _from_account("v"),
    "jobs": _jobs,
    "mfa": _mfa,
    "transactions": _from_account("x"),
    "error_log": _error_log,
    "help": _from_account("f1"),
    "toast": _toast,
}


async def _shoot(name: str, steps: Steps) -> str:
    from accountdesk.sandbox import FrozenClock, create_app
    from accountdesk.tui.app import AccountDeskApp

    sandbox = create_app(clock=FrozenClock(FROZEN_NOW), ids=1)
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        app = AccountDeskApp(
            transport=httpx.ASGITransport(app=sandbox),
            base_url="http://sandbox",
            sandbox=True,
            clock=lambda: FROZEN_NOW,
            config_path=root / "config.toml",
            data_dir=root / "data",
            log_dir=root / "logs",
        )
        app.animation_level = "none"
        app.jobs_poll_interval = 3600.0
        async with app.run_test(size=SIZE, notifications=True) as pilot:
            await pilot.pause()
            await steps(pilot, sandbox)
            await pilot.pause()
            return app.export_screenshot(title=f"accountdesk · {name.replace('_', ' ')}")


def write_screenshots(folder: Path, names: list[str] | None = None) -> list[Path]:
    """Write ``<name>.svg`` for each screen into ``folder``; returns the paths."""
    from textual.widgets import Input

    # A blinking cursor would make the pictures differ from run to run.
    Input._toggle_cursor = lambda self: None  # type: ignore[method-assign]
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name in names or list(SCREENS):
        svg = asyncio.run(_shoot(name, SCREENS[name]))
        path = folder / f"{name}.svg"
        path.write_text(svg, encoding="utf-8", newline="\n")
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    folder = Path(args[0]) if args else Path("screenshots")
    for path in write_screenshots(folder, args[1:] or None):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
