"""``accountdesk demo``: guided tours on a fresh embedded sandbox, or their list.

``accountdesk demo [TOUR] [--file PATH]`` runs the dashboard on a demo desk
(:mod:`accountdesk.core.tours.demo`) with a tour, or the picker; ``--list`` prints
the tours (id, steps, title) for a script or a lesson plan, ``--list --json``
every tour with its steps. Every mistake is one line and exit status 2, as
for the rest of the command line (:mod:`accountdesk.cli`, which calls this).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from accountdesk.cli.output import missing

if TYPE_CHECKING:
    from accountdesk.cli.startup import StartUp
    from accountdesk.core.tours.tour import Tour

__all__ = ["add_parser", "run"]


def add_parser(commands: Any, help: str) -> None:
    """The ``demo`` command's flags."""
    demo = commands.add_parser(
        "demo",
        help=help,
        description="Run a guided tour on a fresh embedded sandbox whose clock moves only when "
        "the tour (or the sandbox panel, F4) moves it. Without TOUR, pick one from a list. "
        "Space or Enter: next step; Backspace: the last step again; Esc: leave the tour.",
    )
    demo.add_argument("tour", nargs="?", metavar="TOUR", help="a shipped tour's id, e.g. mfa")
    demo.add_argument("--file", metavar="PATH", type=Path, help="a tour file of your own (TOML)")
    demo.add_argument(
        "--list", action="store_true", help="print the tours (id, steps, title) and exit"
    )
    demo.add_argument("--json", action="store_true", help="with --list: the tours and their steps")
    demo.add_argument(
        "--present",
        action="store_true",
        default=argparse.SUPPRESS,
        help="present while touring (customer data shown as fakes)",
    )


def _fail(message: str | list[str]) -> int:
    from accountdesk.cli.output import fail

    return fail(message)


def run(args: argparse.Namespace, start_up: StartUp) -> int:
    """Run (or list) the tours ``args`` name; the exit status."""
    try:
        from accountdesk.core.settings.model import ConfigError
        from accountdesk.core.settings.paths import AppDirs
        from accountdesk.core.tours.demo import demo_settings
        from accountdesk.core.tours.tour import TourFileError, load_tour, shipped_tours
    except ImportError as error:
        return missing(error)
    if args.json and not args.list:
        return _fail("demo: --json goes with --list")
    if args.base_url:
        return _fail("demo: tours run on a fresh embedded sandbox; drop --base-url")
    if args.tour and args.file:
        return _fail("demo: give a tour's id or --file, not both")
    try:
        tours = [load_tour(args.file)] if args.file else shipped_tours()
    except TourFileError as error:
        return _fail(str(error))
    pack_problems = _pack_problems(tours if not args.file else [*tours, *shipped_tours()])
    if pack_problems:
        return _fail(pack_problems)
    chosen: Tour | list[Tour] = tours[0] if args.file else tours
    if args.tour:
        by_id = {tour.id: tour for tour in tours}
        if args.tour not in by_id:
            return _fail(f"demo: no tour {args.tour!r}; the tours are: {', '.join(by_id)}")
        chosen = by_id[args.tour]
    if args.list:
        return _print_list(chosen if isinstance(chosen, list) else [chosen], as_json=args.json)
    dirs = AppDirs.default(args.config)
    try:
        settings = demo_settings(dirs.config_path, profile=args.profile, present=args.present)
    except ConfigError as error:
        return _fail(str(error))
    from accountdesk.tui.terminal import prepare_terminal

    problem = prepare_terminal()
    if problem is not None:
        return _fail(problem)
    import datetime as dt
    import tempfile

    from accountdesk.core.tours.demo import demo_desk
    from accountdesk.core.tours.tour import Tour
    from accountdesk.tui.app import AccountDeskApp

    # A fresh start every time: jobs and recent lookups of the demo live in a
    # scratch folder removed at exit (the log and the config are the usual ones).
    with tempfile.TemporaryDirectory(prefix="accountdesk-demo-") as scratch:
        start = dt.datetime.now(dt.UTC).replace(microsecond=0)
        first = chosen if isinstance(chosen, Tour) else None
        desk = demo_desk(
            settings,
            AppDirs(dirs.config_path, Path(scratch), dirs.log_dir),
            start=start,
            scenarios=first.scenario_files if first is not None else (),
        )
        app = AccountDeskApp(
            desk, log_level=args.log_level, on_first_frame=start_up.first_frame, tour=chosen
        )
        app.run()
    return app.return_code or 0


def _pack_problems(tours: list[Tour]) -> list[str]:
    """Every problem of the scenario packs the tours name (each tour's packs read together)."""
    from accountdesk.sandbox import load_scenarios
    from accountdesk.sandbox.packs.reading import PackError

    problems: list[str] = []
    for tour in tours:
        if not tour.scenario_files:
            continue
        try:
            load_scenarios(tour.scenario_files)
        except PackError as error:
            problems += [f"tour {tour.id}: scenarios: {problem}" for problem in error.problems]
    return problems


def _print_list(tours: list[Tour], *, as_json: bool) -> int:
    from accountdesk.core.tours.tour import tour_listing, tours_document

    if as_json:
        import json

        text = json.dumps(tours_document(tours), indent=2, ensure_ascii=False)
    else:
        text = tour_listing(tours)
    from accountdesk.cli.output import say

    say(text)  # the reader (head, a pager) may stop early: not a failure
    return 0
