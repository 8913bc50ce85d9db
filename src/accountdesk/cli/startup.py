"""Python's cyclic garbage collector through start-up, in one place.

Start-up allocates many long-lived objects (modules, styles, widgets): a
collection during it only walks them again and again, and costs the first
frame its time. So :func:`main` holds the collector from the command's first
line. A command that draws no dashboard lets it go at once
(:meth:`StartUp.release`); the dashboard lets it go once its first frame is
on the terminal (:meth:`StartUp.first_frame`), freezing what start-up built,
which lives as long as the app, out of every later collection. Leaving the
``with`` block lets it go whatever happened.
"""

from __future__ import annotations

import gc
from types import TracebackType

__all__ = ["StartUp"]


class StartUp:
    """``with StartUp() as start_up:`` holds the collector (see the module docstring)."""

    def __enter__(self) -> StartUp:
        gc.disable()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        gc.enable()

    def release(self) -> None:
        """A command that draws no dashboard: collect as usual from now on."""
        gc.enable()

    @staticmethod
    def first_frame() -> None:
        """The dashboard's first frame is on the terminal: collect again, start-up frozen."""
        gc.enable()
        # What start-up built lives as long as the app: keep it out of later collections.
        gc.freeze()
