"""Trainee tenants: one isolated world per ``trainee_<name>`` API key.

With ``create_app(tenants=True)`` a trainer runs one sandbox for a room:
every API key ``trainee_<name>`` (secret ``sandbox_secret``) signs in to a
world of its own, created on first sign-in, with its own users, jobs, MFA
sessions, blocks and clock. ``<name>`` is 1 to 32 of ``a-z 0-9 _ -``; at most
``max_tenants`` worlds exist (100 by default). Without tenants such keys are
unknown keys (``AC-101``).

For the trainer, each trainee is a :class:`Trainee`: their world and when
the sandbox first and last heard from them (on the sandbox's own clock, not
the trainee's, which they may have moved). Standard library only.
"""

from __future__ import annotations

import datetime as dt
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass

from accountdesk.sandbox.world import World

__all__ = [
    "DEFAULT_MAX_TENANTS",
    "TRAINEE_PREFIX",
    "TRAINEE_SECRET",
    "Tenants",
    "Trainee",
    "trainee_name",
]

TRAINEE_PREFIX = "trainee_"
#: Every trainee's secret: the sandbox's public demo secret.
TRAINEE_SECRET = "sandbox_secret"
DEFAULT_MAX_TENANTS = 100
#: More worlds than this is not a room of trainees.
MAX_TENANTS_LIMIT = 10_000
_NAME = re.compile(r"[a-z0-9_-]{1,32}")


def trainee_name(api_key: str) -> str | None:
    """The ``<name>`` of a ``trainee_<name>`` key, or None for any other key."""
    if not api_key.startswith(TRAINEE_PREFIX):
        return None
    name = api_key[len(TRAINEE_PREFIX) :]
    return name if _NAME.fullmatch(name) else None


@dataclass(slots=True)
class Trainee:
    """One trainee of the room: their world, and when they were first and last heard from."""

    name: str
    world: World
    first_request: dt.datetime
    last_request: dt.datetime

    @property
    def api_key(self) -> str:
        return TRAINEE_PREFIX + self.name


class Tenants:
    """The trainees' worlds, made on first sign-in, up to ``max_tenants``."""

    def __init__(self, make_world: Callable[[str], World], max_tenants: int) -> None:
        if isinstance(max_tenants, bool) or not 1 <= max_tenants <= MAX_TENANTS_LIMIT:
            raise ValueError(f"max_tenants must be from 1 to {MAX_TENANTS_LIMIT}")
        self.max_tenants = max_tenants
        self._make_world = make_world
        # Keyed by API key, which is also the world's name (never "default").
        self._trainees: dict[str, Trainee] = {}
        self._lock = threading.Lock()

    def world_for(self, api_key: str, now: dt.datetime) -> World | None:
        """The world of the trainee with ``api_key``, made now if new; None when the room is full."""
        with self._lock:
            trainee = self._trainees.get(api_key)
            if trainee is None:
                if len(self._trainees) >= self.max_tenants:
                    return None
                name = api_key.removeprefix(TRAINEE_PREFIX)
                world = self._make_world(api_key)
                trainee = self._trainees[api_key] = Trainee(name, world, now, now)
            trainee.last_request = now
            return trainee.world

    def seen(self, world: World, now: dt.datetime) -> None:
        """A request reached ``world``: its trainee (if it is one) was last heard from ``now``."""
        trainee = self._trainees.get(world.name)
        if trainee is not None and trainee.world is world:
            trainee.last_request = now

    def find(self, name: str) -> Trainee | None:
        """The trainee called ``name`` (``alice``) or with that key (``trainee_alice``)."""
        with self._lock:
            return self._trainees.get(TRAINEE_PREFIX + name) or (
                self._trainees.get(name) if name.startswith(TRAINEE_PREFIX) else None
            )

    def trainees(self) -> list[Trainee]:
        """Every trainee seen, by name."""
        with self._lock:
            return sorted(self._trainees.values(), key=lambda trainee: trainee.name)

    def __len__(self) -> int:
        return len(self._trainees)
