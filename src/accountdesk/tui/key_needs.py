"""What a person needs on each screen's key bar: the rule, and every screen's keys by it.

The key bar (``widgets.footer``) keeps its reading order (the app's keys,
then the screen's) and, when not every key fits, leaves out the least needed
first (among equals, the later in the bar first). Each key's :class:`Need`,
by binding id, is here for every screen in one table, beside the rule:

- ``DAILY``: what the screen is for, the keys the daily-use manual
  (docs/agent/) teaches for it, and the app's way around: Quit, Jobs, Errors;
- ``USEFUL``: the way back and a screen's other keys (any key not named);
- ``ON_SCREEN``: a key the screen shows elsewhere: the account's buttons
  (each starts with its key), a filter box whose placeholder says ``( / )``,
  the key of the screen you are on (Jobs on the jobs screen);
- ``IN_HEADER``: F1 help, which the header says on every screen.
"""

from __future__ import annotations

from enum import IntEnum

__all__ = ["APP_KEY_NEEDS", "SCREEN_KEY_NEEDS", "Need", "key_needs"]


class Need(IntEnum):
    """How much a person needs a key on a screen (see the module docstring); lower stays."""

    DAILY = 0
    USEFUL = 1
    ON_SCREEN = 2
    IN_HEADER = 3


#: The app's keys, by binding id, unless a screen says otherwise.
APP_KEY_NEEDS: dict[str, Need] = {
    "quit": Need.DAILY,
    "show_jobs": Need.DAILY,
    "show_error_log": Need.DAILY,
    "help": Need.IN_HEADER,
}

_DAILY, _ON_SCREEN = Need.DAILY, Need.ON_SCREEN

#: Screen class name -> binding id -> need (a key not named is ``USEFUL``).
SCREEN_KEY_NEEDS: dict[str, dict[str, Need]] = {
    # Every action but recording has a button that says its key: on a short
    # bar those give way to Back and Record (s).
    "AccountScreen": dict.fromkeys(
        (
            "refresh_balance",
            "start_identity",
            "start_transactions",
            "reveal_numbers",
            "view_identity",
            "view_transactions",
            "show_jobs",
            "reload",
        ),
        _ON_SCREEN,
    ),
    "JobsScreen": {
        **dict.fromkeys(("answer_mfa", "clear_finished", "pause_polling", "poll_now"), _DAILY),
        "focus_jobs_filter": _ON_SCREEN,  # the filter box says "( / )"
        "show_jobs": _ON_SCREEN,  # this screen
    },
    "TransactionsScreen": {
        # The sort keys by name, not from the columns: that module loads numpy,
        # and the key bar is in the first frame.
        **dict.fromkeys(
            ("export_csv", "reload_transactions", "sort_date", "sort_description"), _DAILY
        ),
        **dict.fromkeys(("sort_category", "sort_amount", "sort_pending"), _DAILY),
        **dict.fromkeys(("focus_filter", "focus_dates"), _ON_SCREEN),  # "( / )", "( d )"
    },
    "ErrorLogScreen": {
        **dict.fromkeys(
            ("copy_error", "copy_curl", "export_markdown", "export_json", "error_scenario"), _DAILY
        ),
        "show_error_log": _ON_SCREEN,  # this screen
    },
}


def key_needs(screen: object) -> dict[str, Need]:
    """The needs of the keys on ``screen``, by binding id (its own over the app's)."""
    return {**APP_KEY_NEEDS, **SCREEN_KEY_NEEDS.get(type(screen).__name__, {})}
