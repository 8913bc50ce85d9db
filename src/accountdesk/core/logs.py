"""The app's log file: set up first, owner-only, redacted, terminal-safe.

The dashboard draws on the terminal, so it never logs there: records of the
``accountdesk`` loggers go to ``<log dir>/accountdesk.log`` only, created with
mode 0600 (it may quote account data). Every record passes the client's
redaction (credentials, registered secrets, account-number-like digit runs)
and the sanitiser (a service text with an escape sequence must not act when
someone runs ``cat`` on the log).

:func:`install_file_logging` is called before anything else that logs (the
settings, the store), so no record ever reaches the terminal through
Python's last-resort handler.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterable
from pathlib import Path

__all__ = ["ROOT_LOGGER", "install_file_logging", "parse_level", "remove_file_logging"]

ROOT_LOGGER = "accountdesk"
_FORMAT = "%(asctime)s %(levelname)-7s %(name)s: %(message)s"


def parse_level(level: str | int) -> int:
    """``"debug"`` / ``"INFO"`` / ``20`` -> a logging level number."""
    if isinstance(level, int):
        return level
    number = logging.getLevelName(level.upper())
    if not isinstance(number, int):
        raise ValueError(f"unknown log level {level!r} (debug, info, warning, error)")
    return number


class _SafeFormatter(logging.Formatter):
    """Formats as usual, then makes every line terminal-safe (tracebacks keep their lines)."""

    def format(self, record: logging.LogRecord) -> str:
        from accountdesk.client import sanitise_text

        text = super().format(record)
        return "\n".join(sanitise_text(line) for line in text.split("\n"))


class _RedactionOnFirstRecord(logging.Filter):
    """The client's :class:`~accountdesk.client.RedactingFilter`, built for the first record.

    Its patterns cost ~2-3 ms of imports, and the app logs nothing before
    its first frame (issue 16). Every record still passes through it.
    """

    def __init__(self, secrets: Iterable[object]) -> None:
        super().__init__()
        self._secrets = [s for s in secrets if isinstance(s, str)]
        self._redacting: logging.Filter | None = None

    def filter(self, record: logging.LogRecord) -> bool:
        if self._redacting is None:
            from accountdesk.client import RedactingFilter

            self._redacting = RedactingFilter(secrets=self._secrets)
        return bool(self._redacting.filter(record))


def _open_owner_only(path: Path) -> None:
    """Create the log file 0600 (and tighten an older, looser one) before the handler opens it."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    try:
        os.fchmod(descriptor, 0o600)
    finally:
        os.close(descriptor)


def install_file_logging(
    log_file: Path, level: str | int = "info", secrets: Iterable[object] = ()
) -> logging.Handler | None:
    """Send ``accountdesk.*`` records to ``log_file``; the handler, or None when it cannot be opened.

    ``secrets`` are extra registries or exact strings the redaction hides.
    A log folder we cannot write is not fatal: the app runs without a log.
    """
    logger = logging.getLogger(ROOT_LOGGER)
    if not _file_handlers(logger):
        _before[ROOT_LOGGER] = (logger.level, logger.propagate)
    logger.setLevel(parse_level(level))
    # The terminal belongs to the UI: records must never climb to a stderr handler.
    logger.propagate = False
    try:
        _open_owner_only(log_file)
        handler: logging.Handler = logging.FileHandler(log_file, encoding="utf-8")
    except OSError:
        _restore(logger)
        return None
    handler.setFormatter(_SafeFormatter(_FORMAT))
    # Default registries: every live client's secret and tokens, plus what the
    # app registered (a secret typed at sign-in, even a refused one).
    handler.addFilter(_RedactionOnFirstRecord(secrets))
    logger.addHandler(handler)
    return handler


def remove_file_logging(handler: logging.Handler | None) -> None:
    """Undo :func:`install_file_logging`: with the last handler, the level and propagation as before it."""
    if handler is None:
        return
    logger = logging.getLogger(ROOT_LOGGER)
    logger.removeHandler(handler)
    handler.close()
    _restore(logger)


#: The app's logger's level and propagation before the first file handler (restored
#: with the last: an app run inside another program, or a test, leaves them as found).
_before: dict[str, tuple[int, bool]] = {}


def _file_handlers(logger: logging.Logger) -> list[logging.Handler]:
    return [h for h in logger.handlers if isinstance(h, logging.FileHandler)]


def _restore(logger: logging.Logger) -> None:
    if not _file_handlers(logger):
        level, propagate = _before.pop(logger.name, (logging.NOTSET, True))
        logger.setLevel(level)
        logger.propagate = propagate
