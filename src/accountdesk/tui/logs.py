"""File logging for the dashboard.

The app draws on the terminal, so it never logs there: records go to
``platformdirs.user_log_dir("accountdesk")/accountdesk.log`` (tests pass a
tmp dir). The handler carries the client's :class:`RedactingFilter`, so a
record from any logger written there has credentials hidden.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from pathlib import Path

LOG_FILE_NAME = "accountdesk.log"
_FORMAT = "%(asctime)s %(levelname)-7s %(name)s: %(message)s"
#: The logger every dashboard and client record goes through.
ROOT_LOGGER = "accountdesk"


def parse_level(level: str | int) -> int:
    """``"debug"`` / ``"INFO"`` / ``20`` -> a logging level number."""
    if isinstance(level, int):
        return level
    number = logging.getLevelName(level.upper())
    if not isinstance(number, int):
        raise ValueError(f"unknown log level {level!r} (debug, info, warning, error)")
    return number


def install_file_logging(
    log_dir: Path, level: str | int = "info", secrets: Iterable[str] = ()
) -> logging.Handler:
    """Send ``accountdesk.*`` records to a file in ``log_dir``; returns the handler.

    ``secrets`` are extra exact strings (the API secret typed at sign-in) the
    filter hides. Call :func:`remove_file_logging` with the handler to undo.
    """
    from accountdesk.client import RedactingFilter

    log_dir.mkdir(parents=True, exist_ok=True)
    handler = logging.FileHandler(log_dir / LOG_FILE_NAME, encoding="utf-8", delay=True)
    handler.setFormatter(logging.Formatter(_FORMAT))
    handler.addFilter(RedactingFilter(secrets=secrets))
    logger = logging.getLogger(ROOT_LOGGER)
    logger.setLevel(parse_level(level))
    logger.addHandler(handler)
    # The terminal belongs to the UI: records must not climb to a stderr handler.
    logger.propagate = False
    return handler


def remove_file_logging(handler: logging.Handler) -> None:
    logging.getLogger(ROOT_LOGGER).removeHandler(handler)
    handler.close()
