"""Which toasts are on screen: a capped stack where a repeat is counted, not stacked.

Five identical "Cannot connect" toasts once hid the service badge. Here a
toast equal to one still showing (same title, text and severity) replaces it
with a count (``Cannot connect ×3``) and its timer starts again; and only the
``cap`` newest stay. The UI redraws the stack from :meth:`ToastStack.add`.
No Textual here: times are plain seconds (monotonic).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .errors import Severity

__all__ = ["DEFAULT_CAP", "ShownToast", "ToastStack"]

DEFAULT_CAP = 3


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
        """Show a toast; the whole stack as it should be drawn now (oldest first)."""
        alive = [toast for toast in self._shown if toast.remaining(now) > 0]
        new = ShownToast(title, message, severity, markup, timeout, now)
        same = next((toast for toast in alive if toast.key == new.key), None)
        if same is not None:
            alive.remove(same)
            new = replace(new, count=same.count + 1)
        self._shown = [*alive, new][-self.cap :]
        return list(self._shown)

    def clear(self) -> None:
        self._shown = []
