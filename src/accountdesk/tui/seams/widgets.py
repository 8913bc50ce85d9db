"""Textual widgets' private parts ours rely on: the key bar's key, a table's column widths.

- **FooterKey** (``textual.widgets._footer``, not exported): one key of
  Textual's ``Footer``. Our key bar (:mod:`accountdesk.tui.widgets.footer`)
  composes the same keys in the order a person needs them and measures them
  before they are drawn, so it builds them itself. Draft upstream issue:
  export ``FooterKey`` (docs/developer/seams.md).
- **A DataTable's column widths changed in place**: Textual recomputes a
  table's dimensions when a flag it keeps says so
  (``DataTable._require_update_dimensions``); its only public way to set it
  is ``update_cell(..., update_width=True)``, which also measures that cell's
  column again. The jobs and error-log tables narrow their flexible columns
  to fit (:mod:`accountdesk.tui.widgets.fitted_table`) and set the flag
  themselves. No upstream report; the draft is in docs/developer/seams.md.
- **A widget's own keys** (``DOMNode._bindings``): a tour's Space, Enter
  and Backspace step aside for a focused widget that binds them itself
  (:mod:`accountdesk.tui.tour`). The public ``Screen.active_bindings`` asks
  every node's ``check_action``, the tour's own among them, which asks this:
  it would call itself. Related: Textualize/textual#4740 (open).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.dom import DOMNode
from textual.widgets._footer import FooterKey

if TYPE_CHECKING:
    # Not at run time: the key bar imports this module for the sign-in screen,
    # which has no table (DataTable's module is 3-4 ms of the first frame).
    from textual.widgets import DataTable

__all__ = ["FooterKey", "binds_any", "column_widths_changed"]


def column_widths_changed(table: DataTable[Any]) -> None:
    """Have ``table`` lay its columns out again (their widths were set in place)."""
    table._require_update_dimensions = True
    table.refresh()


def binds_any(node: DOMNode, keys: tuple[str, ...]) -> bool:
    """Whether ``node`` itself binds any of ``keys``."""
    return any(node._bindings.key_to_bindings.get(key) for key in keys)
