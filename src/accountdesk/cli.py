"""The ``accountdesk`` command.

``accountdesk`` runs the dashboard (on the embedded sandbox unless a base URL
is configured); ``accountdesk sandbox`` serves the sandbox over HTTP;
``accountdesk screenshots DIR`` writes an SVG of every screen; ``accountdesk
explain [CODE]`` says what an error code means and what to do next;
``accountdesk serve`` shows the dashboard in a browser (``accountdesk.web``);
``accountdesk demo`` runs guided tours on a fresh embedded sandbox;
``accountdesk scenarios`` checks scenario packs and ``accountdesk record``
makes one from a live user.

Every mistake on the command line or in the config file is one line,
``accountdesk: <where>: <problem>``, and exit status 2: never a traceback.
"""

from __future__ import annotations

import argparse
import gc
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

from accountdesk import __version__

__all__ = ["build_parser", "main"]

#: What the dashboard needs beyond the client library.
_APP_EXTRA = "pip install 'accountdesk[app]'"


def _port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 0 < port < 65536:
        raise argparse.ArgumentTypeError(f"port {port} is out of range (1-65535)")
    return port


def _positive(text: str) -> int:
    try:
        number = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if number < 1:
        raise argparse.ArgumentTypeError(f"{number} must be 1 or more")
    return number


def _epilog() -> str:
    from accountdesk.core.paths import (
        DATA_DIR_HELP,
        DATA_DIR_VARIABLE,
        default_config_path,
        default_log_dir,
    )
    from accountdesk.core.settings import environment_variables

    # Generated from the settings model: a new setting is listed without a
    # hand edit. One path per line, printed as is (argparse would wrap it).
    variables = [
        *environment_variables(),
        (DATA_DIR_VARIABLE, DATA_DIR_HELP),
        ("NO_COLOR", "draw without colour (every state still reads)"),
    ]
    width = max(len(name) for name, _ in variables)
    return "\n".join(
        [
            "files:",
            f"  config file  {default_config_path()}",
            f"  log file     {default_log_dir() / 'accountdesk.log'}",
            "",
            "environment (flags beat the environment, which beats the config file):",
            *(f"  {name:<{width}}  {text}" for name, text in variables),
        ]
    )


#: ``sandbox --help``: the trainer's three calls (the banner prints them as curl lines).
_ROOM_HELP = """\
training room (--tenants), each call with the header X-Sandbox-Control-Token:
  GET  /_sandbox/trainees             list trainees: clock, open jobs, blocks
  POST /_sandbox/reset?trainee=NAME   reset one trainee (NAME or trainee_NAME)
  POST /_sandbox/reset                reset every trainee and the shared world
"""


