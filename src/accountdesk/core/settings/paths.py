"""Where accountdesk keeps its files: one config file, a data folder, a log folder.

Defaults come from ``platformdirs`` (``~/.config/accountdesk/config.toml``,
``~/.local/share/accountdesk``, ``~/.local/state/accountdesk/log`` on Linux);
tests and ``--config`` pass their own. ``ACCOUNTDESK_DATA_DIR`` moves the data
folder: web mode gives each browser session on the sandbox its own.

What one service and API key keeps (tracked jobs, recent lookups) lives in a
folder of its own, :meth:`AppDirs.state_dir`: ``state/<host>-<key>-<hash>``.
The names are cleaned to ``A-Z a-z 0-9 _ . -`` and cut short, so a key such as
``../x`` or one with odd characters can never name a path outside the data
folder; the hash of the exact service and key keeps two keys that clean to the
same text (or differ only in case) apart.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

__all__ = [
    "DATA_DIR_HELP",
    "DATA_DIR_VARIABLE",
    "AppDirs",
    "default_config_path",
    "default_data_dir",
    "default_log_dir",
    "state_folder_name",
]

APP_NAME = "accountdesk"
#: Where recent lookups, tracked jobs and exports go, instead of the user's data dir.
DATA_DIR_VARIABLE = "ACCOUNTDESK_DATA_DIR"
DATA_DIR_HELP = "where jobs, recent lookups and exports are kept (default: the user's data folder)"
#: Longest cleaned part of a state folder's name (the host, the key).
_PART_LENGTH = 32
_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]+")


def _part(text: str, fallback: str) -> str:
    """``text`` with every run of other characters as ``_``, no leading dot, cut short."""
    cleaned = _UNSAFE.sub("_", text).strip("._-")[:_PART_LENGTH].rstrip("._-")
    return cleaned or fallback


def state_folder_name(service_key: str, api_key: str) -> str:
    """The folder name of one service and key: readable, safe, and one per exact pair."""
    import hashlib  # here: OpenSSL's ~2 ms are not the first frame's (issue 16)

    host = urlsplit(service_key).netloc if "://" in service_key else service_key
    digest = hashlib.sha256(f"{service_key}\n{api_key}".encode("utf-8", "surrogatepass"))
    return f"{_part(host, 'service')}-{_part(api_key, 'key')}-{digest.hexdigest()[:16]}"


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

    def state_dir(self, service_key: str, api_key: str) -> Path:
        """Where one service and API key keeps its jobs and recent lookups (see the docstring)."""
        return self.data_dir / "state" / state_folder_name(service_key, api_key)

    @property
    def jobs_file(self) -> Path:
        """The jobs of every key of a service, as versions before 0.x kept them (read to hand over)."""
        return self.data_dir / "jobs.json"

    @property
    def recent_file(self) -> Path:
        """The recent lookups of every key of a service, as earlier versions kept them."""
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
