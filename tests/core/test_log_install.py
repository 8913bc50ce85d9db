"""The app's file log is installed and removed without leaving the logger changed.

An app run inside another program (a test, the web bridge's sessions) must
leave the ``accountdesk`` logger as it found it: its level (INFO left behind
hid the client's DEBUG records from the next test's caplog) and propagation.
"""

from __future__ import annotations

import logging
from pathlib import Path

from accountdesk.core.logs import install_file_logging, remove_file_logging


def test_the_logger_is_left_as_found(tmp_path: Path) -> None:
    logger = logging.getLogger("accountdesk")
    before = (logger.level, logger.propagate)
    first = install_file_logging(tmp_path / "a.log", "info")
    second = install_file_logging(tmp_path / "b.log", "debug")
    assert first is not None and second is not None
    assert logger.level == logging.DEBUG and not logger.propagate
    remove_file_logging(first)
    assert not logger.propagate  # one file still takes the records
    remove_file_logging(second)
    assert (logger.level, logger.propagate) == before


def test_a_log_that_cannot_be_opened_changes_nothing(tmp_path: Path) -> None:
    logger = logging.getLogger("accountdesk")
    before = (logger.level, logger.propagate)
    (tmp_path / "file").write_text("")
    assert install_file_logging(tmp_path / "file" / "app.log", "info") is None  # not a folder
    assert (logger.level, logger.propagate) == before
