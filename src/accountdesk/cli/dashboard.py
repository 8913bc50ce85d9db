"""``accountdesk``: the dashboard, on the embedded sandbox unless a base URL is configured.

The settings are read before the app starts (a mistake in the config file is
one line, exit status 2), but on the embedded sandbox without pydantic: only
the few values the first frame draws (:mod:`accountdesk.core.settings.start`);
the app validates the rest right after its first frame, and quits with the
same one line if they cannot be used. A live service's settings are
validated here, and plain HTTP to another machine is warned about here too
(the dashboard's badge is gone once it quits).
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from accountdesk.cli.output import fail, missing
from accountdesk.cli.startup import StartUp

if TYPE_CHECKING:
    from accountdesk.core.settings.model import Settings
    from accountdesk.core.settings.paths import AppDirs

__all__ = ["run"]


def run(args: argparse.Namespace, start_up: StartUp) -> int:
    """Run the dashboard until it quits; the exit status."""
    try:
        from accountdesk.core.desk import Desk
        from accountdesk.core.settings.paths import AppDirs
        from accountdesk.core.settings.start import StartSettings, read_start_settings
        from accountdesk.core.settings.values import ConfigError

        # The app's packages are imported later (after the first frame, some):
        # a client-only install is told what to install here, not by a traceback.
        _require("platformdirs")
        _require("textual")
    except ImportError as error:
        return missing(error)
    dirs = AppDirs.default(args.config)
    # Keywords, not a literal: the control token's setting name is also in
    # AC-903's guidance, which no string literal outside the contract repeats.
    flags = dict(  # noqa: C408
        base_url="sandbox" if args.sandbox else args.base_url,
        profile=args.profile,
        sandbox_control_token=args.control_token,
        present=args.present,
    )
    try:
        # On the embedded sandbox, the first frame's few values without
        # pydantic; the app validates right after its first frame (issue 16).
        settings = read_start_settings(dirs.config_path, flags) or _validated(dirs, flags)
    except ConfigError as error:
        return fail(str(error))
    embedded = isinstance(settings, StartSettings) or settings.sandbox
    if not isinstance(settings, StartSettings) and settings.base_url is not None:
        from accountdesk.core.plain_http import plain_http_warning

        in_clear = plain_http_warning(settings.base_url)
        if in_clear is not None:  # said here too: the dashboard's badge is gone once it quits
            fail(f"warning: {in_clear}")
    from accountdesk.cli.packs import embedded_packs

    if isinstance(scenarios := embedded_packs(args, live=not embedded), int):
        return scenarios
    from accountdesk.tui.terminal import prepare_terminal

    problem = prepare_terminal()
    if problem is not None:
        if isinstance(settings, StartSettings):
            # No first frame to keep quick: a config error is said first, as always.
            try:
                settings.validate()
            except ConfigError as error:
                return fail(str(error))
        return fail(problem)
    from accountdesk.tui.app import AccountDeskApp

    options = {"scenarios": scenarios} if scenarios is not None else None
    app = AccountDeskApp(
        Desk(settings, dirs, sandbox_options=options, present_locked=args.present_locked),
        log_level=args.log_level,
        on_first_frame=start_up.first_frame,
    )
    app.run()
    if app.config_problem is not None:  # validated after the first frame, as before it
        return fail(app.config_problem)
    return app.return_code or 0


def _validated(dirs: AppDirs, flags: dict[str, Any]) -> Settings:
    """Every setting validated now (a live service: its URL is the client's rule to check)."""
    from accountdesk.core.settings.model import load_settings

    return load_settings(dirs.config_path, flags=flags)


def _require(package: str) -> None:
    """Raise ModuleNotFoundError when ``package`` is not installed (found, not imported)."""
    import importlib.util

    if importlib.util.find_spec(package) is None:
        raise ModuleNotFoundError(f"No module named {package!r}", name=package)
