"""Messages workers post to the UI (workers never touch widgets themselves)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.message import Message

if TYPE_CHECKING:
    from accountdesk.client import AccountDataClient, AccountDataError


class ServiceFailed(Message):
    """A call to the service failed.

    Posted by a screen's worker; the screen may react (show a placeholder)
    and the message bubbles on to the app, which toasts and logs it.
    ``operation`` names the call (``"get_balance"``) so the screen knows
    which part failed.
    """

    def __init__(self, error: AccountDataError, operation: str = "") -> None:
        super().__init__()
        self.error = error
        self.operation = operation


class SignedIn(Message):
    """The credentials were accepted; ``client`` holds a fresh token."""

    def __init__(self, client: AccountDataClient, api_key: str) -> None:
        super().__init__()
        self.client = client
        self.api_key = api_key
