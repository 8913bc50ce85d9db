"""When to try a request again, and how long to wait first.

- A connection that was never made (refused, DNS, connect timeout, no free
  connection in the pool) is retried on any method: the service never saw
  the request.
- A timeout or a broken connection after sending, and a 5xx answer, are
  retried on GET only: a POST may already have started a job.
- A 429 or 503 without an ``AC-`` code (a proxy or load balancer speaking) is
  retried on GET as well; an ``AC-``-coded 4xx never is: 409 ``AC-112`` and
  429 ``AC-108`` are the service's final word.
- Backoff: ``base * 2**n`` with full jitter, capped; ``Retry-After`` (seconds
  or HTTP-date) replaces it when present, itself capped.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import httpx

from accountdesk.client._backoff import MAX_RETRY_AFTER, exponential_backoff, parse_retry_after
from accountdesk.client._responses import AnswerLike, service_code

__all__ = [
    "MAX_RETRY_AFTER",
    "RetryPolicy",
    "exponential_backoff",
    "parse_retry_after",
    "transport_reason",
]

# Never sent: safe to replay whatever the method.
_NOT_SENT = (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout)
# Maybe sent and maybe processed: only idempotent reads may be replayed.
_MAYBE_SENT = (httpx.TimeoutException, httpx.NetworkError, httpx.RemoteProtocolError)

_IDEMPOTENT = frozenset({"GET", "HEAD", "OPTIONS"})


def transport_reason(exc: httpx.TransportError) -> str:
    """``"connect"``, ``"timeout"`` or ``"network"`` for a transport failure."""
    if isinstance(exc, httpx.TimeoutException):
        return "timeout"
    if isinstance(exc, httpx.ConnectError):
        return "connect"
    return "network"


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    """The retry rules of the client; see the module docstring."""

    max_attempts: int = 3
    backoff_base: float = 0.1
    backoff_cap: float = 2.0
    retry_after_cap: float = 30.0
    rng: random.Random = field(default_factory=random.Random, compare=False)

    def __post_init__(self) -> None:
        if self.max_attempts < 1:
            raise ValueError("max_attempts must be at least 1")

    def retries_exception(self, method: str, exc: httpx.TransportError) -> bool:
        """Whether a request that failed with ``exc`` may be sent again."""
        if isinstance(exc, _NOT_SENT):
            return True
        return method.upper() in _IDEMPOTENT and isinstance(exc, _MAYBE_SENT)

    def retries_timeout(self, method: str) -> bool:
        """Whether a request that got no complete answer in time may be sent again."""
        return method.upper() in _IDEMPOTENT

    def retries_response(self, method: str, response: AnswerLike) -> bool:
        """Whether ``response`` is a transient failure worth another attempt."""
        if method.upper() not in _IDEMPOTENT:
            return False
        status = response.status_code
        if status >= 500:
            return True
        if status == 429:
            return service_code(response) is None
        return False

    def backoff(self, retry: int) -> float:
        """Delay before retry number ``retry`` (1 for the first retry), jittered."""
        return exponential_backoff(
            retry, base=self.backoff_base, cap=self.backoff_cap, rng=self.rng
        )

    def delay(self, retry: int, response: AnswerLike | None, now: float) -> float:
        """Delay before retry ``retry``: the server's ``Retry-After`` if any, else backoff."""
        if response is not None:
            asked = parse_retry_after(response.headers.get("Retry-After"), now)
            if asked is not None:
                return min(asked, self.retry_after_cap)
        return self.backoff(retry)
