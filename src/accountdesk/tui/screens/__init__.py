"""The dashboard's screens and dialogs, one per module."""

from __future__ import annotations

from typing import Any

from textual.dom import DOMNode
from textual.screen import Screen


def dashboard_screens() -> list[type[Screen[Any]]]:
    """Every screen and dialog class (for checking a keymap against their keys)."""
    from .account import AccountScreen
    from .clipboard import ClipboardDialog
    from .error_log import ErrorLogScreen
    from .help import HelpScreen
    from .identity import IdentityScreen
    from .jobs import JobsScreen
    from .login import LoginScreen
    from .lookup import LookupScreen
    from .mfa import MfaDialog
    from .sandbox_panel import SandboxPanel
    from .tour_picker import TourPickerScreen
    from .transactions import TransactionsScreen

    return [
        LoginScreen,
        LookupScreen,
        AccountScreen,
        IdentityScreen,
        ErrorLogScreen,
        JobsScreen,
        TransactionsScreen,
        MfaDialog,
        ClipboardDialog,
        HelpScreen,
        SandboxPanel,
        TourPickerScreen,
    ]


def keymap_widgets() -> dict[type[DOMNode], list[type[DOMNode]]]:
    """Widgets with bindings of their own, by the screen they sit on."""
    from accountdesk.tui.widgets.transaction_table import TransactionTable
    from accountdesk.tui.widgets.view_field import ViewField

    from .transactions import TransactionsScreen

    return {TransactionsScreen: [TransactionTable, ViewField]}
