"""A running dashboard for in-process benchmarks: signed in, on a user's account, frames watched.

The app runs headless under ``run_test`` (Pilot), at a fixed 100x30 size,
and is driven by the product's own :class:`~accountdesk.tui.driver.Driver`
(what tests and screenshots use), so every step is the one a person takes.
Only key presses that are timed bypass Pilot (see :mod:`.frames`).
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import httpx

from accountdesk.cli.startup import StartUp
from accountdesk.core.desk import Desk
from accountdesk.tui.app import AccountDeskApp
from accountdesk.tui.driver import Driver
from benchmarks.apps import API_KEY, API_SECRET
from benchmarks.frames import FrameWatch

__all__ = ["Session", "bearer_header", "running", "screen_text"]

SIZE = (100, 30)


@dataclass
class Session:
    app: AccountDeskApp
    pilot: Any
    watch: FrameWatch
    driver: Driver

    @property
    def desk(self) -> Desk:
        return self.app.desk

    async def back_to(self, screen_type: type[Any]) -> None:
        """Escape until ``screen_type`` is on top and painted; then let the app go quiet."""
        while not isinstance(self.app.screen, screen_type):
            await self.watch.press("escape", lambda: isinstance(self.app.screen, screen_type))
        await self.watch.quiet()

    async def service_get(self, path: str) -> bytes:
        """GET ``path`` from the desk's service with a token of its own (the raw body, for floors)."""
        transport = await self.desk.connection.transport()
        async with httpx.AsyncClient(
            base_url=self.desk.service_url, transport=transport, timeout=120
        ) as http:
            headers = await bearer_header(http)
            answer = await http.get(path, headers=headers)
            answer.raise_for_status()
            return answer.content


async def bearer_header(http: httpx.AsyncClient) -> dict[str, str]:
    """A fresh sandbox token as an ``Authorization`` header (``POST /token`` on ``http``)."""
    grant = await http.post("/token", json={"api_key": API_KEY, "api_secret": API_SECRET})
    grant.raise_for_status()
    return {"Authorization": f"Bearer {grant.json()['access_token']}"}


@contextlib.asynccontextmanager
async def running(desk: Desk, user_id: str | None = None) -> AsyncIterator[Session]:
    """The app on ``desk``, signed in, on ``user_id``'s account (or the lookup screen).

    Started as ``accountdesk`` starts it: what start-up built is frozen out of
    the collector once the first frame is painted. Without that, a full
    collection walked this process's 120,000 objects (Textual's, the
    harness's) in the middle of a timed key: 130-185 ms in one round of five.
    """
    app = AccountDeskApp(desk, cursor_blink=False, on_first_frame=StartUp.first_frame)
    app.animation_level = "none"
    async with app.run_test(size=SIZE) as pilot:
        session = Session(app, pilot, FrameWatch(app), Driver(app, pilot.pause))
        await session.driver.sign_in()
        if user_id is not None:
            await session.driver.open_account(user_id)
        await session.watch.quiet()
        yield session


def screen_text(app: AccountDeskApp) -> str:
    """What the terminal shows now (as composited), rows joined by newlines."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


def transactions_as_tuples(body: bytes) -> list[tuple[Any, ...]]:
    """The rows of a transactions body as plain tuples, in the wire's field order."""
    return [tuple(row.values()) for row in json.loads(body)["transactions"]]
