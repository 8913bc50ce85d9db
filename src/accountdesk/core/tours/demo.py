"""The desk of a demo: a fresh embedded sandbox whose clock moves only when told.

``accountdesk demo`` and the tour tests build their desk here, so a tour runs
the same in a presenter's terminal and in the suite:

- the embedded sandbox is new for each run, its clock stopped at ``start``
  and its job ids numbered (``job_0001``): a tour says when time passes
  ("+5 min: the MFA session expires"), so what the audience sees never
  depends on how long the presenter talked;
- the app's clock stands still too (:class:`StoppedClock`); the desk adds
  how far the sandbox's clock has moved (as on any sandbox), so the MFA
  dialog's countdown and the jobs' ages move when the sandbox's clock moves.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from accountdesk.core.desk import Desk
from accountdesk.core.settings.model import (
    SANDBOX_API_KEY,
    SANDBOX_API_SECRET,
    Settings,
    load_settings,
)
from accountdesk.core.settings.paths import AppDirs

__all__ = ["StoppedClock", "demo_desk", "demo_settings"]


class StoppedClock:
    """An app clock that stands at ``start``: the desk adds how far the sandbox has moved."""

    def __init__(self, start: dt.datetime) -> None:
        self.start = start

    def __call__(self) -> dt.datetime:
        return self.start


def demo_settings(
    config_path: Path, *, profile: str | None = None, present: bool | None = None
) -> Settings:
    """The user's settings (theme, keymap) on the embedded sandbox with its demo credential.

    Whatever service and key the config file names, a demo signs in to the
    sandbox. Raises :class:`~accountdesk.core.settings.model.ConfigError` as the
    dashboard does for a config file it cannot use.
    """
    flags = {
        "base_url": "sandbox",
        "api_key": SANDBOX_API_KEY,
        "api_secret": SANDBOX_API_SECRET,
        "profile": profile,
        "present": present,
    }
    return load_settings(config_path, flags=flags)


def demo_desk(
    settings: Settings,
    dirs: AppDirs,
    *,
    start: dt.datetime,
    secret_backend: Any | None = None,
    poll_interval: float = 1.0,
    scenarios: Sequence[Path] = (),
) -> Desk:
    """A desk on a fresh embedded sandbox stopped at ``start`` (aware), the app clock following.

    ``scenarios``: pack files the sandbox serves after the shipped users (the
    first tour's; another tour's packs replace them when it starts).
    """
    if not settings.sandbox:
        raise ValueError("a demo runs on the embedded sandbox")
    options: dict[str, Any] = {"frozen_at": start, "ids": 1}
    if scenarios:
        options["scenarios"] = [str(path) for path in scenarios]
    return Desk(
        settings,
        dirs,
        clock=StoppedClock(start),
        # Files are still named by the real time: two exports of one demo
        # must not share a name.
        wall_clock=lambda: dt.datetime.now(dt.UTC),
        poll_interval=poll_interval,
        sandbox_options=options,
        secret_backend=secret_backend,
    )
