"""``ACCOUNTDESK_DATA_DIR`` moves the data folder (web mode gives each sandbox session its own)."""

from __future__ import annotations

from pathlib import Path

import pytest

from accountdesk.core.settings.paths import DATA_DIR_VARIABLE, AppDirs


def test_the_data_folder_can_be_moved(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(DATA_DIR_VARIABLE, str(tmp_path / "session"))
    dirs = AppDirs.default(tmp_path / "config.toml")
    assert dirs.data_dir == tmp_path / "session"
    assert dirs.jobs_file == tmp_path / "session" / "jobs.json"
    assert dirs.recent_file == tmp_path / "session" / "recent.json"
    assert dirs.config_path == tmp_path / "config.toml"


def test_a_blank_value_means_the_usual_folder(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(DATA_DIR_VARIABLE, raising=False)
    usual = AppDirs.default().data_dir
    monkeypatch.setenv(DATA_DIR_VARIABLE, "  ")
    assert AppDirs.default().data_dir == usual
