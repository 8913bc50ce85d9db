"""The terminal edges: no terminal, sizes from the environment, pastes that hold control bytes.

Unit tests of :mod:`accountdesk.tui.terminal` (with Textual's own input
parser behind the paste guard), then the whole process in a real
pseudo-terminal (``tests/pty_terminal.py``), as a person meets it.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest
from textual import events
from textual._xterm_parser import XTermParser

from accountdesk.tui.terminal import (
    MAX_COLUMNS,
    MAX_LINES,
    PASTE_END,
    PASTE_START,
    PasteGuard,
    bounded_size_environment,
    terminal_problem,
    terminal_size,
)

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from pty_terminal import PtyApp

# -- pastes ---------------------------------------------------------------------------

#: What tmux 3.3 sends for a paste of text holding an ESC and a newline.
HOSTILE_PASTE = PASTE_START + "abc\x1bdef\rsecond line" + PASTE_END


def parsed(*chunks: str, guard: PasteGuard | None = None) -> list[events.Event]:
    """Textual's own parser fed ``chunks`` (through ``guard`` when given)."""
    parser = XTermParser()
    found: list[events.Event] = []
    for chunk in chunks:
        found += parser.feed(guard.feed(chunk) if guard else chunk)  # type: ignore[arg-type]
    return found


def test_textual_alone_turns_a_pasted_escape_into_keys() -> None:
    # The upstream behaviour this layer exists for: if this fails, Textual
    # fixed it, and the guard may go.
    keys = [event.key for event in parsed(HOSTILE_PASTE) if isinstance(event, events.Key)]
    assert "enter" in keys


def test_a_paste_with_an_escape_stays_one_paste_and_presses_no_key() -> None:
    found = parsed(HOSTILE_PASTE, guard=PasteGuard())
    assert [type(event) for event in found] == [events.Paste]
    assert found[0].text == "abcdef\rsecond line"  # type: ignore[attr-defined]


@pytest.mark.parametrize("split", range(1, len(HOSTILE_PASTE)))
def test_a_paste_split_anywhere_across_reads_is_the_same_paste(split: int) -> None:
    guard = PasteGuard()
    found = parsed(HOSTILE_PASTE[:split], HOSTILE_PASTE[split:], guard=guard)
    assert [type(event) for event in found] == [events.Paste]
    assert found[0].text == "abcdef\rsecond line"  # type: ignore[attr-defined]
    assert not guard.in_paste


def test_control_bytes_are_dropped_tabs_and_newlines_kept() -> None:
    text = "a\x00b\x07c\td\ne\x7ff\x9bg\x1b[31mh"
    (paste,) = parsed(PASTE_START + text + PASTE_END, guard=PasteGuard())
    assert paste.text == "abc\td\nefg[31mh"  # type: ignore[attr-defined]


def test_outside_a_paste_nothing_is_changed_or_held_back() -> None:
    guard = PasteGuard()
    for text in ("\x1b", "q", "\x1b[A", "\x1b[20", "0~"):
        # A lone Escape (or the start of a paste marker) reaches the parser at once.
        assert guard.feed(text) == text
    assert guard.in_paste  # "\x1b[20" + "0~" was a paste's start, split in two


def test_keys_after_a_paste_are_keys_again() -> None:
    found = parsed(HOSTILE_PASTE + "x", guard=PasteGuard())
    assert isinstance(found[0], events.Paste)
    assert [event.key for event in found[1:] if isinstance(event, events.Key)] == ["x"]


def test_an_escape_that_looks_like_the_end_but_is_not_is_dropped() -> None:
    (paste,) = parsed(PASTE_START + "a\x1b[201b" + PASTE_END, guard=PasteGuard())
    assert paste.text == "a[201b"  # type: ignore[attr-defined]


# -- sizes and terminals ------------------------------------------------------------------


class Stream(io.StringIO):
    def __init__(self, tty: bool) -> None:
        super().__init__()
        self._tty = tty

    def isatty(self) -> bool:
        return self._tty


def test_without_a_terminal_the_dashboard_says_so() -> None:
    problem = terminal_problem({}, Stream(False), Stream(True))
    assert problem is not None and "needs a terminal" in problem and "stdin is not" in problem
    assert "\n" not in problem
    assert terminal_problem({}, Stream(True), Stream(True)) is None
    # Web mode's dashboards read and draw through their own driver.
    assert terminal_problem({"TEXTUAL_DRIVER": "x:WebDriver"}, Stream(False), None) is None


