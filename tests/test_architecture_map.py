"""The architecture page's map, "to change X, open Y": every file or folder it names exists."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "developer" / "architecture.md"


def _named(text: str) -> list[str]:
    return re.findall(r"`((?:src|styles|tests|benchmarks|docs)/[^`\s]+)`", text)


def test_every_file_the_map_names_exists() -> None:
    text = PAGE.read_text()
    named = _named(text)
    assert len(named) > 30  # the map and the parts
    missing = [path for path in named if not any(ROOT.glob(path))]
    assert missing == []


def test_the_check_can_fail() -> None:
    assert _named("open `src/accountdesk/nowhere.py` or `styles/none.tcss`") == [
        "src/accountdesk/nowhere.py",
        "styles/none.tcss",
    ]
    assert not any(ROOT.glob("src/accountdesk/nowhere.py"))
    assert any(ROOT.glob("src/accountdesk/tours/*.toml"))
