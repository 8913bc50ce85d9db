"""Fixtures shared by every dashboard test (T1's shell and T2's jobs screens).

- ``sandbox_app``: the fake service with a frozen clock and deterministic ids.
- ``sandbox_transport``: an ``httpx.ASGITransport`` over it (no port, no network).
- ``make_app(**overrides)``: an ``AccountDeskApp`` on that transport in sandbox
  mode, with a frozen app clock and tmp config, data and log folders.

Pilot helpers (``sign_in``, ``open_account``, ``settle``...) live in ``tui_helpers``.

Apps are made with ``cursor_blink=False`` so snapshots are stable.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx
import pytest

from accountdesk.core.desk import Desk
from accountdesk.core.settings.model import Settings, load_settings
from accountdesk.core.settings.paths import AppDirs

sys.path.insert(0, str(Path(__file__).parent))  # make tui_helpers importable from any rootdir

from tui_helpers import FROZEN_NOW

__all__ = ["FROZEN_NOW"]


@pytest.fixture(autouse=True)
def _isolated_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No test reads the developer's config, env credentials or real user dirs."""
    for name in (
        "ACCOUNTDESK_BASE_URL",
        "ACCOUNTDESK_API_KEY",
        "ACCOUNTDESK_API_SECRET",
        "ACCOUNTDESK_PROFILE",
        "ACCOUNTDESK_PRESENT",
    ):
        monkeypatch.delenv(name, raising=False)
    # Copy keys take the same route on every machine (tmux or not): OSC 52,
    # unless a test asks for another (make_app(clipboard="file")).
    monkeypatch.setenv("ACCOUNTDESK_CLIPBOARD", "osc52")
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


class NoKeyring:
    """A keyring backend that is not there (priority below zero, as keyring's own "null")."""

    priority = -1


class MemoryKeyring:
    """An in-memory keyring backend for tests."""

    priority = 1
    name = "memory keyring"

    def __init__(self) -> None:
        self.passwords: dict[tuple[str, str], str] = {}

    def set_password(self, service: str, username: str, password: str) -> None:
        self.passwords[(service, username)] = password

    def get_password(self, service: str, username: str) -> str | None:
        return self.passwords.get((service, username))


@pytest.fixture
def make_desk(
    sandbox_transport: httpx.ASGITransport, app_dirs: dict[str, Path]
) -> Callable[..., Desk]:
    """Factory of desks wired to the in-process sandbox (see ``make_app`` for the options)."""

    def factory(
        *,
        sandbox: bool = True,
        base_url: str | None = None,
        api_key: str | None = None,
        api_secret: str | None = None,
        transport: Any = sandbox_transport,
        client_factory: Any = None,
        clock: Any = None,
        poll_interval: float = 1.0,
        secret_backend: Any = None,
        client_options: dict[str, Any] | None = None,
        settings: Settings | None = None,
        **settings_fields: Any,
    ) -> Desk:
        if settings is None:
            # Through the real loader: the config file the test wrote counts.
            flags = {
                "base_url": "sandbox" if sandbox else base_url,
                "api_key": api_key,
                "api_secret": api_secret,
                **settings_fields,
            }
            settings = load_settings(app_dirs["config_path"], flags=flags)
        return Desk(
            settings,
            AppDirs(app_dirs["config_path"], app_dirs["data_dir"], app_dirs["log_dir"]),
            clock=clock or (lambda: FROZEN_NOW),
            transport=transport,
            client_factory=client_factory,
            poll_interval=poll_interval,
            # Never the machine's keyring: an in-memory one, or none at all.
            secret_backend=secret_backend or NoKeyring(),
            client_options=client_options,
        )

    return factory


@pytest.fixture
def make_app(make_desk: Callable[..., Desk]) -> Iterator[Callable[..., Any]]:
    """Factory of ``AccountDeskApp`` instances wired to the in-process sandbox.

    Options: ``sandbox`` (default True), ``base_url`` (live), ``api_key``,
    ``api_secret``, ``transport``, ``client_factory``, ``clock``,
    ``poll_interval``, any other ``Settings`` field, or a whole ``settings``.
    Two apps made by one test share the config, data and log dirs, which is
    how a test restarts the app (recent lookups, jobs) without a process.
    """
    from accountdesk.tui import AccountDeskApp

    def factory(*, log_level: str = "info", **overrides: Any) -> AccountDeskApp:
        app = AccountDeskApp(make_desk(**overrides), cursor_blink=False, log_level=log_level)
        app.animation_level = "none"
        return app

    yield factory
