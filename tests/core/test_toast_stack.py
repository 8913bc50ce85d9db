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


def test_a_long_path_breaks_at_its_separators() -> None:
    from accountdesk.core.formatting import fold_paths

    path = "/root/.local/share/accountdesk/exports/errors-20261126-094626.md"
    folded = fold_paths(f"Saved {path} for you", 37)
    lines = folded.split("\n")
    # Each piece of the path fits (the toast wraps the words around it at spaces).
    assert all(len(line.split(" ")[-1 if i == 0 else 0]) <= 37 for i, line in enumerate(lines))
    assert lines[-1].startswith("exports/errors-20261126-094626.md")
    assert folded.replace("\n", "") == f"Saved {path} for you"
    assert fold_paths("short /a/b", 37) == "short /a/b"
    assert fold_paths("no-separators-" * 5, 20) == "no-separators-" * 5


def test_held_toasts_are_not_drawn_and_keep_the_time_they_had_left() -> None:
    stack = ToastStack()
    stack.add("Job started", "job_0001", "information", timeout=8, now=0)
    stack.hold(now=2)  # a dialog opened: 6 s left
    assert stack.visible(3) == []
    assert stack.add("Job finished", "job_0002", "information", timeout=8, now=30) == []
    shown = stack.release(now=100)  # the dialog closed
    assert titles(shown) == ["Job started", "Job finished"]
    assert [toast.remaining(100) for toast in shown] == [6, 8]


def test_a_toast_given_no_title_gets_its_severitys_word() -> None:
    stack = ToastStack()
    stack.add("", "No unfinished job to poll.", "information", timeout=8, now=0)
    shown = stack.add("", "No unfinished job to poll.", "information", timeout=8, now=1)
    assert titles(shown) == ["Note ×2"]
    assert titles(stack.add("", "x", "warning", timeout=8, now=2))[-1] == "Warning"
