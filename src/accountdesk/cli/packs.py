"""The ``--scenarios`` flags: how the sandbox, the app and ``record`` read scenario packs.

``--scenarios FILE`` (repeatable) serves packs after the shipped users (a
pack's user of a shipped user's id replaces it, and the banner says so);
``--scenarios-only`` serves theirs alone. Every problem of a pack is a line
``accountdesk: FILE: line N: field: problem`` and exit status 2, never a
traceback: the same for ``accountdesk sandbox``, the dashboard's embedded
sandbox and ``accountdesk record`` from it.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import argparse  # not imported by the dashboard started without arguments

    from accountdesk.sandbox.scenarios import ScenarioSet

__all__ = ["add_scenario_flags", "embedded_packs", "fail", "load_packs", "served_packs"]


def fail(lines: Sequence[str]) -> int:
    """Each line on stderr as ``accountdesk: <line>``, made inert; exit status 2."""
    from accountdesk.cli.output import fail as inert_fail

    return inert_fail(lines)


def add_scenario_flags(parser: argparse.ArgumentParser, *, default: Any = None) -> None:
    """``--scenarios FILE`` (repeatable) and ``--scenarios-only`` on ``parser``."""
    parser.add_argument(
        "--scenarios",
        action="append",
        type=Path,
        metavar="FILE",
        default=default,
        help="a scenario pack (TOML) served after the shipped users; repeat for more",
    )
    parser.add_argument(
        "--scenarios-only",
        action="store_true",
        default=default if default is not None else False,
        help="serve only the users of the --scenarios packs (sandbox_key still signs in)",
    )


def load_packs(files: Sequence[Path] | None, *, only: bool = False) -> ScenarioSet | int | None:
    """The packs ``--scenarios`` names, read and merged; None for none; exit status 2 on a problem."""
    if not files:
        return fail(["--scenarios-only needs --scenarios FILE"]) if only else None
    from accountdesk.sandbox import load_scenarios
    from accountdesk.sandbox.packs.reading import PackError

    try:
        return load_scenarios(files, shipped_users=not only)
    except PackError as error:
        return fail(error.problems)


def served_packs(args: argparse.Namespace) -> ScenarioSet | int | None:
    """``accountdesk sandbox``'s packs, each named with its users as the sandbox starts."""
    loaded = load_packs(args.scenarios, only=args.scenarios_only)
    if loaded is not None and not isinstance(loaded, int):
        from accountdesk.cli.output import say

        own = [source for source in loaded.sources if not source.shipped]
        if own:
            say(
                f"scenario pack {pack.name}: "
                + (
                    ", ".join(
                        f"{user_id} (replaces the shipped user)"
                        if user_id in pack.replaces
                        else user_id
                        for user_id in pack.user_ids
                    )
                    or "no users"
                )
                for pack in own
            )
    return loaded


def embedded_packs(args: argparse.Namespace, *, live: bool) -> ScenarioSet | int | None:
    """The dashboard's ``--scenarios``: for its embedded sandbox only (exit status 2 on a live one)."""
    if args.scenarios and live:
        return fail(
            ["--scenarios: scenario packs are for the embedded sandbox, not a live service"]
        )
    return load_packs(args.scenarios, only=args.scenarios_only)
