"""How long to wait: exponential backoff and the server's ``Retry-After``.

Pure functions of numbers, used by the client's retries and by any poller
built on the client, so there is one backoff rule in accountdesk.
"""

from __future__ import annotations

import email.utils
import math
import random

__all__ = ["MAX_RETRY_AFTER", "exponential_backoff", "parse_retry_after"]

#: A ``Retry-After`` further away than this is not believed (None): a UI adding
#: it to "now" would overflow, and no block of this service lasts a year.
MAX_RETRY_AFTER = 366 * 24 * 3600.0


def exponential_backoff(
    failures: int, *, base: float, cap: float, rng: random.Random | None = None
) -> float:
    """Seconds to wait after ``failures`` consecutive failures.

    ``base * 2 ** (failures - 1)``, capped at ``cap``; with ``rng``, full
    jitter (uniform between 0 and that). 0 for ``failures <= 0``. The one
    backoff rule of accountdesk: the client's retries use it with jitter, a
    job poller without (base 1 s, cap 30 s).
    """
    if not (math.isfinite(base) and math.isfinite(cap)) or base < 0 or cap < 0:
        raise ValueError("backoff base and cap must be finite and not negative")
    if failures <= 0:
        return 0.0
    # The exponent is clamped: 2 ** 5000 would overflow a float; past 2**1000
    # any base has long reached any sane cap.
    ceiling = min(cap, base * 2.0 ** min(failures - 1, 1000))
    return rng.uniform(0.0, ceiling) if rng is not None else ceiling


def parse_retry_after(value: str | None, now: float) -> float | None:
    """Seconds to wait from a ``Retry-After`` value (delta-seconds or HTTP-date).

    ``now`` is the current POSIX time, used for the date form. None when the
    value is absent, unreadable, not finite or more than a year away
    (:data:`MAX_RETRY_AFTER`); never negative.
    """
    if value is None:
        return None
    value = value.strip()
    try:
        seconds = float(value)
    except ValueError:
        try:
            when = email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError, IndexError):
            return None
        if when is None or when.tzinfo is None:
            return None
        seconds = when.timestamp() - now
    if not math.isfinite(seconds) or seconds > MAX_RETRY_AFTER:
        return None
    return max(0.0, seconds)
