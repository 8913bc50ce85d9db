"""``accountdesk completion SHELL``: a completion script for bash, zsh or fish.

The script is generated from the argparse parser by shtab, so every
subcommand, flag and choice the command takes completes without a hand-kept
list. Arguments that name a file (``--config``, ``--scenarios``, a tour file)
complete file names; the screenshots folder completes folders; ``explain``
completes the codes and failure kinds it knows, ``demo`` the shipped tours'
ids. shtab comes
with the dashboard's extra (``accountdesk[app]``): the client-only install
says so in one line, exit status 2.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from accountdesk.cli.output import APP_EXTRA, fail
from accountdesk.cli.startup import StartUp

__all__ = ["SHELLS", "add_parser", "completion_script", "run"]

#: The shells a script is made for (shtab makes each from the same parser).
SHELLS = ("bash", "zsh", "fish")


def add_parser(commands: Any, help: str) -> None:
    """The ``completion`` command's flags."""
    completion = commands.add_parser(
        "completion",
        help=help,
        description="Print a completion script for SHELL, generated from this command's "
        "own flags. Install it once, e.g. for bash: accountdesk completion bash > "
        "~/.local/share/bash-completion/completions/accountdesk",
    )
    completion.add_argument("shell", choices=SHELLS, metavar="SHELL", help="bash, zsh or fish")


def _complete_paths(parser: argparse.ArgumentParser, files: Any, folders: Any) -> None:
    """Mark every argument whose type is a path: shtab then completes file names there."""
    for action in parser._actions:
        if action.type is Path:
            # shtab reads this attribute (its documented way to name a completer).
            is_folder = action.dest == "directory"
            action.complete = folders if is_folder else files  # type: ignore[attr-defined]
        if isinstance(action, argparse._SubParsersAction):
            for child in action.choices.values():
                _complete_paths(child, files, folders)


def _codes() -> list[str]:
    from accountdesk.contract import ERRORS, SANDBOX_CODES, UNLISTED_CODES, FailureKind

    return [*ERRORS, *UNLISTED_CODES, *SANDBOX_CODES, *(str(kind) for kind in FailureKind)]


def _tour_ids() -> list[str]:
    from accountdesk.core.tours.tour import shipped_tours

    return [tour.id for tour in shipped_tours()]


#: (command, argument) -> the values its completion offers.
_VALUES = {("explain", "code"): _codes, ("demo", "tour"): _tour_ids}


def _complete_values(parser: argparse.ArgumentParser, command: str = "") -> None:
    """List what explain's code and demo's tour can be: shtab completes an argument's choices.

    Only on the parser the script is made from: the command itself keeps
    taking a code as people type it (``ac108``), which choices would refuse.
    """
    for action in parser._actions:
        values = _VALUES.get((command, action.dest))
        if values is not None:
            action.choices = values()
        if isinstance(action, argparse._SubParsersAction):
            for name, child in action.choices.items():
                _complete_values(child, name)


def completion_script(parser: argparse.ArgumentParser, shell: str) -> str:
    """The completion script of ``parser`` for ``shell`` (ImportError without shtab).

    The parser is handed in: the command's own, every command's flags built
    (``build_parser(every=True)``).
    """
    import shtab

    _complete_paths(parser, shtab.FILE, shtab.DIRECTORY)
    _complete_values(parser)
    return str(shtab.complete(parser, shell=shell))


def run(args: argparse.Namespace, start_up: StartUp) -> int:
    """Print the script for ``args.shell``; exit status 2 (one line naming the extra) without shtab."""
    from accountdesk.cli.parser import build_parser

    try:
        script = completion_script(build_parser(every=True), args.shell)
    except ImportError as error:
        return fail(
            f"completion needs {error.name or 'shtab'}, which the dashboard's extra installs; "
            f"{APP_EXTRA}"
        )
    try:
        print(script, flush=True)
    except BrokenPipeError:
        # `accountdesk completion bash | head`: the reader left early, not a
        # crash; stdout to /dev/null so the flush at exit does not fail again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    return 0