#: Commands a top-level ``--scenarios`` would mean nothing to.
_NO_PACKS = ("screenshots", "explain", "serve", "demo", "scenarios")


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        # argparse's own format ("usage: ...\n prog: error: ...") plus our one-line rule.
        self.print_usage(sys.stderr)
        self.exit(2, f"accountdesk: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    try:
        epilog = _epilog()
    except ImportError:  # the client-only install has no platformdirs
        epilog = None
    parser = _Parser(
        prog="accountdesk",
        description="Terminal dashboard for the Account Data Service\n"
        "(runs on the embedded sandbox unless a base URL is configured).",
        epilog=epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"accountdesk {__version__}")
    parser.add_argument(
        "--base-url",
        metavar="URL",
        help="a real service to use (else $ACCOUNTDESK_BASE_URL, the config file, or the sandbox)",
    )
    parser.add_argument(
        "--sandbox",
        action="store_true",
        help="use the embedded sandbox even if a base URL is configured",
    )
    parser.add_argument(
        "--profile", metavar="NAME", help="a [profiles.NAME] table of the config file"
    )
    parser.add_argument("--config", metavar="PATH", type=Path, help="config file to read")
    parser.add_argument(
        "--control-token",
        metavar="TOKEN",
        help="a training sandbox's control token: F4 shows the room (on a shared machine "
        "prefer $ACCOUNTDESK_SANDBOX_CONTROL_TOKEN: others can read a command line)",
    )
    from accountdesk.pack_flags import add_scenario_flags

    add_scenario_flags(parser)
    parser.add_argument(
        "--log-level",
        default="info",
        choices=["debug", "info", "warning", "error"],
        help="detail of the log file (default: info)",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sandbox = commands.add_parser(
        "sandbox",
        help="serve the sandbox over HTTP",
        epilog=_ROOM_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sandbox.add_argument(
        "--host", default="127.0.0.1", help="interface to listen on (default 127.0.0.1)"
    )
    sandbox.add_argument("--port", type=_port, default=8765, help="port (default 8765)")
    sandbox.add_argument(
        "--tenants",
        action="store_true",
        help="training room: every trainee_<name> key gets its own isolated world",
    )
    sandbox.add_argument(
        "--max-tenants",
        type=_positive,
        default=100,
        metavar="N",
        help="trainee worlds at most (100)",
    )
    sandbox.add_argument(
        "--control-token",
        metavar="TOKEN",
        help="token for the control endpoints (made and printed when serving beyond "
        "loopback or with --tenants)",
    )
    sandbox.add_argument(
        "--bulk-transactions",
        type=_positive,
        default=100_000,
        metavar="N",
        help="transactions of user_bulk (default 100,000)",
    )
    add_scenario_flags(sandbox, default=argparse.SUPPRESS)
    sandbox.add_argument(
        "--openapi",
        action="store_true",
        help="print the OpenAPI 3.1 document (for Postman or Posting) and exit",
    )
    web = commands.add_parser(
        "serve",
        help="serve the dashboard in a web browser, for demos (needs accountdesk[serve])",
        description="Serve the dashboard as a web page (textual-serve): each browser tab is "
        "its own dashboard process, on its own embedded sandbox unless --base-url names a "
        "service. Listens on 127.0.0.1: whoever reaches the page gets the dashboard.",
    )
    web.add_argument(
        "--host", default="127.0.0.1", help="interface to listen on (default 127.0.0.1)"
    )
    web.add_argument("--port", type=_port, default=8000, help="port (default 8000)")
    web.add_argument(
        "--allow-remote-live",
        action="store_true",
        help="serve a live --base-url on a non-loopback --host (anyone reaching the page "
        "can sign in with the credentials remembered here)",
    )
    # The dashboard's own flags also work after "serve"; SUPPRESS keeps the
    # ones given before it.
    web.add_argument(
        "--base-url",
        metavar="URL",
        default=argparse.SUPPRESS,
        help="a live service (default: the embedded sandbox, even if one is configured)",
    )
    web.add_argument(
        "--profile", metavar="NAME", default=argparse.SUPPRESS, help="a [profiles.NAME] table"
    )
    web.add_argument(
        "--config", metavar="PATH", type=Path, default=argparse.SUPPRESS, help="config file to read"
    )
    shots = commands.add_parser(
        "screenshots",
        help="write an SVG of every screen (from the frozen sandbox)",
        description="Write one SVG per screen of the dashboard, made on the embedded sandbox "
        "with frozen clocks, so running it twice gives the same files.",
    )
    shots.add_argument(
        "directory",
        type=Path,
        nargs="?",
        default=Path("screenshots"),
        help="folder to write the SVG files into, created if missing (default: ./screenshots)",
    )
    explain = commands.add_parser(
        "explain",
        help="what an error code means and what to do next",
        description="Explain an AC- code (or a failure without one, such as timeout): "
        "the service's message, what it means and what support should do next. "
        "Without a code, list them all.",
    )
    explain.add_argument("code", nargs="?", help="AC-nnn, nnn, or a failure kind")
    from accountdesk import demo_command, record_command, scenarios_command

    demo_command.add_parser(commands)
    scenarios_command.add_parser(commands)
    record_command.add_parser(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    # Start-up allocates many long-lived objects (modules, styles, widgets):
    # collecting during it only costs time; everything is frozen once painted.
    gc.disable()
    try:
        args = build_parser().parse_args(argv)
        if args.scenarios and args.command in _NO_PACKS:
            return _fail(f"{args.command}: takes no --scenarios (a tour names its own packs)")
        if args.command == "sandbox":
            return _serve_sandbox(args)
        if args.command == "screenshots":
            return _screenshots(args.directory)
        if args.command == "explain":
            from accountdesk.explain import explain

            return explain(args.code)
        if args.command == "serve":
            return _serve_web(args)
        if args.command == "demo":
            from accountdesk.demo_command import run_demo

            return run_demo(args, missing=_missing, on_first_frame=_after_first_frame)
        if args.command in ("scenarios", "record"):
            from accountdesk.scenarios_command import run_case_command

            return run_case_command(args, missing=_missing)
        return _run_dashboard(args)
    finally:
        gc.enable()


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
    from accountdesk.pack_flags import served_packs

    if isinstance(scenarios := served_packs(args), int):
        return scenarios
    try:
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
        print(f"accountdesk: sandbox: {error}", file=sys.stderr)
        return 2
    problem = _cannot_listen(args.host, args.port)
    if problem is not None:
        print(f"accountdesk: sandbox on {args.host}:{args.port}: {problem}", file=sys.stderr)
        return 2
    serve(args.host, args.port, control_token=control_token, app=app)
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
        from accountdesk.core.desk import Desk
        from accountdesk.core.paths import AppDirs
        from accountdesk.core.settings import ConfigError, load_settings
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
        settings = load_settings(dirs.config_path, flags=flags)
    except ConfigError as error:
        print(f"accountdesk: {error}", file=sys.stderr)
        return 2
    from accountdesk.pack_flags import embedded_packs

    if isinstance(scenarios := embedded_packs(args, live=not settings.sandbox), int):
        return scenarios
    from accountdesk.tui.terminal import prepare_terminal

    problem = prepare_terminal()
    if problem is not None:
        return _fail(problem)
    from accountdesk.tui.app import AccountDeskApp

    options = {"scenarios": scenarios} if scenarios is not None else None
    app = AccountDeskApp(
        Desk(settings, dirs, sandbox_options=options),
        log_level=args.log_level,
        on_first_frame=_after_first_frame,
    )
    app.run()
    return app.return_code or 0


def _fail(message: str) -> int:
    print(f"accountdesk: {message}", file=sys.stderr)
    return 2


def _after_first_frame() -> None:
    gc.enable()
    # What start-up built lives as long as the app: keep it out of later collections.
    gc.freeze()


if __name__ == "__main__":
    raise SystemExit(main())
