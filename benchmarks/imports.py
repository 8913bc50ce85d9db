"""What the dashboard imports before its first frame that a bare Textual app does not.

``python -m benchmarks.imports`` runs two fresh interpreters with
``-X importtime``: one importing what ``accountdesk`` imports before it
paints (the command, the desk, the settings, the app and the sign-in
screen), one importing what :mod:`benchmarks.bare_app` needs. It prints the
modules only the first one loads, summed by top-level package (self time,
so nothing is counted twice), largest first: the start-up profile of the
``first_frame`` benchmark.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections import defaultdict
from functools import partial

from benchmarks.processes import CHECKOUT, python_env

APP_IMPORTS = (
    "accountdesk.cli",
    "accountdesk.core.desk",
    "accountdesk.core.settings.paths",
    "accountdesk.core.settings.start",
    "accountdesk.cli.packs",
    "accountdesk.tui.app",
    "accountdesk.tui.seams.driver",
)
#: What ``benchmarks.bare_app`` loads before its first frame: its widgets and
#: the terminal driver too (counted as the dashboard's alone, the footer's and
#: the input's modules made its extra look ~5 ms larger than it is).
BARE_IMPORTS = (
    "textual.app",
    "textual.widgets",
    "textual.widgets._header",
    "textual.widgets._input",
    "textual.widgets._data_table",
    "textual.widgets._footer",
    "textual.drivers.linux_driver",
)
_LINE = re.compile(r"import time:\s+(\d+) \|\s+(\d+) \|( *)(\S+)")


def import_times(modules: tuple[str, ...]) -> dict[str, int]:
    """Self time in microseconds of every module a fresh interpreter loads for ``modules``."""
    code = "; ".join(f"import {module}" for module in modules)
    argv = [sys.executable, "-X", "importtime", "-c", code]
    run = partial(subprocess.run, argv, capture_output=True, text=True, check=True, cwd=CHECKOUT)
    run(env=python_env())  # compiles what is not compiled yet
    done = run(env=python_env())
    times = {}
    for line in done.stderr.splitlines():
        match = _LINE.match(line)
        if match:
            times[match.group(4)] = int(match.group(1))
    return times


def main() -> None:
    app = import_times(APP_IMPORTS)
    bare = import_times(BARE_IMPORTS)
    extra = {module: us for module, us in app.items() if module not in bare}
    by_package: dict[str, int] = defaultdict(int)
    for module, us in extra.items():
        by_package[module.split(".")[0]] += us
    total = sum(extra.values())
    print("modules the dashboard imports before its first frame and a bare Textual app does not:")
    print(f"{len(extra)} modules, {total / 1000:.0f} ms (self times, one run, -X importtime)\n")
    for package, us in sorted(by_package.items(), key=lambda item: -item[1])[:20]:
        print(f"{us / 1000:8.1f} ms  {package}")
    print("\nlargest single modules:")
    for module, us in sorted(extra.items(), key=lambda item: -item[1])[:15]:
        print(f"{us / 1000:8.1f} ms  {module}")


if __name__ == "__main__":
    main()
