"""Snapshots of the transactions screen narrowed down: dates, filter, totals, a wrong date.

Deterministic as every snapshot here: frozen clocks, no cursor blink. The
plain screen at three widths is in ``test_snapshots_jobs.py``. Accept
changes with ``--snapshot-update`` only after looking at the SVGs.
"""

from __future__ import annotations

from typing import Any

from textual.widgets import Input
from tui_helpers import settle, sign_in

from accountdesk.tui.screens.transactions import TransactionsScreen


def narrowed(dates: str, filter_text: str = "") -> Any:
    async def run_before(pilot: Any) -> None:
        await sign_in(pilot)
        screen = TransactionsScreen("user_good")
        await pilot.app.push_screen(screen)
        await settle(pilot)
        if filter_text:
            await pilot.press("slash")
            screen.query_one("#transactions-filter", Input).value = filter_text
            await pilot.press("enter")
        await pilot.press("d")
        screen.query_one("#transactions-dates", Input).value = dates
        await pilot.press("enter")
        await settle(pilot)

    return run_before


def test_transactions_dates_filter_and_total(snap_compare: Any, make_app: Any) -> None:
    # Eleven days of November, groceries only: the count and total of those rows.
    run_before = narrowed("2026-11-01..2026-11-11", "groceries")
    assert snap_compare(make_app(), terminal_size=(100, 30), run_before=run_before)


def test_transactions_wrong_date(snap_compare: Any, make_app: Any) -> None:
    # The box keeps the text, turns red and keeps the keys; the line says what is wrong.
    run_before = narrowed("2026-11-31..")
    assert snap_compare(make_app(), terminal_size=(80, 24), run_before=run_before)
