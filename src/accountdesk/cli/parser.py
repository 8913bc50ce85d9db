"""The ``accountdesk`` command line: the top-level flags, and each command's flags on demand.

The top-level flags are the dashboard's (``accountdesk`` alone runs it). A
command's own flags are its module's (``add_parser``), built only for the
command chosen: :func:`parse` reads the command line once with every
command's name and one-line help (``accountdesk --help`` lists them), then
again with the chosen command's flags. :func:`build_parser` with
``every=True`` builds them all (shell completion, the manual's reference).
Mistakes are argparse's usage line plus one line ``accountdesk: <problem>``
and exit status 2.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from importlib import import_module
from pathlib import Path
from typing import NoReturn

from accountdesk import __version__

__all__ = ["build_parser", "parse", "port", "positive", "seconds"]


def port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 0 < port < 65536:
        raise argparse.ArgumentTypeError(f"port {port} is out of range (1-65535)")
    return port


def positive(text: str) -> int:
    try:
        number = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if number < 1:
        raise argparse.ArgumentTypeError(f"{number} must be 1 or more")
    return number


def seconds(text: str) -> float:
    try:
        seconds = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 < seconds <= 3600:  # NaN fails this too
        raise argparse.ArgumentTypeError(f"{text} must be more than 0 and at most 3600 seconds")
    return seconds


def _epilog() -> str:
    from accountdesk.core.settings.model import environment_variables
    from accountdesk.core.settings.paths import (
        DATA_DIR_HELP,
        DATA_DIR_VARIABLE,
        default_config_path,
        default_log_dir,
    )

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


def build_parser(command: str | None = None, *, every: bool = False) -> argparse.ArgumentParser:
    """The top-level flags and every command's name; ``command``'s flags (``every``: all)."""
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
    parser.add_argument(
        "--present",
        action="store_true",
        default=None,
        help="presenter mode, for demos on live data: every customer datum on screen is shown "
        "as a fake that stays the same all session (names, e-mails, phones, addresses, "
        "numbers, user ids); amounts, dates and codes stay",
    )
    # Web mode's sessions (accountdesk serve --present): presenting, and the page
    # cannot turn it off. Not a person's flag: it is not listed.
    parser.add_argument("--present-locked", action="store_true", help=argparse.SUPPRESS)
    from accountdesk.cli.packs import add_scenario_flags

    add_scenario_flags(parser)
    parser.add_argument(
        "--log-level",
        default="info",
        choices=["debug", "info", "warning", "error"],
        help="detail of the log file (default: info)",
    )
    from accountdesk.cli.commands import COMMANDS

    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name, chosen in COMMANDS.items():
        if every or name == command:
            import_module(f"accountdesk.cli.{chosen.module}").add_parser(commands, chosen.help)
        else:
            # A name and its help only: its flags (and module) are not needed
            # to find which command the line chose. No -h of its own, so
            # "COMMAND --help" is left for the second reading.
            commands.add_parser(name, help=chosen.help, add_help=False)
    return parser


def parse(argv: Sequence[str]) -> argparse.Namespace:
    """The command line read: which command, then its own flags (module docstring)."""
    parser = build_parser()
    if not argv:
        return parser.parse_args([])
    chosen, _rest = parser.parse_known_args(argv)
    if chosen.command is not None:
        parser = build_parser(chosen.command)
    return parser.parse_args(argv)
