"""Run the command as an install without some extras would: those packages cannot be imported.

A ``sitecustomize`` on ``PYTHONPATH`` puts a finder first that refuses the
named top-level packages, so a real child process meets the
``ModuleNotFoundError`` a smaller install would (no second virtual
environment to build).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path


def environment_without(packages: Iterable[str], folder: Path) -> dict[str, str]:
    """The environment for a child process in which ``packages`` cannot be imported."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "sitecustomize.py").write_text(
        "import sys\n"
        f"HIDDEN = {sorted(set(packages))!r}\n"
        "class Hide:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] in HIDDEN:\n"
        "            raise ModuleNotFoundError(f'No module named {name!r}', name=name)\n"
        "sys.meta_path.insert(0, Hide())\n"
    )
    return {**os.environ, "PYTHONPATH": str(folder)}
