"""The desk's part for a sandbox: its control endpoints, and its time as the app's.

Any sandbox (the embedded one, a trainer's ``accountdesk sandbox``) can have
its clock moved: by the sandbox panel, a tour, or before we signed in. The
desk learns the sandbox's time at sign-in and from every control call, and
keeps how far it is from ours in ``sandbox_offset``; ``Desk.now`` adds it,
so an MFA countdown, a job's age and "read at" agree with the times the
service sends.

With the sandbox's control token (``sandbox_control_token``: a flag, the
environment or a profile), the desk is the trainer's: it reads a training
room's list of trainees, resets one or all, and moves one trainee's clock.
Those calls stand on the control token, not on the key signed in with.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from accountdesk.client import AccountDataClient, SandboxControl, ScenarioUser, TrainingRoom
    from accountdesk.core.connection import ServiceConnection
    from accountdesk.core.settings.model import Settings

__all__ = ["SandboxSession"]

log = logging.getLogger(__name__)


class SandboxSession:
    """Sandbox control and time for :class:`~accountdesk.core.desk.Desk` (a base of it)."""

    @property
    def settings(self) -> Settings:  # the desk's (validated on first use)
        raise NotImplementedError

    connection: ServiceConnection
    clock: Callable[[], dt.datetime]
    sandbox_offset: dt.timedelta
    _scenarios: list[ScenarioUser]

    @property
    def client(self) -> AccountDataClient:  # the desk's signed-in client
        raise NotImplementedError

    @property
    def sandbox_control(self) -> SandboxControl:
        """The sandbox's control endpoints, through the signed-in client."""
        token = self.settings.sandbox_control_token
        return self.client.sandbox_control(token)

    async def _read_scenarios(self) -> list[ScenarioUser]:
        from accountdesk.client import AccountDataError

        try:
            catalogue = await self.sandbox_control.scenarios()
        except AccountDataError as error:  # a demo convenience: never a failure of sign-in
            log.warning("scenario catalogue unavailable: %s", error.title)
            return []
        return list(catalogue.users) if catalogue is not None else []

    async def scenarios(self) -> list[ScenarioUser]:
        """The sandbox's scenario users, as read at sign-in ([] on a live service)."""
        return list(self._scenarios)

    async def advance_sandbox_clock(self, seconds: float) -> dt.datetime:
        """Move the sandbox's clock forward (expire an MFA session, lift a block, finish jobs)."""
        return self._follow_sandbox(await self.sandbox_control.advance_clock(seconds))

    async def sandbox_clock(self) -> dt.datetime:
        """The sandbox's clock now (the app's clock follows it)."""
        return self._follow_sandbox(await self.sandbox_control.clock())

    async def serve_scenarios(self, files: Sequence[Path]) -> None:
        """Make the embedded sandbox serve the shipped users and the packs ``files`` (a tour's).

        A fresh sandbox when the packs differ from the ones served (sign out
        first: its tokens go with it); nothing on a live service or when
        they are the same.
        """
        wanted = [str(file) for file in files] or None
        connection = self.connection
        if connection.sandbox_options.get("scenarios") != wanted:
            await connection.rebuild_sandbox(scenarios=wanted)

    async def reset_sandbox(self) -> None:
        """Forget the sandbox's jobs, MFA sessions and blocks (and rewind its clock).

        On a training room's shared world (not a trainee's key), every
        trainee's world goes with it.
        """
        await self.sandbox_control.reset()
        await self.sandbox_clock()  # the sandbox rewound its clock: so does the app's

    # -- the trainer's room ------------------------------------------------------

    @property
    def is_trainer(self) -> bool:
        """A control token is set: the sandbox panel asks for the training room."""
        return self.settings.sandbox_control_token is not None

    async def training_room(self) -> TrainingRoom:
        """Every trainee the sandbox has seen (``AC-903`` without the right control token)."""
        return await self.sandbox_control.trainees()

    async def reset_trainee(self, name: str) -> None:
        """Forget one trainee's jobs, MFA sessions and blocks and rewind their clock."""
        await self.sandbox_control.reset_trainee(name)
        await self._learn_sandbox_time()  # the trainer may be signed in as that trainee

    async def advance_trainee_clock(self, name: str, seconds: float) -> dt.datetime:
        """Move one trainee's clock forward; their new time."""
        moved = await self.sandbox_control.advance_trainee_clock(name, seconds)
        await self._learn_sandbox_time()
        return moved

    async def reset_room(self) -> None:
        """Reset the shared world and every trainee's (the trainer's "start again")."""
        await self.sandbox_control.reset_room()
        await self._learn_sandbox_time()  # the trainer's own world rewound too

    def _follow_sandbox(self, sandbox_now: dt.datetime) -> dt.datetime:
        self.sandbox_offset = sandbox_now - self.clock()
        self._clock_moved()
        return sandbox_now

    def _clock_moved(self) -> None:  # the desk's: its jobs follow the clock
        raise NotImplementedError

    async def _learn_sandbox_time(self) -> None:
        from accountdesk.client import AccountDataError

        try:
            await self.sandbox_clock()
        except AccountDataError as error:  # an older sandbox: keep our own time
            log.warning("sandbox clock unavailable: %s", error.title)
