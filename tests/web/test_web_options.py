"""Web mode's rules without a server: which hosts are loopback, what a session runs, the page."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from accountdesk.web.options import ServeOptions, exposure, is_loopback
from accountdesk.web.page import font_size, index_html, page_title


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("127.0.0.1", True),
        ("127.8.9.10", True),
        ("::1", True),
        ("[::1]", True),
        ("localhost", True),
        ("LOCALHOST", True),
        ("0.0.0.0", False),
        ("::", False),
        ("", False),
        ("192.168.1.20", False),
        ("demo-box.lan", False),
        ("localhost.evil.example", False),
    ],
)
def test_loopback_hosts(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback


def test_a_session_runs_this_python_on_the_sandbox_by_default() -> None:
    argv = ServeOptions().session_argv()
    assert argv[:3] == [sys.executable, "-m", "accountdesk"]
    assert "--sandbox" in argv and "--base-url" not in argv


def test_a_session_gets_the_dashboard_flags(tmp_path: Path) -> None:
    options = ServeOptions(
        base_url="https://api.bank.example",
        profile="demo",
        config=tmp_path / "c.toml",
        log_level="debug",
    )
    argv = options.session_argv()
    assert "--sandbox" not in argv
    for flag, value in [
        ("--base-url", "https://api.bank.example"),
        ("--profile", "demo"),
        ("--config", str(tmp_path / "c.toml")),
        ("--log-level", "debug"),
    ]:
        assert argv[argv.index(flag) + 1] == value


def test_loopback_needs_no_warning() -> None:
    assert exposure(ServeOptions(host="127.0.0.1", base_url="https://api.bank.example")) == (
        exposure(ServeOptions())
    )
    assert exposure(ServeOptions()).warnings == () and exposure(ServeOptions()).refusal is None


def test_the_sandbox_on_another_host_is_a_warning() -> None:
    seen = exposure(ServeOptions(host="0.0.0.0", port=8001))
    assert seen.refusal is None
    [warning] = seen.warnings
    assert "0.0.0.0 port 8001" in warning and "demo data only" in warning


def test_a_live_service_on_another_host_is_refused_unless_allowed() -> None:
    live = ServeOptions(host="0.0.0.0", base_url="https://api.bank.example")
    refused = exposure(live)
    assert refused.refusal is not None and "--allow-remote-live" in refused.refusal
    assert "https://api.bank.example" in refused.refusal
    allowed = exposure(ServeOptions(**{**_fields(live), "allow_remote_live": True}))
    assert allowed.refusal is None and "real accounts" in allowed.warnings[0]


def _fields(options: ServeOptions) -> dict[str, object]:
    return {name: getattr(options, name) for name in ServeOptions.__dataclass_fields__}


def test_the_page_title_names_the_service() -> None:
    assert page_title(None) == "accountdesk · SANDBOX"
    assert page_title("https://api.bank.example:8443") == "accountdesk · LIVE api.bank.example"


@pytest.mark.parametrize(
    ("requested", "size"), [(None, 16), ("20", 20), ("2", 8), ("999", 48), ("big", 16)]
)
def test_font_size_is_clamped(requested: str | None, size: int) -> None:
    assert font_size(requested) == size


def test_the_page_escapes_what_it_shows() -> None:
    page = index_html(base_url="<b>odd", static_path='/static/"x/', websocket_path="/ws")
    assert "<title>accountdesk · LIVE &lt;b&gt;odd</title>" in page and "<b>" not in page
    assert '"x/' not in page and "&quot;x/" in page
