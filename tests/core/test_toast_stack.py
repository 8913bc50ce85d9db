"""The toast stack: repeats counted, capped, expired ones gone."""

from __future__ import annotations

from accountdesk.core.toasts import ToastStack


def titles(stack: list) -> list[str]:
    return [toast.display_title for toast in stack]


def test_a_repeat_is_counted_and_moves_to_the_top_with_a_fresh_timer() -> None:
    stack = ToastStack(cap=3)
    stack.add("Cannot connect", "refused", "error", timeout=8, now=0)
    stack.add("AC-104 · 400", "bank down", "error", timeout=8, now=1)
    shown = stack.add("Cannot connect", "refused", "error", timeout=8, now=2)
    assert titles(shown) == ["AC-104 · 400", "Cannot connect ×2"]
    assert shown[-1].remaining(2) == 8


def test_five_different_toasts_leave_the_three_newest() -> None:
    stack = ToastStack(cap=3)
    for n in range(5):
        shown = stack.add(f"T{n}", "m", "warning", timeout=8, now=n * 0.1)
    assert titles(shown) == ["T2", "T3", "T4"]


def test_expired_toasts_are_not_counted() -> None:
    stack = ToastStack()
    stack.add("Cannot connect", "refused", "error", timeout=8, now=0)
    shown = stack.add("Cannot connect", "refused", "error", timeout=8, now=9)
    assert titles(shown) == ["Cannot connect"]


def test_same_title_different_text_is_another_toast() -> None:
    stack = ToastStack()
    stack.add("Job started", "job_1", "information", timeout=8, now=0)
    shown = stack.add("Job started", "job_2", "information", timeout=8, now=0)
    assert titles(shown) == ["Job started", "Job started"]
