"""``accountdesk explain [CODE]``: every code, its words and our guidance, from the contract alone."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

from accountdesk import cli
from accountdesk.cli.explain import MAX_WIDTH, explain
from accountdesk.contract import (
    ERRORS,
    FAILURE_GUIDANCE,
    SANDBOX_CODES,
    SUPPORT_EMAIL,
    UNLISTED_CODES,
    FailureKind,
    endpoints,
)
from hidden_packages import environment_without

ALL_CODES = [*ERRORS, *UNLISTED_CODES, *SANDBOX_CODES]


def run(code: str | None = None, width: int = MAX_WIDTH) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = explain(code, out=out, err=err, width=width)
    return status, out.getvalue(), err.getvalue()


def flat(text: str) -> str:
    """The text with its wrapping undone (a phrase may span two lines)."""
    return " ".join(text.split())


def test_the_list_names_every_code_and_every_failure_kind_within_80_columns() -> None:
    status, out, err = run()
    assert (status, err) == (0, "")
    listed = [
        line.split()[0] for line in out.splitlines() if line.startswith("  ") and line[2:3] != " "
    ]
    assert listed == [*ALL_CODES, *(str(kind) for kind in FailureKind)]
    assert max(len(line) for line in out.splitlines()) <= 80
    for code, spec in ERRORS.items():
        assert flat(spec.condition) in flat(out), code


@pytest.mark.parametrize("code", ALL_CODES)
def test_each_code_prints_its_message_meaning_and_next_step(code: str) -> None:
    status, out, err = run(code)
    assert (status, err) == (0, "")
    spec = {**ERRORS, **UNLISTED_CODES, **SANDBOX_CODES}[code]
    text = flat(out)
    assert text.startswith(f"{code} (")
    message = spec.message_for(None, user_id="{user_id}", job_id="{job_id}")
    assert f'"{flat(message)}"' in text
    assert flat(spec.meaning) in text and flat(spec.next_step) in text
    assert max(len(line) for line in out.splitlines()) <= 80


def test_ac108_names_its_endpoint_and_keeps_the_services_spelling() -> None:
    _status, out, _err = run("AC-108")
    assert f"  {endpoints.REFRESH}\n" in out
    assert "blockd" in out and "lifts by itself" in flat(out)


def test_codes_with_per_endpoint_texts_and_statuses_show_each() -> None:
    _status, out, _err = run("AC-100")
    assert f"On {endpoints.TOKEN}:" in out and "On the other endpoints:" in out
    _status, out, _err = run("AC-102")
    assert f"400 on {endpoints.REFRESH}" in flat(out)
    _status, out, _err = run("AC-104")
    assert SUPPORT_EMAIL in out and "{support_email}" not in out


def test_ac106_and_ac113_say_which_endpoint_answered() -> None:
    _s, paused, _e = run("AC-106")
    _s, mismatch, _e = run("AC-113")
    assert f"  {endpoints.BALANCE}\n" in paused and f"  {endpoints.IDENTITY_READ}\n" not in paused
    assert (
        f"  {endpoints.IDENTITY_READ}\n" in mismatch and f"  {endpoints.BALANCE}\n" not in mismatch
    )
    assert ERRORS["AC-106"].meaning.split(":")[0] in flat(paused)


@pytest.mark.parametrize(
    "typed",
    # As people type it, and as it comes pasted from a ticket, a mail or a web
    # page (non-breaking hyphen, en dash, a space).
    [
        "ac-108",
        "108",
        " AC-108 ",
        "AC108",
        "ac108",
        "AC 108",
        "AC_108",
        "AC\u2011108",
        "AC\u2013108",
    ],
)
def test_a_code_may_be_typed_loosely(typed: str) -> None:
    assert run(typed)[1] == run("AC-108")[1]


@pytest.mark.parametrize("typed", ["still_running", "Still running", "unknown_code"])
def test_a_failure_kind_may_be_typed_with_spaces_or_underscores(typed: str) -> None:
    kind = typed.lower().replace("_", "-").replace(" ", "-")
    assert run(typed)[:2] == run(kind)[:2] and run(kind)[0] == 0


@pytest.mark.parametrize("kind", list(FailureKind))
def test_failures_without_a_code_are_explained_by_kind(kind: FailureKind) -> None:
    status, out, _err = run(str(kind).upper())
    assert status == 0
    assert flat(FAILURE_GUIDANCE[kind].meaning) in flat(out)
    assert flat(FAILURE_GUIDANCE[kind].next_step) in flat(out)
    assert "AC-" not in out  # the app never invents a code


@pytest.mark.parametrize("typed", ["AC-999", "nonsense", "AC-1000", "\x1b[31m"])
def test_an_unknown_code_is_one_line_and_exit_2(typed: str) -> None:
    status, out, err = run(typed)
    assert (status, out) == (2, "")
    assert err.count("\n") == 1 and err.startswith("accountdesk: explain: ")
    assert "\x1b" not in err


def test_an_unknown_code_pasted_by_mistake_is_still_one_short_line() -> None:
    status, out, err = run("AC-" + "9" * 100_000)
    assert (status, out) == (2, "")
    assert err.count("\n") == 1 and len(err) <= 2 * MAX_WIDTH
    assert "AC-999" in err and "…" in err


def test_the_command_line_runs_it(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["explain", "AC-112"]) == 0
    assert flat(ERRORS["AC-112"].next_step) in flat(capsys.readouterr().out)
    assert cli.main(["explain", "AC-999"]) == 2
    assert "AC-999" in capsys.readouterr().err


def _without(tmp_path: Path, *packages: str) -> dict[str, str]:
    """An environment where ``packages`` cannot be imported (as in a smaller install)."""
    return environment_without(packages, tmp_path / "blocker")


def test_it_needs_nothing_beyond_the_standard_library(tmp_path: Path) -> None:
    env = _without(tmp_path, "textual", "rich", "httpx", "pydantic", "platformdirs")
    done = subprocess.run(
        [sys.executable, "-m", "accountdesk", "explain", "AC-104"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert flat(ERRORS["AC-104"].next_step) in flat(done.stdout)


def test_a_reader_that_leaves_early_is_not_a_crash() -> None:
    # `accountdesk explain | head -1`: the pipe closes before everything is written.
    process = subprocess.Popen(
        [sys.executable, "-m", "accountdesk", "explain"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()
    stderr = process.stderr.read().decode()
    process.wait(timeout=60)
    assert "Traceback" not in stderr and "BrokenPipe" not in stderr
