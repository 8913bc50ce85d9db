"""``accountdesk serve``: the dashboard in a web browser, for demos over a screen share.

Web mode itself is :mod:`accountdesk.web` (each browser tab its own
dashboard process, a token in the address); this is its command line. It
needs textual-serve (``accountdesk[serve]``): without it, one line saying so.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from accountdesk.cli.output import fail
from accountdesk.cli.parser import port
from accountdesk.cli.startup import StartUp

__all__ = ["add_parser", "run"]


def add_parser(commands: Any, help: str) -> None:
    """The ``serve`` command's flags."""
    web = commands.add_parser(
        "serve",
        help=help,
        description="Serve the dashboard as a web page (textual-serve): each browser tab is "
        "its own dashboard process, on its own embedded sandbox unless --base-url names a "
        "service. Listens on 127.0.0.1: whoever reaches the page gets the dashboard.",
    )
    web.add_argument(
        "--host", default="127.0.0.1", help="interface to listen on (default 127.0.0.1)"
    )
    web.add_argument("--port", type=port, default=8000, help="port (default 8000)")
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
    web.add_argument(
        "--present",
        action="store_true",
        default=argparse.SUPPRESS,
        help="every browser tab presents (customer data shown as fakes), and the page "
        "cannot turn it off",
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


def run(args: argparse.Namespace, start_up: StartUp) -> int:
    """Serve the dashboard until Ctrl+C; the exit status."""
    try:
        from accountdesk.web import serve_dashboard
    except ImportError as error:
        return fail(f"serve needs textual-serve ({error.name}); pip install 'accountdesk[serve]'")
    return serve_dashboard(args)