def test_a_dumb_terminal_is_refused() -> None:
    problem = terminal_problem({"TERM": "dumb"}, Stream(True), Stream(True))
    assert problem is not None and "TERM=dumb" in problem


def test_the_real_terminals_size_wins_over_the_environment() -> None:
    primary, secondary = os.openpty()
    try:
        import fcntl
        import struct
        import termios

        fcntl.ioctl(primary, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
        environ = {"COLUMNS": "300", "LINES": "99999"}
        assert terminal_size([secondary], environ) == (100, 30)
    finally:
        os.close(primary)
        os.close(secondary)


@pytest.mark.parametrize(
    ("environ", "size"),
    [
        ({"LINES": "99999"}, (80, MAX_LINES)),
        ({"COLUMNS": "300", "LINES": "100"}, (300, 100)),
        ({"COLUMNS": "10**9", "LINES": "-5"}, (80, 24)),
        ({"COLUMNS": "0", "LINES": ""}, (80, 24)),
        ({"COLUMNS": str(10**30)}, (MAX_COLUMNS, 24)),
    ],
)
def test_without_a_terminal_the_environment_is_bounded(
    environ: dict[str, str], size: tuple[int, int]
) -> None:
    assert terminal_size([], environ) == size


def test_size_variables_are_dropped_beside_a_terminal_and_bounded_without() -> None:
    environ = {"COLUMNS": "300", "LINES": "99999", "PATH": "/bin"}
    assert bounded_size_environment(environ, real_terminal=True) == {"PATH": "/bin"}
    assert bounded_size_environment(environ, real_terminal=False) == {
        "COLUMNS": "300",
        "LINES": str(MAX_LINES),
        "PATH": "/bin",
    }
    assert bounded_size_environment({"LINES": "x"}, real_terminal=False) == {}


# -- the whole process --------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("args", [[], ["demo", "sign-in"]])
def test_no_terminal_one_line_and_exit_2(tmp_path: Path, args: list[str]) -> None:
    env = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-m", "accountdesk", *args],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=30,
        env=env,
    )
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "needs a terminal" in done.stderr
    assert done.stdout == ""


def test_commands_that_need_no_terminal_still_work_without_one() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "accountdesk", "explain", "AC-108"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 0 and "AC-108" in done.stdout


@pytest.mark.slow
def test_lines_and_columns_from_the_environment_do_not_size_the_app(tmp_path: Path) -> None:
    env = {"LINES": "99999", "COLUMNS": "300"}
    with PtyApp.dashboard(tmp_path, size=(100, 30), env=env) as app:
        assert app.wait_for("Sign in to the Account Data Service")
        # Drawn for the real 100x30: the key bar sits on the last line (drawn
        # for 300x99999 it never would).
        assert app.wait_until(lambda lines: "Quit" in lines[-1], timeout=10)
        assert "Sign in" in app.screen.display[0]
        assert app.rss_kib() < 400_000
        app.type("\x11")  # Ctrl+Q
        assert app.wait() == 0


@pytest.mark.slow
def test_a_pasted_escape_and_newline_do_not_sign_in(tmp_path: Path) -> None:
    with PtyApp.dashboard(tmp_path, size=(100, 30)) as app:
        assert app.wait_for("Sign in to the Account Data Service")
        app.paste(b"sandbox_key\x1b\rx")  # into the focused API key field
        app.pump(1.0)
        assert "Look up a user" not in app.text()  # no Enter was pressed: still signing in
        assert "Sign in to the Account Data Service" in app.text()
        app.type("\x11")
        assert app.wait() == 0


