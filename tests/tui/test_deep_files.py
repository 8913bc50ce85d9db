"""A pack or tour nested hundreds deep is one line naming the file, exit 2, at every entry point.

tomllib parses nested arrays and inline tables recursively: a 1 KB file of
500 ``[`` raised RecursionError (a 1,000-line traceback) from ``scenarios
check``, ``sandbox --scenarios``, the dashboard's ``--scenarios``, ``demo
--file`` and a tour naming the pack (issue 33, item 10).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from accountdesk import cli

DEPTH = 500
NESTINGS = {
    "arrays": "[" * DEPTH + "]" * DEPTH,
    "inline tables": "{a = " * DEPTH + "1" + "}" * DEPTH,
}


@pytest.fixture(params=list(NESTINGS), ids=list(NESTINGS))
def deep(request: pytest.FixtureRequest, tmp_path: Path) -> dict[str, Path]:
    nesting = NESTINGS[request.param]
    pack = tmp_path / "deep-pack.toml"
    pack.write_text(f'[[users]]\nid = "case_1"\nsummary = {nesting}\n', encoding="utf-8")
    tour = tmp_path / "deep-tour.toml"
    tour.write_text(f'title = "T"\nsummary = {nesting}\n[[steps]]\nsay = "x"\n', encoding="utf-8")
    naming = tmp_path / "naming.toml"
    naming.write_text(
        'title = "T"\nsummary = "S"\nscenarios = "deep-pack.toml"\n[[steps]]\nsay = "x"\n',
        encoding="utf-8",
    )
    assert pack.stat().st_size < 4096 and tour.stat().st_size < 4096
    return {"pack": pack, "tour": tour, "naming": naming}


def _one_line(err: str, file: Path) -> None:
    assert "Traceback" not in err and "RecursionError" not in err
    assert err.count("\n") == 1, err
    assert f"{file}: " in err
    assert err.rstrip().endswith(": arrays or tables nested too deeply (it needs a few levels)")


def test_every_entry_point_says_one_line(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    deep: dict[str, Path],
) -> None:
    import accountdesk.sandbox
    import accountdesk.tui.app

    def not_started(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("nothing starts on a pack that cannot be read")

    monkeypatch.setattr(accountdesk.sandbox, "serve", not_started)
    monkeypatch.setattr(accountdesk.tui.app, "AccountDeskApp", not_started)
    config = ["--config", str(tmp_path / "c.toml")]
    pack, tour, naming = deep["pack"], deep["tour"], deep["naming"]
    for argv, file in [
        (["scenarios", "check", str(pack)], pack),
        (["sandbox", "--scenarios", str(pack)], pack),
        ([*config, "--scenarios", str(pack)], pack),
        ([*config, "demo", "--file", str(tour)], tour),
        ([*config, "demo", "--file", str(naming)], pack),
    ]:
        assert cli.main(argv) == 2, argv
        _one_line(capsys.readouterr().err, file)
