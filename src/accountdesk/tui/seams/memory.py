"""What Textual keeps of widgets that are gone: let go as a screen goes and as toasts are redrawn.

- **Rendered lines of removed widgets** (``textual._styles_cache``, not
  exported): Textual keeps the rendered lines of the last 1,024 widgets
  drawn, removed or not. An ``lru_cache`` on a method
  (``StylesCache.get_inner_outer``) holds each widget's line cache in its
  key, and no public API reaches it: Textualize/textual#6665 (open in the
  pinned 8.2.8). :func:`let_go_of_removed_widgets` empties it as a screen
  goes (:mod:`accountdesk.tui.base`) and as the toasts are drawn again
  (:mod:`accountdesk.tui.toasts`); it lets go of those widgets and of all
  removed before (the key bar's keys, the palette's), and costs adding two
  colours again at the next frame.

  Buys: a jobs or account screen opened and closed again and again leaves no
  line cache behind (``tests/tui/test_memory_churn.py``: before, each
  round left its screen's ~20, to 1,024 widgets' worth).

The other things the soak's memory grew by need no private name: the jobs
signal is left by the public ``Signal.unsubscribe`` (:mod:`accountdesk.tui.base`),
a toast's holder removed with ``remove_children`` (:mod:`accountdesk.tui.toasts`),
a table's stale renderings dropped by ``notify_style_update``
(:mod:`accountdesk.tui.widgets.fitted_table`).
"""

from __future__ import annotations

from textual._styles_cache import StylesCache

__all__ = ["StylesCache", "let_go_of_removed_widgets"]


def let_go_of_removed_widgets() -> None:
    """Let go of the rendered lines Textual keeps of widgets removed: call where widgets go."""
    StylesCache.get_inner_outer.cache_clear()
