"""The ``accountdesk`` command: one module per command, chosen from a table.

``accountdesk`` runs the dashboard (:mod:`.dashboard`: on the embedded sandbox
unless a base URL is configured). Each command is a module of this package
with ``add_parser(commands, help)`` (its flags) and ``run(args, start_up)``
(what it does, the exit status); :mod:`.commands` names them. Only the
chosen command's module is imported, and its flags built (:mod:`.parser`):
the dashboard's first frame waits for no other command.

Shared by several commands: the top-level flags (:mod:`.parser`), the
``--scenarios`` flags (:mod:`.packs`), what the command line prints
(:mod:`.output`: every line through the one sanitiser) and the garbage
collector through start-up (:mod:`.startup`).

Every mistake on the command line or in the config file is one line,
``accountdesk: <where>: <problem>``, and exit status 2: never a traceback.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from importlib import import_module

from accountdesk.cli.commands import COMMANDS, DASHBOARD
from accountdesk.cli.startup import StartUp

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    """``accountdesk``: parse the command line, run the command chosen; the exit status."""
    with StartUp() as start_up:
        from accountdesk.cli.parser import parse

        args = parse(sys.argv[1:] if argv is None else argv)
        command = COMMANDS[args.command] if args.command else DASHBOARD
        if args.scenarios and command.no_packs is not None:
            from accountdesk.cli.output import fail

            return fail(f"{args.command}: takes no --scenarios{command.no_packs}")
        if not command.dashboard:
            start_up.release()
        module = import_module(f"{__name__}.{command.module}")
        status: int = module.run(args, start_up)
        return status
