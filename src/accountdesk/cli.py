"""The ``accountdesk`` command.

``accountdesk`` runs the dashboard (on the embedded sandbox unless a base URL
is configured); ``accountdesk sandbox`` serves the sandbox over HTTP;
``accountdesk screenshots DIR`` writes an SVG of every screen.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path


def _epilog() -> str:
    from accountdesk.tui.config import default_config_path, default_log_dir

    # One path per line, printed as is (RawDescriptionHelpFormatter): argparse
    # would otherwise wrap long paths in the middle.
    return "\n".join(
        [
            "files:",
            f"  config file  {default_config_path()}",
            f"  log file     {default_log_dir() / 'accountdesk.log'}",
            "",
            "environment (flags beat the environment, which beats the config file):",
            "  ACCOUNTDESK_BASE_URL, ACCOUNTDESK_API_KEY, ACCOUNTDESK_API_SECRET,",
            "  ACCOUNTDESK_PROFILE",
        ]
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="accountdesk",
        description="Terminal dashboard for the Account Data Service\n"
        "(runs on the embedded sandbox unless a base URL is configured).",
        epilog=_epilog(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
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
        "--log-level",
        default="info",
        choices=["debug", "info", "warning", "error"],
        help="detail of the log file (default: info)",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    sandbox = commands.add_parser("sandbox", help="serve the sandbox over HTTP")
    sandbox.add_argument(
        "--host", default="127.0.0.1", help="interface to listen on (default 127.0.0.1)"
    )
    sandbox.add_argument("--port", type=int, default=8765, help="port (default 8765)")
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
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command == "sandbox":
        from accountdesk.sandbox import serve

        serve(args.host, args.port)
        return 0
    if args.command == "screenshots":
        from accountdesk.tui.screenshots import write_screenshots

        for path in write_screenshots(args.directory):
            print(path)
        return 0
    return run_dashboard(args)


def run_dashboard(args: argparse.Namespace) -> int:
    from accountdesk.tui.config import ConfigError, resolve_settings

    try:
        settings = resolve_settings(
            config_path=args.config,
            base_url=args.base_url,
            profile=args.profile,
            sandbox=args.sandbox,
        )
    except ConfigError as error:
        print(f"accountdesk: {error}", file=sys.stderr)
        return 2
    from accountdesk.tui.app import AccountDeskApp

    app = AccountDeskApp(settings=settings, log_level=args.log_level)
    app.run()
    return app.return_code or 0


if __name__ == "__main__":
    raise SystemExit(main())
