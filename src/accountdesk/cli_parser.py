"""The ``accountdesk`` command line: every flag and subcommand, and their checks.

Kept apart from :mod:`accountdesk.cli` (what each command does) so neither
grows past a screenful of concerns. Mistakes are argparse's usage line plus
one line ``accountdesk: <problem>`` and exit status 2.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import NoReturn

from accountdesk import __version__

__all__ = ["build_parser"]


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


def _seconds(text: str) -> float:
    try:
        seconds = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 < seconds <= 3600:  # NaN fails this too
        raise argparse.ArgumentTypeError(f"{text} must be more than 0 and at most 3600 seconds")
    return seconds


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
        ("ACCOUNTDESK_SERVE_TOKEN", "web mode's token (serve; default: a new one per run)"),
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


class _Parser(argparse.ArgumentParser):
    #: Builds the top-level epilog when help is printed, not at every parse:
    #: it lists the settings model's variables, and importing the model
    #: (pydantic) before the dashboard's first frame cost it ~60 ms (issue 16).
    lazy_epilog: Callable[[], str | None] | None = None

    def format_help(self) -> str:
        if self.lazy_epilog is not None:
            self.epilog, self.lazy_epilog = _client_only_none(self.lazy_epilog), None
        return super().format_help()

    def error(self, message: str) -> NoReturn:
        # argparse's own format ("usage: ...\n prog: error: ...") plus our one-line rule.
        self.print_usage(sys.stderr)
        self.exit(2, f"accountdesk: {message}\n")


def _client_only_none(epilog: Callable[[], str | None]) -> str | None:
    try:
        return epilog()
    except ImportError:  # the client-only install has no platformdirs
        return None


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="accountdesk",
        description="Terminal dashboard for the Account Data Service\n"
        "(runs on the embedded sandbox unless a base URL is configured).",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.lazy_epilog = _epilog
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
    sandbox.add_argument(
        "--request-timeout",
        type=_seconds,
        default=10.0,
        metavar="SECONDS",
        help="close a connection that has not sent a whole request in this time (default 10)",
    )
    sandbox.add_argument(
        "--max-connections",
        type=_positive,
        metavar="N",
        help="connections held at once; more are answered 503 (default 512, fewer when "
        "this process may open fewer files)",
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
        "--token",
        metavar="TOKEN",
        help="the token the page needs (default: a new random one per run, printed in the "
        "address); other users can see a command line (ps): prefer ACCOUNTDESK_SERVE_TOKEN",
    )
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
    from accountdesk import completion_command, demo_command, record_command, scenarios_command

    demo_command.add_parser(commands)
    scenarios_command.add_parser(commands)
    record_command.add_parser(commands)
    completion_command.add_parser(commands)
    return parser
