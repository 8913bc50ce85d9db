"""Steps of the sandbox's clock as a person types them (``90``, ``5m``, ``2h``) and says them.

The sandbox panel reads what was typed with :func:`parse_clock_step`, before
anything is sent; captions and notes say a step with :func:`describe_step`
(``+5 min``). :data:`MAX_CLOCK_STEP` is the sandbox's own bound on one step.
"""

from __future__ import annotations

import math
import re

__all__ = ["MAX_CLOCK_STEP", "describe_step", "parse_clock_step"]

#: The largest step the sandbox takes at once (its clock refuses more): 366 days.
MAX_CLOCK_STEP = 366 * 24 * 3600.0
_STEP = re.compile(r"\s*([0-9]+(?:\.[0-9]+)?)\s*(s|sec|m|min|h|d)?\s*", re.IGNORECASE)
_UNIT_SECONDS = {"s": 1, "sec": 1, "m": 60, "min": 60, "h": 3600, "d": 86400}


def parse_clock_step(text: str) -> float:
    """Seconds from ``"90"``, ``"90s"``, ``"5m"``, ``"2h"`` or ``"1d"``.

    ValueError, with a sentence a person can act on, for anything else, for
    nothing and for more than the sandbox takes at once.
    """
    match = _STEP.fullmatch(text)
    if match is None:
        raise ValueError("Type a number of seconds, or minutes and hours as 5m or 2h.")
    seconds = float(match.group(1)) * _UNIT_SECONDS[(match.group(2) or "s").lower()]
    if not 0 < seconds <= MAX_CLOCK_STEP or not math.isfinite(seconds):
        raise ValueError("A step is more than 0 seconds and at most 366 days.")
    return seconds


def describe_step(seconds: float) -> str:
    """``+5 s``, ``+5 min``, ``+1 h 30 min``, ``+2 days``: a clock step as a person says it."""
    whole = round(seconds)
    if whole < 60 or whole != seconds:
        return f"+{seconds:g} s"
    days, rest = divmod(whole, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    parts = [
        f"{days} day{'s' if days != 1 else ''}" if days else "",
        f"{hours} h" if hours else "",
        f"{minutes} min" if minutes else "",
        f"{secs} s" if secs else "",
    ]
    return "+" + " ".join(part for part in parts if part)
