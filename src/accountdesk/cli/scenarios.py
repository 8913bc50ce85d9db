"""``accountdesk scenarios``: check scenario packs and print their JSON Schema.

``accountdesk scenarios check [FILE ...]`` reads each pack as the sandbox
would (after the shipped default pack, so a user id taken twice is caught)
and prints what each user does; without a file, the packs that come with
accountdesk. ``accountdesk scenarios schema`` prints the pack's JSON Schema,
generated from the models, for an editor to check a pack as it is typed.
Every problem is a line ``accountdesk: FILE: line N: field: problem`` and
exit status 2, never a traceback. Needs only the base install (pydantic).

The ``--scenarios`` flags themselves are :mod:`accountdesk.cli.packs`.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from accountdesk.cli.packs import fail

if TYPE_CHECKING:
    from accountdesk.cli.startup import StartUp
    from accountdesk.sandbox.scenarios import ScenarioSet

__all__ = ["add_parser", "run"]


def add_parser(commands: Any, help: str) -> None:
    """The ``scenarios`` command and its ``check`` and ``schema`` subcommands."""
    scenarios = commands.add_parser(
        "scenarios",
        help=help,
        description="Scenario packs are TOML files of sandbox users (docs/trainer/scenario-packs.md).",
    )
    actions = scenarios.add_subparsers(dest="scenarios_command", metavar="ACTION")
    check = actions.add_parser(
        "check",
        help="check packs and say what each user does",
        description="Check scenario packs as the sandbox reads them and print each user's "
        "behaviour. Without FILE, the packs that come with accountdesk.",
    )
    check.add_argument("files", nargs="*", type=Path, metavar="FILE")
    actions.add_parser("schema", help="print the JSON Schema of a pack (for an editor)")


def run(args: argparse.Namespace, start_up: StartUp) -> int:
    """``accountdesk scenarios check|schema``."""
    if args.scenarios_command == "schema":
        from accountdesk.sandbox.packs.models import pack_schema

        print(json.dumps(pack_schema(), indent=2, ensure_ascii=False))
        return 0
    if args.scenarios_command != "check":
        return fail(["scenarios: say check or schema (accountdesk scenarios --help)"])
    from accountdesk.sandbox.packs.reading import shipped_pack_path

    files = list(args.files)
    shipped = not files
    if shipped:
        folder = shipped_pack_path().parent
        files = sorted(p for p in folder.glob("*.toml") if p.name != shipped_pack_path().name)
    from accountdesk.cli.packs import load_packs

    loaded = load_packs(files)
    if isinstance(loaded, int):
        return loaded
    assert loaded is not None
    _print_summary(loaded, shipped=shipped)
    return 0


def _print_summary(scenarios: ScenarioSet, *, shipped: bool) -> None:
    from accountdesk.sandbox.packs.summary import details

    lines: list[str] = []
    sources = [s for s in scenarios.sources if shipped or not s.shipped]
    for source in sources:
        users = len(source.user_ids)
        title = f' "{source.title}"' if source.title else ""
        lines.append(f"{source.name}{title}: {users} user{'s' if users != 1 else ''}")
        if source.description:  # a paragraph: each of its lines indented
            lines += [f"  {line}" for line in source.description.splitlines()]
        if scenarios.clock_start is not None and not source.shipped:
            lines.append(f"  clock starts at {scenarios.clock_start.isoformat()}")
        for user_id in source.user_ids:
            scenario = scenarios.users[user_id]
            lines.append(f"  {user_id}: {scenario.summary}")
            if user_id in source.replaces:
                lines.append(f"      replaces the shipped {user_id}")
            lines += [f"      {line}" for line in details(scenario)]
    own = [c for c in scenarios.credentials if c.api_key not in {"sandbox_key", "limited_key"}]
    for credential in own:
        lines.append(f"  credential {credential.api_key}: {credential.access}")
    count = sum(len(s.user_ids) for s in sources)
    packs = f"{len(sources)} pack{'s' if len(sources) != 1 else ''}"
    lines.append(f"OK: {packs}, {count} user{'s' if count != 1 else ''}")
    from accountdesk.cli.output import say

    say(lines)  # the pack's texts were checked; its file name was not