CRASHING = """
import sys
from accountdesk.tui.screens.login import LoginScreen

def boom(self):
    account_number = "9876543210123456"  # a local a traceback would draw
    raise RuntimeError(f"unexpected failure near {account_number}")

LoginScreen.action_sign_in = boom
mounted = LoginScreen.on_mount

def on_mount(self):
    mounted(self)
    # Signs in by itself: at 20x6 the screen is the one line, and keys are ignored.
    self.set_timer(1.5, lambda: self.run_action("sign_in"))

LoginScreen.on_mount = on_mount
from accountdesk.cli import main
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.slow
@pytest.mark.parametrize("size", [(20, 6), (100, 30)])
def test_a_crash_is_a_few_lines_and_a_log_not_a_wall(tmp_path: Path, size: tuple[int, int]) -> None:
    script = tmp_path / "crashing.py"
    script.write_text(CRASHING)
    with PtyApp([str(script)], tmp_path, size=size) as app:
        status = app.wait()  # signing in (by itself after 1.5 s) raises
        after = bytes(app.raw).decode("utf-8", "replace")
    assert status == 1
    tail = after.rsplit("\x1b[?1049l", 1)[-1]  # what is printed once the screen is restored
    assert "accountdesk stopped on an unexpected error" in " ".join(tail.split())
    assert "Traceback" not in after and "98765432" not in after
    assert len(tail.strip().splitlines()) <= 16  # four lines, wrapped at 20 columns
    log = next(tmp_path.rglob("accountdesk.log")).read_text()
    assert "Traceback" in log and "unexpected failure near" in log and "98765432" not in log


#: Text a person may type, each kind terminals draw at a known width (pyte: wcwidth).
KINDS = ["中文", "👍", "👍🏽", "e\u0301", "שלום"]


def _columns(app: PtyApp, y: int) -> list[str]:
    """Row ``y`` cell by cell (a wide glyph's second cell is "")."""
    row = app.screen.buffer[y]
    return [row[x].data for x in range(app.columns)]


def _row_with(app: PtyApp, text: str) -> int:
    return next(y for y, line in enumerate(app.screen.display) if text in line)


def _edges_after_typing(app: PtyApp, marker: str, wanted: str) -> tuple[list[int], list[int]]:
    """The columns of ``wanted`` glyphs on the marker's row, before and after typing each kind."""
    y = _row_with(app, marker)
    before = [x for x, cell in enumerate(_columns(app, y)) if cell == wanted]
    for kind in KINDS:
        app.type(kind)
    app.pump(0.5)
    after = [x for x, cell in enumerate(_columns(app, y)) if cell == wanted]
    return before, after


@pytest.mark.slow
def test_wide_and_joined_characters_keep_every_border_in_place(tmp_path: Path) -> None:
    with PtyApp.dashboard(tmp_path, size=(100, 30)) as app:
        assert app.wait_for("Sign in to the Account Data Service")
        app.type("\r")
        assert app.wait_for("Look up a user")
        # The lookup field: its right edge.
        before, after = _edges_after_typing(app, "e.g. user_good", "▎")
        assert before and after == before
        app.type("\x15")  # Ctrl+U: clear the field
        app.type("user_good\r")
        assert app.wait_for("Institution")
        app.type("x")
        assert app.wait_for("showing 60 of 60")
        app.type("/")
        app.pump(0.3)  # the focus moves to the filter before a person types
        # The transactions filter: the date box beside it keeps its borders.
        before, after = _edges_after_typing(app, "YYYY-MM-DD", "▊")
        assert len(before) == 2 and after == before
        app.escape()  # clears the filter
        app.escape()  # back to the account
        assert app.wait_for("Institution")
        app.type("\x0c")  # Ctrl+L: the user id field
        app.type("user_mfa\r")
        assert app.wait_for("Cascade Federal")
        app.type("b")
        assert app.wait_for("Answer, then Enter")
        # The MFA answer: the dialog's right edge.
        before, after = _edges_after_typing(app, "Answer, then Enter", "█")
        assert len(before) == 2 and after == before
        app.escape()  # the dialog closes unanswered
        app.type("j")
        assert app.wait_for("Polling")
        app.type("/")
        app.pump(0.3)  # the focus moves to the filter before a person types
        # The jobs filter (one line, no border): the rows around it stay as they were.
        y = _row_with(app, "Filter by user")
        # The line above, left half (toasts come and go on the right); the table
        # below gives way to "No job matches" once nothing matches.
        above = app.screen.display[y - 1][:40]
        for kind in KINDS:
            app.type(kind)
        app.pump(0.5)
        assert app.screen.display[y - 1][:40] == above
        drawn = unicodedata.normalize("NFC", "".join(_columns(app, y)))  # pyte composes é
        assert unicodedata.normalize("NFC", "".join(KINDS)) in drawn
        assert app.wait_for("No job matches")
        app.type("\x11")  # Ctrl+Q: a job still waits for MFA, so it asks first
        assert app.wait_for("Quit")
        app.type("y")
        assert app.wait() == 0
