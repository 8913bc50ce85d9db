"""Trainee tenants: one isolated world per ``trainee_<name>`` API key.

With ``create_app(tenants=True)`` a trainer runs one sandbox for a room:
every API key ``trainee_<name>`` (secret ``sandbox_secret``) signs in to a
world of its own, created on first sign-in, with its own users, jobs, MFA
sessions, blocks and clock. ``<name>`` is 1 to 32 of ``a-z 0-9 _ -``; at most
``max_tenants`` worlds exist (100 by default). Without tenants such keys are
unknown keys (``AC-101``). Standard library only.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable

from .world import World

__all__ = [
    "DEFAULT_MAX_TENANTS",
    "TRAINEE_PREFIX",
    "TRAINEE_SECRET",
    "Tenants",
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


class Tenants:
    """The trainees' worlds, made on first sign-in, up to ``max_tenants``."""

    def __init__(self, make_world: Callable[[str], World], max_tenants: int) -> None:
        if isinstance(max_tenants, bool) or not 1 <= max_tenants <= MAX_TENANTS_LIMIT:
            raise ValueError(f"max_tenants must be from 1 to {MAX_TENANTS_LIMIT}")
        self.max_tenants = max_tenants
        self._make_world = make_world
        self._worlds: dict[str, World] = {}
        self._lock = threading.Lock()

    def world_for(self, name: str) -> World | None:
        """The world of trainee ``name``, made now if new; None when the room is full."""
        with self._lock:
            world = self._worlds.get(name)
            if world is None:
                if len(self._worlds) >= self.max_tenants:
                    return None
                world = self._worlds[name] = self._make_world(name)
            return world

    def __len__(self) -> int:
        return len(self._worlds)
