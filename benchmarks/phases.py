"""Where the first frame's time goes, phase by phase, beside the bare Textual app.

``python -m benchmarks.phases [--runs N]`` starts the dashboard and
:mod:`benchmarks.bare_app` in a terminal, alternately, as the
``first_frame`` benchmark does, with Textual's steps timed inside the
process: parsing the stylesheet, applying it (with the parse), laying
screens out, rendering the first frame, and the times of ``App.run`` and of
that frame since the interpreter started. It prints each phase's median
over the runs for both: the profile behind the ``first_frame`` row (the
eighth round in ``docs/developer/streaming.md``).

``--child app`` / ``--child bare`` is the timed process itself.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from benchmarks.processes import bench_env, run_in_terminal, scratch_home

_STARTED = time.perf_counter()
#: Where a child appends its one line of phases (set by the parent).
OUT_ENV = "ACCOUNTDESK_BENCH_PHASES"
#: The phases, in the order printed: (name, what it times).
PHASES = (
    ("run", "App.run called, ms since the interpreter started"),
    ("frame", "the first frame written, ms since the interpreter started"),
    ("run_to_frame", "App.run to the first frame"),
    ("parse", "parsing stylesheet sources"),
    ("apply", "applying the stylesheet to nodes, the parse included"),
    ("layout", "laying screens out (Compositor.reflow)"),
    ("render", "rendering frames (Compositor.render_update)"),
)


def _timed(owner: type, name: str, totals: dict[str, float], key: str) -> None:
    original: Callable[..., Any] = getattr(owner, name)

    def timed(*args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return original(*args, **kwargs)
        finally:
            totals[key] += time.perf_counter() - start

    setattr(owner, name, timed)


def child(which: str) -> None:
    """The timed process: the dashboard (``app``) or the bare app, until its first frame."""
    import textual.app
    from textual._compositor import Compositor
    from textual.css.stylesheet import Stylesheet

    totals: dict[str, float] = defaultdict(float)
    _timed(Stylesheet, "_parse_rules", totals, "parse")
    _timed(Stylesheet, "apply", totals, "apply")
    _timed(Compositor, "reflow", totals, "layout")
    _timed(Compositor, "render_update", totals, "render")
    marks: dict[str, float] = {}
    run, display = textual.app.App.run, textual.app.App._display

    def running(app: Any, *args: Any, **kwargs: Any) -> Any:
        marks["run"] = time.perf_counter()
        return run(app, *args, **kwargs)

    def shown(app: Any, screen: Any, renderable: Any) -> None:
        display(app, screen, renderable)
        if renderable is not None and not app._batch_count and "frame" not in marks:
            marks["frame"] = time.perf_counter()
            line = {
                "run": (marks["run"] - _STARTED) * 1000,
                "frame": (marks["frame"] - _STARTED) * 1000,
                "run_to_frame": (marks["frame"] - marks["run"]) * 1000,
                **{key: seconds * 1000 for key, seconds in totals.items()},
            }
            with open(os.environ[OUT_ENV], "a", encoding="utf-8") as out:
                out.write(" ".join(f"{key}={value:.2f}" for key, value in line.items()) + "\n")
            os._exit(0)  # the first frame is all this process is for

    textual.app.App.run = running  # type: ignore[method-assign,assignment]
    textual.app.App._display = shown  # type: ignore[method-assign,assignment]
    if which == "bare":
        from benchmarks.bare_app import BareApp

        BareApp().run()
    else:
        from accountdesk.cli import main as accountdesk

        sys.exit(accountdesk([]))


def measure(runs: int) -> dict[str, dict[str, float]]:
    """Each phase's median over ``runs`` processes of each app, started alternately."""
    found: dict[str, list[dict[str, float]]] = {"app": [], "bare": []}
    for _ in range(runs):
        for which, rows in found.items():
            with scratch_home() as home:
                out = home / "phases.txt"
                env = bench_env(home, **{OUT_ENV: str(out)})
                argv = [sys.executable, "-m", "benchmarks.phases", "--child", which]
                # It ends itself at its first frame, maybe before the badge is read back.
                with contextlib.suppress(RuntimeError):
                    run_in_terminal(argv, [(None, b"SANDBOX")], env=env, quit_keys=b"\x11")
                if out.exists():
                    line = out.read_text(encoding="utf-8").split()
                    rows.append({key: float(value) for key, value in (p.split("=") for p in line)})
    return {
        which: {key: statistics.median(row.get(key, 0.0) for row in rows) for key, _ in PHASES}
        for which, rows in found.items()
        if rows
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.phases", description=__doc__)
    parser.add_argument("--runs", type=int, default=8, help="processes of each app (default 8)")
    parser.add_argument("--child", choices=("app", "bare"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child(args.child)
        return 0
    medians = measure(args.runs)
    print(f"{'phase (median ms)':<22} {'accountdesk':>12} {'bare app':>10}  what")
    for key, what in PHASES:
        app, bare = (medians.get(which, {}).get(key, float("nan")) for which in ("app", "bare"))
        print(f"{key:<22} {app:>12.1f} {bare:>10.1f}  {what}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
