"""Which toasts are on screen: a capped stack where a repeat is counted, not stacked.

Five identical "Cannot connect" toasts once hid the service badge. Here a
toast equal to one still showing (same title, text and severity) replaces it
with a count (``Cannot connect ×3``) and its timer starts again; and only the
``cap`` newest stay. The UI redraws the stack from :meth:`ToastStack.add`.

While a dialog is open the stack is *held*: nothing is drawn over the
dialog's text (a "Job started" toast covered the MFA question for its whole
life), toasts that arrive wait, and each keeps the time it has left; on
:meth:`ToastStack.release` they show, their timers running again.
Every toast has a title: one given empty gets its severity's word.
No Textual here: times are plain seconds (monotonic).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # errors imports the contract's tables: not before the first frame
    from accountdesk.core.errors.log import Severity

__all__ = ["DEFAULT_CAP", "ShownToast", "ToastStack"]

DEFAULT_CAP = 3
#: The title of a toast given none (a bare "×5" said nothing).
_UNTITLED: dict[str, str] = {"information": "Note", "warning": "Warning", "error": "Error"}


@dataclass(frozen=True, slots=True)
class ShownToast:
    title: str
    message: str
    severity: Severity
    markup: bool
    timeout: float
    shown_at: float
    count: int = 1

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.title, self.message, self.severity)

    @property
    def display_title(self) -> str:
        return f"{self.title} ×{self.count}" if self.count > 1 else self.title

    def remaining(self, now: float) -> float:
        return self.timeout - (now - self.shown_at)


class ToastStack:
    """The toasts showing now, oldest first."""

    def __init__(self, cap: int = DEFAULT_CAP) -> None:
        self.cap = cap
        self._shown: list[ShownToast] = []
        self._held_at: float | None = None

    def add(
        self,
        title: str,
        message: str,
        severity: Severity,
        *,
        timeout: float,
        now: float,
        markup: bool = False,
    ) -> list[ShownToast]:
        """Show a toast; the whole stack as it should be drawn now (oldest first).

        While held, the toast waits (its time starts when it shows) and
        nothing is to be drawn.
        """
        alive = [toast for toast in self._shown if toast.remaining(self._clock(now)) > 0]
        title = title or _UNTITLED.get(severity, "Note")
        new = ShownToast(title, message, severity, markup, timeout, self._clock(now))
        same = next((toast for toast in alive if toast.key == new.key), None)
        if same is not None:
            alive.remove(same)
            new = replace(new, count=same.count + 1)
        self._shown = [*alive, new][-self.cap :]
        return self.visible(now)

    def visible(self, now: float) -> list[ShownToast]:
        """What to draw now: nothing while held, else the toasts with time left."""
        if self._held_at is not None:
            return []
        return [toast for toast in self._shown if toast.remaining(now) > 0]

    @property
    def held(self) -> bool:
        return self._held_at is not None

    def hold(self, now: float) -> None:
        """A dialog opened: draw nothing; every toast keeps the time it has left."""
        if self._held_at is None:
            self._held_at = now

    def release(self, now: float) -> list[ShownToast]:
        """The dialog closed: the held toasts show, with the time each had left."""
        if self._held_at is not None:
            paused = now - self._held_at
            self._held_at = None
            self._shown = [replace(t, shown_at=t.shown_at + paused) for t in self._shown]
        return self.visible(now)

    def _clock(self, now: float) -> float:
        # While held the toasts' clocks stand at the moment of holding.
        return now if self._held_at is None else self._held_at

    def clear(self) -> None:
        self._shown = []
