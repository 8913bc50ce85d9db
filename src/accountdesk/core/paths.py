"""Where accountdesk keeps its files: one config file, a data folder, a log folder.

Defaults come from ``platformdirs`` (``~/.config/accountdesk/config.toml``,
``~/.local/share/accountdesk``, ``~/.local/state/accountdesk/log`` on Linux);
tests and ``--config`` pass their own. ``ACCOUNTDESK_DATA_DIR`` moves the data
folder: web mode gives each browser session on the sandbox its own.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "DATA_DIR_HELP",
    "DATA_DIR_VARIABLE",
    "AppDirs",
    "default_config_path",
    "default_data_dir",
    "default_log_dir",
]

APP_NAME = "accountdesk"
#: Where recent lookups, tracked jobs and exports go, instead of the user's data dir.
DATA_DIR_VARIABLE = "ACCOUNTDESK_DATA_DIR"
DATA_DIR_HELP = "where jobs, recent lookups and exports are kept (default: the user's data folder)"


def default_config_path() -> Path:
    import platformdirs

    return Path(platformdirs.user_config_dir(APP_NAME)) / "config.toml"


def default_data_dir() -> Path:
    if chosen := os.environ.get(DATA_DIR_VARIABLE, "").strip():
        return Path(chosen)
    import platformdirs

    return Path(platformdirs.user_data_dir(APP_NAME))


def default_log_dir() -> Path:
    import platformdirs

    return Path(platformdirs.user_log_dir(APP_NAME))


@dataclass(frozen=True, slots=True)
class AppDirs:
    """The three places the app reads and writes."""

    config_path: Path
    data_dir: Path
    log_dir: Path

    @classmethod
    def default(cls, config_path: Path | None = None) -> AppDirs:
        return cls(config_path or default_config_path(), default_data_dir(), default_log_dir())

    @property
    def jobs_file(self) -> Path:
        return self.data_dir / "jobs.json"

    @property
    def recent_file(self) -> Path:
        return self.data_dir / "recent.json"

    @property
    def exports_dir(self) -> Path:
        return self.data_dir / "exports"

    @property
    def clipboard_dir(self) -> Path:
        """Copied text, when the terminal cannot take it (``core.clipboard``)."""
        return self.data_dir / "clipboard"

    @property
    def screenshots_dir(self) -> Path:
        return self.data_dir / "screenshots"

    @property
    def log_file(self) -> Path:
        return self.log_dir / "accountdesk.log"
