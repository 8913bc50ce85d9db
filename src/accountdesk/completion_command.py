"""``accountdesk completion SHELL``: a completion script for bash, zsh or fish.

The script is generated from the argparse parser by shtab, so every
subcommand, flag and choice the command takes completes without a hand-kept
list. Arguments that name a file (``--config``, ``--scenarios``, a tour file)
complete file names; the screenshots folder completes folders. shtab comes
with the dashboard's extra (``accountdesk[app]``): the client-only install
says so in one line, exit status 2.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

__all__ = ["SHELLS", "add_parser", "completion_script", "run_completion"]

#: The shells a script is made for (shtab makes each from the same parser).
SHELLS = ("bash", "zsh", "fish")
_EXTRA = "pip install 'accountdesk[app]'"


def add_parser(commands: Any) -> None:
    """The ``completion`` command."""
    completion = commands.add_parser(
        "completion",
        help="print a shell completion script (bash, zsh or fish)",
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


def completion_script(parser: argparse.ArgumentParser, shell: str) -> str:
    """The completion script of ``parser`` for ``shell`` (ImportError without shtab).

    The parser is handed in (the command's own, ``cli_parser.build_parser()``)
    rather than imported: the parser module adds this command to itself.
    """
    import shtab

    _complete_paths(parser, shtab.FILE, shtab.DIRECTORY)
    return str(shtab.complete(parser, shell=shell))


def run_completion(parser: argparse.ArgumentParser, shell: str) -> int:
    """Print the script; exit status 2 (one line naming the extra) without shtab."""
    try:
        script = completion_script(parser, shell)
    except ImportError as error:
        print(
            f"accountdesk: completion needs {error.name or 'shtab'}, which the dashboard's "
            f"extra installs; {_EXTRA}",
            file=sys.stderr,
        )
        return 2
    try:
        print(script, flush=True)
    except BrokenPipeError:
        # `accountdesk completion bash | head`: the reader left early, not a
        # crash; stdout to /dev/null so the flush at exit does not fail again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    return 0
