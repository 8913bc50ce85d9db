"""What the desk tells the UI, as a protocol (and one that hears nothing)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from accountdesk.core.errors.log import ErrorRecord
    from accountdesk.core.jobs.tracked_job import TrackedJob
    from accountdesk.core.notices import Notice

__all__ = ["DeskListener", "NullListener"]


class DeskListener(Protocol):
    """What the desk tells the UI."""

    def jobs_changed(self) -> None: ...

    def notice(self, notice: Notice) -> None: ...

    def error_recorded(self, record: ErrorRecord) -> None: ...

    def mfa_needed(self, tracked: TrackedJob) -> None: ...

    def reachability_changed(self) -> None: ...

    def presenting_changed(self) -> None:
        """Presenter mode was turned on or off, or learnt something new: draw again."""


class NullListener:
    """A listener that hears nothing (before the UI attaches, and in core tests)."""

    def jobs_changed(self) -> None:
        pass

    def notice(self, notice: Notice) -> None:
        pass

    def error_recorded(self, record: ErrorRecord) -> None:
        pass

    def mfa_needed(self, tracked: TrackedJob) -> None:
        pass

    def reachability_changed(self) -> None:
        pass

    def presenting_changed(self) -> None:
        pass
