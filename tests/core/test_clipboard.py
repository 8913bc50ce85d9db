"""Where copied text goes: the setting, and what the environment shows about OSC 52."""

from __future__ import annotations

import datetime as dt
import os
import stat
import subprocess
from collections.abc import Mapping
from pathlib import Path

import pytest

from accountdesk.core import clipboard
from accountdesk.core.clipboard import ClipboardMode, clipboard_route, save_clip
from accountdesk.core.settings.model import ConfigError, load_settings
from accountdesk.core.store import Store

XTERM = {"TERM": "xterm-256color"}


def route(env: Mapping[str, str], tmux: str | None = None) -> clipboard.ClipboardRoute:
    asked: list[Mapping[str, str]] = []

    def ask_tmux(seen: Mapping[str, str]) -> str | None:
        asked.append(seen)
        return tmux

    found = clipboard_route(ClipboardMode.AUTO, env, ask_tmux=ask_tmux)
    assert bool(asked) == bool(env.get("TMUX"))  # tmux is asked only inside tmux
    return found


def test_the_setting_wins_over_the_environment() -> None:
    apple = {"TERM_PROGRAM": "Apple_Terminal", "TERM": "xterm-256color"}
    assert clipboard_route(ClipboardMode.OSC52, apple).osc52
    assert not clipboard_route(ClipboardMode.FILE, {"KITTY_WINDOW_ID": "1"}).osc52


@pytest.mark.parametrize(
    ("env", "osc52", "says"),
    [
        (XTERM, True, "cannot be seen"),  # over SSH too: nothing says no
        ({"TERM": "xterm-256color", "TERM_PROGRAM": "Apple_Terminal"}, False, "Terminal.app"),
        ({"TERM": "xterm-256color", "VTE_VERSION": "7600"}, False, "VTE"),
        ({"TERM": "xterm-kitty", "VTE_VERSION": "7600"}, True, "takes OSC 52"),  # inherited
        ({"TERM": "xterm-256color", "VTE_VERSION": "7600", "WT_SESSION": "x"}, True, "takes"),
        ({"TERM": "linux"}, False, "linux"),
        ({}, False, "no TERM"),
        ({"TERM": "screen", "STY": "1234.pts-0.host"}, False, "GNU screen"),
        ({"TERM": "foot"}, True, "takes OSC 52"),
    ],
)
def test_auto_reads_the_environment(env: dict[str, str], osc52: bool, says: str) -> None:
    found = route(env)
    assert found.osc52 is osc52
    assert says in found.reason


@pytest.mark.parametrize(
    ("setting", "osc52"), [("on", True), ("external", False), ("off", False), (None, False)]
)
def test_inside_tmux_only_set_clipboard_on_passes_osc52(setting: str | None, osc52: bool) -> None:
    env = {"TERM": "tmux-256color", "TMUX": "/tmp/tmux-1000/default,123,0", "KITTY_WINDOW_ID": "1"}
    found = route(env, tmux=setting)
    assert found.osc52 is osc52
    if not osc52:
        assert "set-clipboard on" in found.reason and (setting or "unknown") in found.reason


def test_tmux_is_asked_once_per_server(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[list[str]] = []

    def fake_run(args: list[str], **kw: object) -> subprocess.CompletedProcess[str]:
        calls.append(args)
        return subprocess.CompletedProcess(args, 0, stdout="on\n", stderr="")

    clipboard._tmux_answer.cache_clear()
    monkeypatch.setattr(clipboard.subprocess, "run", fake_run)
    env = {"TMUX": "/tmp/tmux-1000/test-once,1,0"}
    assert clipboard.tmux_set_clipboard(env) == "on"
    assert clipboard.tmux_set_clipboard(env) == "on"
    assert calls == [["tmux", "show-options", "-sv", "set-clipboard"]]
    clipboard._tmux_answer.cache_clear()


def test_no_tmux_command_is_an_unknown_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    def missing(args: list[str], **kw: object) -> subprocess.CompletedProcess[str]:
        raise FileNotFoundError("tmux")

    clipboard._tmux_answer.cache_clear()
    monkeypatch.setattr(clipboard.subprocess, "run", missing)
    assert clipboard.tmux_set_clipboard({"TMUX": "/tmp/x,1,0"}) is None
    clipboard._tmux_answer.cache_clear()


def test_the_setting_is_read_from_the_file_and_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("ACCOUNTDESK_CLIPBOARD", raising=False)
    config = tmp_path / "config.toml"
    assert load_settings(config).clipboard is ClipboardMode.AUTO
    config.write_text('clipboard = "file"\n')
    assert load_settings(config).clipboard is ClipboardMode.FILE
    monkeypatch.setenv("ACCOUNTDESK_CLIPBOARD", "osc52")
    assert load_settings(config).clipboard is ClipboardMode.OSC52
    monkeypatch.delenv("ACCOUNTDESK_CLIPBOARD")
    config.write_text('clipboard = "xclip"\n')
    with pytest.raises(ConfigError, match="clipboard"):
        load_settings(config)


def test_a_clip_is_saved_owner_only(tmp_path: Path) -> None:
    now = dt.datetime(2026, 11, 20, 9, 30, tzinfo=dt.UTC)
    path = save_clip(Store(), tmp_path / "clipboard", "text to paste", "ticket", now)
    assert path == tmp_path / "clipboard" / "ticket-20261120-093000.txt"
    assert path.read_text() == "text to paste"
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(path.parent).st_mode) == 0o700
