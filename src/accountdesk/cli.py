"""The ``accountdesk`` command.

``accountdesk`` runs the dashboard (on the embedded sandbox unless a base URL
is configured); ``accountdesk sandbox`` serves the sandbox over HTTP;
``accountdesk screenshots DIR`` writes an SVG of every screen; ``accountdesk
explain [CODE]`` says what an error code means and what to do next;
``accountdesk serve`` shows the dashboard in a browser (``accountdesk.web``);
``accountdesk demo`` runs guided tours on a fresh embedded sandbox;
``accountdesk scenarios`` checks scenario packs and ``accountdesk record``
makes one from a live user; ``accountdesk completion SHELL`` prints a
shell completion script.

Every mistake on the command line or in the config file is one line,
``accountdesk: <where>: <problem>``, and exit status 2: never a traceback.
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Sequence
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    import argparse

    from accountdesk.core.paths import AppDirs
    from accountdesk.core.settings import Settings

__all__ = ["build_parser", "main"]

#: What the dashboard needs beyond the client library.
_APP_EXTRA = "pip install 'accountdesk[app]'"

#: ``accountdesk`` without arguments (the dashboard, as usually started): the
#: top-level flags' defaults as the parser gives them (tests/tui/test_cli.py
#: checks), without argparse and the parser (~3-4 ms of the first frame, and
#: the subcommands' parsers and modules ~4-10 ms more; issue 16).
_NO_ARGUMENTS = {
    "base_url": None,
    "sandbox": False,
    "profile": None,
    "config": None,
    "control_token": None,
    "scenarios": None,
    "scenarios_only": False,
    "log_level": "info",
    "command": None,
}

#: Commands a top-level ``--scenarios`` would mean nothing to.
_NO_PACKS = ("screenshots", "explain", "serve", "demo", "scenarios", "completion")
#: Why a command takes no ``--scenarios``, where the reason is not just that.
_NO_PACKS_WHY = {
    "demo": " (a tour names its own packs)",
    "scenarios": " (name the packs after it: scenarios check FILE)",
}


def main(argv: Sequence[str] | None = None) -> int:
    # Start-up allocates many long-lived objects (modules, styles, widgets):
    # collecting during it only costs time; everything is frozen once painted.
    gc.disable()
    try:
        if argv is None:
            argv = sys.argv[1:]
        if argv:
            args = build_parser().parse_args(argv)
        else:
            args = cast("argparse.Namespace", SimpleNamespace(**_NO_ARGUMENTS))
        if args.scenarios and args.command in _NO_PACKS:
            why = _NO_PACKS_WHY.get(args.command, "")
            return _fail(f"{args.command}: takes no --scenarios{why}")
        if args.command == "sandbox":
            return _serve_sandbox(args)
        if args.command == "screenshots":
            return _screenshots(args.directory)
        if args.command == "explain":
            from accountdesk.explain import explain

            return explain(args.code)
        if args.command == "serve":
            return _serve_web(args)
        if args.command == "completion":
            from accountdesk.completion_command import run_completion

            return run_completion(build_parser(), args.shell)
        if args.command == "demo":
            from accountdesk.demo_command import run_demo

            return run_demo(args, missing=_missing, on_first_frame=_after_first_frame)
        if args.command in ("scenarios", "record"):
            from accountdesk.scenarios_command import run_case_command

            return run_case_command(args, missing=_missing)
        return _run_dashboard(args)
    finally:
        gc.enable()


def build_parser() -> argparse.ArgumentParser:
    """The whole command line (:func:`accountdesk.cli_parser.build_parser`)."""
    from accountdesk.cli_parser import build_parser as build

    return build()


def _require(package: str) -> None:
    """Raise ModuleNotFoundError when ``package`` is not installed (found, not imported)."""
    import importlib.util

    if importlib.util.find_spec(package) is None:
        raise ModuleNotFoundError(f"No module named {package!r}", name=package)


def _missing(error: ImportError) -> int:
    print(
        f"accountdesk: this needs the dashboard's packages ({error.name}); {_APP_EXTRA}",
        file=sys.stderr,
    )
    return 2


def _serve_sandbox(args: argparse.Namespace) -> int:
    gc.enable()
    try:
        from accountdesk.sandbox import SandboxOptionError, openapi_document, serve, served_app
    except ImportError as error:
        return _missing(error)
    if args.openapi:
        import json

        print(json.dumps(openapi_document(), indent=2))
        return 0
    try:
        # The sandbox's own modules load lazily: a client-only install meets
        # its missing packages here, not at the import above.
        from accountdesk.pack_flags import served_packs

        if isinstance(scenarios := served_packs(args), int):
            return scenarios
        # The options first (bounds the sandbox keeps), then the port.
        app, control_token = served_app(
            args.host,
            control_token=args.control_token,
            tenants=args.tenants,
            max_tenants=args.max_tenants,
            bulk_transactions=args.bulk_transactions,
            **({"scenarios": scenarios} if scenarios is not None else {}),
        )
    except SandboxOptionError as error:
        return _fail(f"sandbox: {error}")
    except ImportError as error:
        return _missing(error)
    problem = _cannot_listen(args.host, args.port)
    if problem is not None:
        return _fail(f"sandbox on {args.host}:{args.port}: {problem}")
    serve(
        args.host,
        args.port,
        control_token=control_token,
        app=app,
        request_timeout=args.request_timeout,
        max_connections=args.max_connections,
    )
    return 0


def _cannot_listen(host: str, port: int) -> str | None:
    """Why the server could not listen there (busy port, unknown host), or None.

    uvicorn logs such a failure and exits by itself; asking first gives the
    one-line error every other mistake gets.
    """
    import socket

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except OSError as error:
        return f"unknown host ({error.strerror or error})"
    family, kind, proto, _name, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as error:
            return str(error.strerror or error)
    return None


def _serve_web(args: argparse.Namespace) -> int:
    gc.enable()
    try:
        from accountdesk.web import serve_dashboard
    except ImportError as error:
        print(
            f"accountdesk: serve needs textual-serve ({error.name}); "
            "pip install 'accountdesk[serve]'",
            file=sys.stderr,
        )
        return 2
    return serve_dashboard(args)


def _screenshots(directory: Path) -> int:
    try:
        from accountdesk.tui.screenshots import write_screenshots
    except ImportError as error:
        return _missing(error)
    for path in write_screenshots(directory):
        print(path)
    return 0


def _run_dashboard(args: argparse.Namespace) -> int:
    try:
        from accountdesk.core.config_values import ConfigError
        from accountdesk.core.desk import Desk
        from accountdesk.core.paths import AppDirs
        from accountdesk.core.start_settings import StartSettings, read_start_settings

        # The app's packages are imported later (after the first frame, some):
        # a client-only install is told what to install here, not by a traceback.
        _require("platformdirs")
        _require("textual")
    except ImportError as error:
        return _missing(error)
    dirs = AppDirs.default(args.config)
    # Keywords, not a literal: the control token's setting name is also in
    # AC-903's guidance, which no string literal outside the contract repeats.
    flags = dict(  # noqa: C408
        base_url="sandbox" if args.sandbox else args.base_url,
        profile=args.profile,
        sandbox_control_token=args.control_token,
    )
    try:
        # On the embedded sandbox, the first frame's few values without
        # pydantic; the app validates right after its first frame (issue 16).
        settings = read_start_settings(dirs.config_path, flags) or _validated(dirs, flags)
    except ConfigError as error:
        return _fail(str(error))
    embedded = isinstance(settings, StartSettings) or settings.sandbox
    if not isinstance(settings, StartSettings) and settings.base_url is not None:
        from accountdesk.core.plain_http import plain_http_warning

        in_clear = plain_http_warning(settings.base_url)
        if in_clear is not None:  # said here too: the dashboard's badge is gone once it quits
            _fail(f"warning: {in_clear}")
    from accountdesk.pack_flags import embedded_packs

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
                return _fail(str(error))
        return _fail(problem)
    from accountdesk.tui.app import AccountDeskApp

    options = {"scenarios": scenarios} if scenarios is not None else None
    app = AccountDeskApp(
        Desk(settings, dirs, sandbox_options=options),
        log_level=args.log_level,
        on_first_frame=_after_first_frame,
    )
    app.run()
    if app.config_problem is not None:  # validated after the first frame, as before it
        return _fail(app.config_problem)
    return app.return_code or 0


def _validated(dirs: AppDirs, flags: dict[str, Any]) -> Settings:
    """Every setting validated now (a live service: its URL is the client's rule to check)."""
    from accountdesk.core.settings import load_settings

    return load_settings(dirs.config_path, flags=flags)


def _fail(message: str) -> int:
    from accountdesk.cli_output import fail

    return fail(message)


def _after_first_frame() -> None:
    gc.enable()
    # What start-up built lives as long as the app: keep it out of later collections.
    gc.freeze()


if __name__ == "__main__":
    raise SystemExit(main())
