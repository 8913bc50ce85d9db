"""The table: one row per result, as text for a terminal or Markdown for the README."""

from __future__ import annotations

from collections.abc import Sequence

from benchmarks.measure import Result

__all__ = ["markdown_table", "text_table"]

HEADERS = ("benchmark", "unit", "path median", "path min-max", "floor median", "floor min-max",
           "ratio", "target", "", "peak RSS MB path/floor")  # fmt: skip


def _number(value: float) -> str:
    if value >= 100:
        return f"{value:,.0f}"
    if value >= 10:
        return f"{value:.1f}"
    return f"{value:.2f}"


def _span(samples: Sequence[float]) -> str:
    return f"{_number(min(samples))}-{_number(max(samples))}" if samples else ""


def _mark(result: Result) -> str:
    passed = result.passed
    return "" if passed is None else "PASS" if passed else "OVER"


def _memory(result: Result, process_mb: float | None) -> str:
    if result.path_peak_mb is None:
        return f"{process_mb:,.0f} (one process)" if process_mb else ""
    floor = "" if result.floor_peak_mb is None else f" / {result.floor_peak_mb:,.0f}"
    return f"{result.path_peak_mb:,.0f}{floor}"


def cells(result: Result, process_mb: float | None) -> list[str]:
    floor = result.floor_median
    ratio = result.ratio
    return [
        result.name,
        result.unit,
        _number(result.path_median),
        _span(result.path_samples),
        "" if floor is None else _number(floor),
        _span(result.floor_samples),
        "" if ratio is None else f"{ratio:.2f}",
        result.target.describe(result.unit),
        _mark(result),
        _memory(result, process_mb),
    ]


def text_table(rows: Sequence[tuple[Result, float | None]]) -> str:
    """A fixed-width table, then what each row measures and its notes."""
    table = [list(HEADERS)] + [cells(result, mb) for result, mb in rows]
    widths = [max(len(row[i]) for row in table) for i in range(len(HEADERS))]
    lines = ["  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
             for row in table]  # fmt: skip
    lines.insert(1, "  ".join("-" * width for width in widths))
    lines.append("")
    lines.extend(_legend(rows))
    return "\n".join(lines)


def markdown_table(rows: Sequence[tuple[Result, float | None]]) -> str:
    """The same as a Markdown table (for the README)."""
    lines = ["| " + " | ".join(HEADERS) + " |", "|" + "---|" * len(HEADERS)]
    for result, mb in rows:
        lines.append("| " + " | ".join(c.replace("|", "/") for c in cells(result, mb)) + " |")
    lines.append("")
    lines.extend(f"- {line}" for line in _legend(rows))
    return "\n".join(lines)


def _legend(rows: Sequence[tuple[Result, float | None]]) -> list[str]:
    lines = []
    for result, _mb in rows:
        lines.append(f"{result.name}: {result.path}; floor: {result.floor}")
        lines.extend(f"{result.name}: {note}" for note in result.notes)
    return lines
