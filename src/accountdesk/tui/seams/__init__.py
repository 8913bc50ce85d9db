"""Textual's (and rich's) private names, in one place: every seam the dashboard reaches through.

Textual is pinned (``pyproject.toml``): a newer one may rename what is here.
Each module says what Textual does, what the seam buys (measured), its
upstream issue or pull request, and why no public API does it
(docs/developer/seams.md gathers them, with the drafts of the upstream
issues not yet filed). :data:`RELIED_ON` lists every private name a seam
uses; ``tests/tui/test_seams.py`` fails when the pinned version no longer
has one, and when a private name is used anywhere outside this folder.

- :mod:`.frames`: a screen's frames paced from its last one, none painted at
  a size the screens have not been given, the first not thrown away in a batch;
- :mod:`.app`: a screen told when its first frame is written, a crash as a
  few lines, the default screen switched away from;
- :mod:`.driver`: the terminal driver (real sizes, pastes that stay text,
  the end of input, bytes that are not UTF-8);
- :mod:`.unicode`: skin-toned emoji measured as terminals draw them;
- :mod:`.stylesheet`: a screen's stylesheet read ahead of its first push;
- :mod:`.widgets`: the key bar's keys, a table's column widths, a widget's own keys;
- :mod:`.memory`: what Textual keeps of widgets that are gone.

Screens give Textual's public handlers first: an ``on_resize`` or
``on_screen_resume`` of ours runs before Textual's ``_on_resize`` (it calls
a class's handler before its bases'), so those need no seam.
"""

from __future__ import annotations

__all__ = ["RELIED_ON"]

#: Every private name a seam relies on, as (where, name): a module
#: (``textual._xterm_parser``), or an attribute of a class or of one of its
#: instances (``textual.app:App``).
RELIED_ON: tuple[tuple[str, str], ...] = (
    # frames
    ("textual.screen:Screen", "_on_timer_update"),
    ("textual.screen:Screen", "_compositor_refresh"),
    ("textual.screen:Screen", "_layout_required"),
    ("textual.screen:Screen", "_scroll_required"),
    ("textual.screen:Screen", "_repaint_required"),
    ("textual.screen:Screen", "_recompose_required"),
    ("textual.screen:Screen", "_dirty_widgets"),
    ("textual.app:App", "_batch_count"),
    ("textual.app:App", "_resize_event"),
    # app
    ("textual.app:App", "_display"),
    ("textual.app:App", "_handle_exception"),
    ("textual.app:App", "_exception"),
    ("textual.app:App", "_exception_event"),
    ("textual.app:App", "_return_code"),
    ("textual.screen:Screen", "_push_result_callback"),
    # driver
    ("textual._parser", "ParseError"),
    ("textual._xterm_parser", "XTermParser"),
    ("textual.drivers.linux_driver:LinuxDriver", "_get_terminal_size"),
    ("textual.drivers.linux_driver:LinuxDriver", "_debug"),
    ("textual.drivers.linux_driver:LinuxDriver", "_loop"),
    ("textual.drivers.linux_driver:LinuxDriver", "_app"),
    # unicode
    ("rich._unicode_data", "load"),
    # widgets
    ("textual.widgets._footer", "FooterKey"),
    ("textual.widgets._data_table:DataTable", "_require_update_dimensions"),
    ("textual.dom:DOMNode", "_bindings"),
    # memory
    ("textual._styles_cache:StylesCache", "get_inner_outer"),
)
