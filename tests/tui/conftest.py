"""Fixtures shared by every dashboard test (T1's shell and T2's jobs screens).

- ``sandbox_app``: the fake service with a frozen clock and deterministic ids.
- ``sandbox_transport``: an ``httpx.ASGITransport`` over it (no port, no network).
- ``make_app(**overrides)``: an ``AccountDeskApp`` on that transport in sandbox
  mode, with a frozen app clock and tmp config, data and log folders.

Pilot helpers (``sign_in``, ``open_account``, ``settle``...) live in ``tui_helpers``.

An autouse fixture stops the Input cursor from blinking so snapshots are stable.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx
import pytest

sys.path.insert(0, str(Path(__file__).parent))  # make tui_helpers importable from any rootdir

from tui_helpers import FROZEN_NOW

__all__ = ["FROZEN_NOW"]


@pytest.fixture(autouse=True)
def _no_cursor_blink(monkeypatch: pytest.MonkeyPatch) -> None:
    """Keep the Input cursor steady: a blink timer would make snapshots flaky."""
    from textual.widgets import Input

    monkeypatch.setattr(Input, "_toggle_cursor", lambda self: None)


@pytest.fixture(autouse=True)
def _isolated_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No test reads the developer's config, env credentials or real user dirs."""
    for name in (
        "ACCOUNTDESK_BASE_URL",
        "ACCOUNTDESK_API_KEY",
        "ACCOUNTDESK_API_SECRET",
        "ACCOUNTDESK_PROFILE",
    ):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg-config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-data"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "xdg-state"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg-cache"))


@pytest.fixture
def frozen_now() -> datetime:
    """The instant both the sandbox clock and the app clock are frozen at."""
    return FROZEN_NOW


@pytest.fixture
def sandbox_app() -> Any:
    """A fresh FastAPI sandbox: frozen clock, deterministic ids."""
    from accountdesk.sandbox import FrozenClock, create_app

    return create_app(clock=FrozenClock(FROZEN_NOW), ids=1)


@pytest.fixture
def sandbox_transport(sandbox_app: Any) -> httpx.ASGITransport:
    """In-process transport to ``sandbox_app`` (no port)."""
    return httpx.ASGITransport(app=sandbox_app)


@pytest.fixture
def app_dirs(tmp_path: Path) -> dict[str, Path]:
    """The config file, data dir and log dir a test app uses (kept per test)."""
    return {
        "config_path": tmp_path / "config" / "config.toml",
        "data_dir": tmp_path / "data",
        "log_dir": tmp_path / "logs",
    }


@pytest.fixture
def make_app(
    sandbox_transport: httpx.ASGITransport, app_dirs: dict[str, Path]
) -> Iterator[Callable[..., Any]]:
    """Factory of ``AccountDeskApp`` instances wired to the in-process sandbox.

    Two apps made by one test share the config, data and log dirs, which is
    how a test restarts the app (recent lookups, jobs) without a process.
    """
    from accountdesk.tui import AccountDeskApp

    def factory(**overrides: Any) -> AccountDeskApp:
        kwargs: dict[str, Any] = {
            "transport": sandbox_transport,
            "base_url": "http://sandbox",
            "sandbox": True,
            "clock": lambda: FROZEN_NOW,
            **app_dirs,
        }
        kwargs.update(overrides)
        app = AccountDeskApp(**kwargs)
        app.animation_level = "none"
        return app

    yield factory
