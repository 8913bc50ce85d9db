"""Messages of the dashboard: workers and the desk post them, handlers draw.

Workers never touch widgets: they post one of these. Every failure takes one
path, :class:`ServiceFailed`: the screen that started the call may react (a
panel says what is missing, a spinner stops) and the message bubbles on to
the app, which logs it, adds it to the error log and shows the toast.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.message import Message

if TYPE_CHECKING:
    from accountdesk.client import AccountDataError
    from accountdesk.core.errors.log import ErrorRecord, InternalError
    from accountdesk.core.jobs.tracker import TrackedJob
    from accountdesk.core.notices import Notice

__all__ = [
    "ErrorRecorded",
    "JobsChanged",
    "MfaNeeded",
    "OpenAccount",
    "OpenMfaDialog",
    "PresentingChanged",
    "ReachabilityChanged",
    "RecordScenario",
    "ServiceFailed",
    "ServiceIdentified",
    "ShowNotice",
    "SignOutRequested",
    "SignedIn",
]


class ServiceFailed(Message):
    """A call failed: the service refused, the network failed, or our own code raised.

    ``operation`` names the call (``"get_balance"``) so the screen knows which
    part failed; for an internal error it is the name of the worker.
    """

    def __init__(self, error: AccountDataError | InternalError, operation: str = "") -> None:
        super().__init__()
        self.error = error
        self.operation = operation


class SettingsUnusable(Message):
    """Validation (right after the first frame) refused the settings: the app quits, the command says why."""

    def __init__(self, problem: str) -> None:
        super().__init__()
        self.problem = problem


class SignedIn(Message):
    """The credentials were accepted; the desk holds the client."""

    def __init__(self, api_key: str) -> None:
        super().__init__()
        self.api_key = api_key


class ServiceIdentified(Message):
    """The app learnt, before sign-in, whether the service is a sandbox (the badge follows)."""


class RecordScenario(Message):
    """Open the dialog that records ``user_id`` as a scenario (the palette's command)."""

    def __init__(self, user_id: str) -> None:
        super().__init__()
        self.user_id = user_id


class SignOutRequested(Message):
    """A screen asks the app to sign out."""


class OpenAccount(Message):
    """A screen asks the app to open a user's account."""

    def __init__(self, user_id: str) -> None:
        super().__init__()
        self.user_id = user_id


class OpenMfaDialog(Message):
    """A screen asks the app to open the MFA dialog of a tracked job."""

    def __init__(self, key: str) -> None:
        super().__init__()
        self.key = key


# -- what the desk's listener posts ----------------------------------------------


class JobsChanged(Message):
    """Tracked jobs changed (coalesced: one pending at a time)."""


class ShowNotice(Message):
    def __init__(self, notice: Notice) -> None:
        super().__init__()
        self.notice = notice


class ErrorRecorded(Message):
    """The desk recorded an error on its own (a poll failed)."""

    def __init__(self, record: ErrorRecord) -> None:
        super().__init__()
        self.record = record


class PresentingChanged(Message):
    """Presenter mode was turned on or off, or learnt new originals: draw everything again."""


class ReachabilityChanged(Message):
    """The service stopped answering, or answers again."""


class MfaNeeded(Message):
    def __init__(self, tracked: TrackedJob) -> None:
        super().__init__()
        self.tracked = tracked


class ScreenShown(Message):
    """The screen's first frame is on the terminal (posted to it by the app, once).

    What may wait until then (the sandbox's build, the service's probe)
    waits for this rather than an after-refresh callback: Textual runs those
    while the app's start-up batch still holds the frame back.
    """
