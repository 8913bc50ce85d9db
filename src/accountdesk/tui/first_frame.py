"""What the app does for a quick first frame, and to know when a screen's is drawn.

A mixin of :class:`~accountdesk.tui.app.AccountDeskApp` (the ``first_frame``
benchmark times it, ``tests/tui/test_first_frame_work.py`` pins each part):

- a screen's first frame written to the terminal is said to it
  (:class:`~accountdesk.tui.messages.ScreenShown`): the sign-in screen starts
  the sandbox's build and the preload only then;
- a widget is styled once, as it mounts, not also as it is built;
- a screen pushed is built with the height class it is laid out for.
"""

from __future__ import annotations

from typing import Any
from weakref import WeakSet

from textual.app import App
from textual.dom import DOMNode
from textual.screen import Screen

from .base import height_class
from .messages import ScreenShown

__all__ = ["QuickFirstFrame"]


class QuickFirstFrame(App[None]):
    """The app's part of a quick first frame (see the module docstring)."""

    def __init__(self, *args: Any, **options: Any) -> None:
        super().__init__(*args, **options)
        #: Screens whose first frame was drawn (:class:`ScreenShown`).
        self._shown: WeakSet[Screen[object]] = WeakSet()

    def _display(self, screen: Screen[object], renderable: object) -> None:
        # Textual's: a frame goes to the terminal here, unless a batch holds
        # it back (the whole start-up is one). A screen's first is said to it.
        super()._display(screen, renderable)  # type: ignore[arg-type]
        if renderable is not None and not self._batch_count and screen not in self._shown:
            self._shown.add(screen)
            screen.post_message(ScreenShown())

    def update_styles(self, node: DOMNode, animate: bool = True) -> None:
        # Textual restyles a node whenever its classes change, also one not
        # in the DOM yet: an Input or a Button setting its classes as it is
        # built was styled alone there (seven times before the sign-in
        # screen's first frame, ~5 ms), then again as it mounts (Textual's
        # _register styles every new widget). Only the mount's counts.
        if node is not self and node.parent is None:
            return
        super().update_styles(node, animate)

    def with_height_class(self, screen: Screen[Any]) -> Screen[Any]:
        """``screen`` with its height class (``VERTICAL_BREAKPOINTS``, app.tcss) already set.

        Textual sets it at the screen's first resize, which restyled every
        widget of it once more before the first frame (~10 ms).
        """
        name = height_class(self.VERTICAL_BREAKPOINTS, self.size.height)
        if name is not None:
            screen.add_class(name, update=False)
        return screen
