"""Every command of ``accountdesk``: which module runs it, its line in ``--help``.

A table, so that the command line can list every command and build the flags
of the one chosen without importing the others (:mod:`accountdesk.cli`).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["COMMANDS", "DASHBOARD", "Command"]


@dataclass(frozen=True)
class Command:
    """A command of ``accountdesk``: its module, its line in ``--help``, what it takes."""

    module: str
    help: str
    #: Draws the dashboard (its first frame ends start-up's hold on the collector).
    dashboard: bool = False
    #: Why a top-level ``--scenarios`` means nothing to it (None: it takes packs).
    no_packs: str | None = ""


#: Every command, in the order ``accountdesk --help`` lists them.
COMMANDS: dict[str, Command] = {
    "sandbox": Command("sandbox", "serve the sandbox over HTTP", no_packs=None),
    "serve": Command(
        "serve", "serve the dashboard in a web browser, for demos (needs accountdesk[serve])"
    ),
    "screenshots": Command("screenshots", "write an SVG of every screen (from the frozen sandbox)"),
    "explain": Command("explain", "what an error code means and what to do next"),
    "demo": Command(
        "demo",
        "guided tours of the service's flows, on a fresh embedded sandbox",
        dashboard=True,
        no_packs=" (a tour names its own packs)",
    ),
    "scenarios": Command(
        "scenarios",
        "check scenario packs (your own cases), print their JSON Schema",
        no_packs=" (name the packs after it: scenarios check FILE)",
    ),
    "record": Command(
        "record",
        "record a user of the service as a scenario pack user (redacted)",
        no_packs=None,
    ),
    "completion": Command("completion", "print a shell completion script (bash, zsh or fish)"),
}
#: No command: the dashboard itself (its flags are the top-level ones).
DASHBOARD = Command("dashboard", "", dashboard=True, no_packs=None)
