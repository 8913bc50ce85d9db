"""The dashboard's screens and dialogs, one per module."""

from __future__ import annotations

from typing import Any

from textual.dom import DOMNode
from textual.screen import Screen


def dashboard_screens() -> list[type[Screen[Any]]]:
    """Every screen and dialog class (for checking a keymap against their keys)."""
    from accountdesk.tui.screens.account import AccountScreen
    from accountdesk.tui.screens.clipboard import ClipboardDialog
    from accountdesk.tui.screens.error_log import ErrorLogScreen
    from accountdesk.tui.screens.help import HelpScreen
    from accountdesk.tui.screens.identity import IdentityScreen
    from accountdesk.tui.screens.jobs import JobsScreen
    from accountdesk.tui.screens.login import LoginScreen
    from accountdesk.tui.screens.lookup import LookupScreen
    from accountdesk.tui.screens.mfa import MfaDialog
    from accountdesk.tui.screens.sandbox_panel import SandboxPanel
    from accountdesk.tui.screens.tour_picker import TourPickerScreen
    from accountdesk.tui.screens.transactions import TransactionsScreen

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
    from accountdesk.tui.screens.transactions import TransactionsScreen
    from accountdesk.tui.widgets.transaction_table import TransactionTable
    from accountdesk.tui.widgets.view_field import ViewField

    return {TransactionsScreen: [TransactionTable, ViewField]}
