"""``accountdesk screenshots [DIR]``: an SVG of every screen, from a frozen embedded sandbox.

Running it twice gives the same files (frozen clocks, no cursor blink): the
README's and the manual's pictures (:mod:`accountdesk.tui.screenshots`).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from accountdesk.cli.output import missing, say
from accountdesk.cli.startup import StartUp

__all__ = ["add_parser", "run"]


def add_parser(commands: Any, help: str) -> None:
    """The ``screenshots`` command's flags."""
    shots = commands.add_parser(
        "screenshots",
        help=help,
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


def run(args: argparse.Namespace, start_up: StartUp) -> int:
    """Write the screenshots into ``args.directory``, printing each file's path."""
    try:
        from accountdesk.tui.screenshots import write_screenshots
    except ImportError as error:
        return missing(error)
    say([str(path) for path in write_screenshots(args.directory)])
    return 0
