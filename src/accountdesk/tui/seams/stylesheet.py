"""A screen's stylesheet read ahead of its first push, as Textual would read it then.

On a screen's first push Textual reads its ``CSS_PATH`` into the app's
stylesheet and parses every source again (``App._load_screen_css``): for the
transactions screen, ~120 ms of the ``x`` press, two thirds of it. The
lookup screen has it done ahead (:mod:`accountdesk.tui.preload`), through
the same public ``Stylesheet`` calls that private method makes; the push
then finds the source read and parses nothing. No public "preload a
screen's CSS"; no upstream report (the draft is in docs/developer/seams.md).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.app import App

__all__ = ["load_screen_css"]


def load_screen_css(app: App[Any], path: Path) -> None:
    """What ``App._load_screen_css`` does for a screen whose ``CSS_PATH`` is ``path``, now."""
    if not app.stylesheet.has_source(str(path), ""):
        app.stylesheet.read(path)
        app.stylesheet.reparse()
        app.stylesheet.update(app)
