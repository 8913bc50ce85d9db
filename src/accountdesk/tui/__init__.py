"""The Textual dashboard. ``from accountdesk.tui import AccountDeskApp``.

The app class is imported on first use, so ``accountdesk sandbox`` and the
config helpers do not pay for Textual.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from accountdesk.tui.app import AccountDeskApp

__all__ = ["AccountDeskApp"]


def __getattr__(name: str) -> Any:
    if name == "AccountDeskApp":
        from accountdesk.tui.app import AccountDeskApp

        return AccountDeskApp
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
