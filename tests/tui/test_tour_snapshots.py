"""Every shipped tour runs to its end headless, with snapshots of its first and last captions.

The tours run on the demo's own desk (``tour_helpers.demo_app``): a fresh
embedded sandbox stopped at ``FROZEN_NOW``, numbered job ids, the app clock
following the sandbox's. Each step must end as its script says (the
expected code and nothing else). Accept snapshot changes with
``--snapshot-update`` only after looking at the SVGs.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from tour_helpers import demo_app, every_job_polled, press, run_to_last_step, started

from accountdesk.core.tours.tour import shipped_tours

pytestmark = pytest.mark.slow

TOURS = {tour.id: tour for tour in shipped_tours()}


def test_every_tour_the_issue_asks_for_is_shipped() -> None:
    assert set(TOURS) == {
        "sign-in",
        "manual-user",
        "fi-trouble",
        "mfa",
        "lockout",
        "one-job",
        "bulk",
        "paused-and-locked",
    }


@pytest.mark.parametrize("tour_id", list(TOURS))
def test_first_caption(snap_compare: Any, tmp_path: Path, tour_id: str) -> None:
    async def run_before(pilot: Any) -> None:
        await started(pilot)

    app = demo_app(tmp_path, TOURS[tour_id])
    assert snap_compare(app, terminal_size=(100, 30), run_before=run_before)


@pytest.mark.parametrize("tour_id", list(TOURS))
def test_runs_to_its_last_caption(snap_compare: Any, tmp_path: Path, tour_id: str) -> None:
    async def run_before(pilot: Any) -> None:
        await run_to_last_step(pilot)
        await every_job_polled(pilot)

    app = demo_app(tmp_path, TOURS[tour_id])
    assert snap_compare(app, terminal_size=(100, 30), run_before=run_before)


@pytest.mark.parametrize("which", ["first", "last"])
def test_mfa_tour_at_80x24(snap_compare: Any, tmp_path: Path, which: str) -> None:
    async def run_before(pilot: Any) -> None:
        if which == "first":
            await started(pilot)
        else:
            await run_to_last_step(pilot)
            await every_job_polled(pilot)

    app = demo_app(tmp_path, TOURS["mfa"])
    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)


def test_bulk_tour_points_at_user_bulk_at_80x24(snap_compare: Any, tmp_path: Path) -> None:
    # user_bulk is the scenario list's last row: below the fold at 80x24 unless scrolled to.
    async def run_before(pilot: Any) -> None:
        await started(pilot)

    app = demo_app(tmp_path, TOURS["bulk"])
    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)


def test_tour_picker(snap_compare: Any, tmp_path: Path) -> None:
    async def run_before(pilot: Any) -> None:
        await pilot.pause()
        await pilot.press("down")

    app = demo_app(tmp_path, list(TOURS.values()))
    assert snap_compare(app, terminal_size=(100, 30), run_before=run_before)


def test_tour_picker_at_80x24(snap_compare: Any, tmp_path: Path) -> None:
    # Every tour in sight, the last one highlighted, its summary under the list.
    async def run_before(pilot: Any) -> None:
        await pilot.pause()
        await pilot.press(*["down"] * (len(TOURS) - 1))
        await pilot.pause()

    app = demo_app(tmp_path, list(TOURS.values()))
    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)


@pytest.mark.anyio
async def test_a_toast_in_a_tour_stands_clear_of_the_caption(tmp_path: Path) -> None:
    # Step 2 of sign-in says "look at the toast": the caption holds the bottom
    # right, where toasts stand elsewhere, and the toast drew over its words.
    from textual.widgets._toast import Toast

    from accountdesk.tui.tour import CaptionPanel

    app = demo_app(tmp_path, TOURS["sign-in"])
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        runner = await started(pilot)
        await press(pilot, runner, "space")
        await pilot.pause()
        (toast,) = app.screen.query(Toast)
        caption = app.screen.query_one(CaptionPanel)
        assert "AC-101" in str(toast.render())
        assert toast.region.bottom <= caption.region.y, (toast.region, caption.region)
        assert toast.region.y >= 1  # below the header and its badge
