"""Bearer tokens: which credential and which world each one stands for.

A token expires on its world's clock. Each API key keeps at most
:data:`MAX_TOKENS_PER_KEY` live tokens per world (the oldest goes first), so
a client that signs in in a loop cannot grow the table without bound; expired
tokens are dropped as new ones are issued. Standard library only.
"""

from __future__ import annotations

import datetime as dt
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from accountdesk.sandbox.scenarios import Credential
from accountdesk.sandbox.world import World

__all__ = ["MAX_TOKENS_PER_KEY", "TokenRecord", "TokenRegistry"]

#: Live tokens one API key may hold in one world; a dashboard needs one.
MAX_TOKENS_PER_KEY = 1_000


@dataclass(slots=True)
class TokenRecord:
    """What a token grants: a credential, in a world, until a time on that world's clock."""

    credential: Credential
    world: World = field(repr=False)
    expires_at: dt.datetime

    def is_live(self) -> bool:
        """Not expired on its world's clock."""
        return self.world.clock.now() < self.expires_at


class TokenRegistry:
    """Every token issued, under a lock of its own."""

    def __init__(self, new_id: Callable[[str], str]) -> None:
        self._new_id = new_id
        self._lock = threading.Lock()
        self._tokens: dict[str, TokenRecord] = {}
        # Per (world, api key), in issue order: expiries only grow along it.
        self._issued: dict[tuple[str, str], deque[str]] = {}

    def issue(self, credential: Credential, world: World, lifetime: dt.timedelta) -> str:
        """A new token for ``credential`` in ``world``, live for ``lifetime``."""
        now = world.clock.now()
        with self._lock:
            issued = self._issued.setdefault((world.name, credential.api_key), deque())
            while issued and (
                len(issued) >= MAX_TOKENS_PER_KEY or self._tokens[issued[0]].expires_at <= now
            ):
                del self._tokens[issued.popleft()]
            token = self._new_id("token")
            self._tokens[token] = TokenRecord(credential, world, now + lifetime)
            issued.append(token)
        return token

    def find(self, token: str | None) -> TokenRecord | None:
        """The live record of ``token``, or None (unknown, expired or absent)."""
        record = self._tokens.get(token) if token else None
        return record if record is not None and record.is_live() else None

    def clamp(self, world: World, latest: dt.datetime) -> None:
        """After ``world``'s clock was rewound: no token of it outlives ``latest``."""
        with self._lock:
            for (world_name, _key), issued in self._issued.items():
                if world_name == world.name:
                    for token in issued:
                        record = self._tokens[token]
                        record.expires_at = min(record.expires_at, latest)

    def __len__(self) -> int:
        return len(self._tokens)

    def __repr__(self) -> str:
        # Never the tokens themselves: they are bearer credentials.
        return f"TokenRegistry({len(self._tokens)} tokens)"
