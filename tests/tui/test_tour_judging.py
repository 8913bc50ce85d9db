"""A step is judged on the answers to the reads it caused, however slowly they come.

A step that opens a screen (view transactions, view identity, look up) has
started nothing yet when the step's action returns: the new screen mounts,
then starts its read in a worker, and only the answer records the error the
step expects. These tests run the runner with the live app's own waits (not
Pilot's) against a service that answers the screen's read a little late.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from tour_helpers import demo_app
from tui_helpers import widget_text

from accountdesk.core import connection
from accountdesk.core.tours.captions import StepState
from accountdesk.core.tours.tour import parse_tour
from accountdesk.tui.tour import CaptionPanel, TourRunner, current_tour

pytestmark = pytest.mark.anyio
SIZE = (100, 30)
#: Longer than the live app's settle (three rounds of 0.05 s) takes.
LATE = 0.4


def tour(*steps: str) -> Any:
    text = 'title = "Judging"\nsummary = "For a test."\n' + "".join(
        f"[[steps]]\n{step}\n" for step in steps
    )
    return parse_tour(text, tour_id="test", source="test.toml")


class LateReads:
    """Wraps the embedded sandbox's transport: the reads of ``slow`` paths answer ``LATE`` s late."""

    def __init__(self, inner: Any, slow: tuple[str, ...]) -> None:
        self.inner = inner
        self.slow = slow

    async def handle_async_request(self, request: Any) -> Any:
        if request.url.path.endswith(self.slow):
            await asyncio.sleep(LATE)
        return await self.inner.handle_async_request(request)

    async def aclose(self) -> None:
        await self.inner.aclose()


@pytest.fixture
def late_reads(monkeypatch: pytest.MonkeyPatch) -> None:
    build = connection.build_embedded_transport

    def late(**options: Any) -> Any:
        return LateReads(build(**options), slow=("/transactions", "/identity", "/user_nobody"))

    monkeypatch.setattr(connection, "build_embedded_transport", late)


async def live_runner(pilot: Any) -> TourRunner:
    """The runner the app started, left with its own (live) driver, once its step ended."""
    for _ in range(200):
        runner = current_tour(pilot.app)
        if runner is not None:
            await runner.wait_idle()
            return runner
        await pilot.pause()
    raise AssertionError("no tour started")


@pytest.mark.usefixtures("late_reads")
@pytest.mark.parametrize(
    ("before", "step", "code"),
    [
        # manual-user step 6: the transactions screen reads after its first paint.
        (
            ('do = "look_up"\nuser = "user_manual"\nexpect = "AC-105"',),
            'do = "view_transactions"',
            "AC-115",
        ),
        (('do = "look_up"\nuser = "user_identity_mismatch"',), 'do = "view_identity"', "AC-113"),
        # sign-in step 8: from the jobs screen, back to the lookup, then the account's read.
        (
            ('do = "look_up"\nuser = "user_good"', 'do = "show_jobs"'),
            'do = "look_up"\nuser = "user_nobody"',
            "AC-102",
        ),
    ],
)
async def test_a_step_waits_for_the_read_of_the_screen_it_opened(
    tmp_path: Path, before: tuple[str, ...], step: str, code: str, caplog: pytest.LogCaptureFixture
) -> None:
    steps = (
        'do = "sign_in"\nsay = "In."',
        *(f'{do}\nsay = "Before."' for do in before),
        f'{step}\nsay = "Read."\nexpect = "{code}"',
    )
    app = demo_app(tmp_path, tour(*steps))
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        runner = await live_runner(pilot)
        while not runner.at_end:
            runner.next()
            await runner.wait_idle()
            if not runner.at_end:
                # Unexpected answers fail a step too: the ones before expect none.
                assert runner.outcome.state is StepState.DONE, runner.outcome.problem
        assert runner.outcome.state is StepState.DONE, runner.outcome.problem
        assert app.desk.error_log.records[-1].code == code
        runner.repeat()  # Backspace: the same read, judged the same way
        await runner.wait_idle()
        assert runner.outcome.state is StepState.DONE, runner.outcome.problem
        await pilot.pause()
        assert "did not go as planned" not in widget_text(app.screen.query_one(CaptionPanel))
    assert "still busy" not in caplog.text  # judged once quiet, not at the wait's bound
