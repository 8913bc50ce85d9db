"""The dashboard as a whole process in a real pseudo-terminal, read back through a terminal emulator.

For what only a real terminal shows: the size the app believes it has, how
pasted bytes reach it, what a crash leaves on the screen, how wide a glyph
is drawn. ``pyte`` plays the terminal (it measures characters with wcwidth,
as terminals do); the child gets its own data, config and log folders.
"""

from __future__ import annotations

import fcntl
import os
import pty
import select
import signal
import struct
import sys
import termios
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import pyte

ROOT = Path(__file__).resolve().parents[1]


class PtyApp:
    """One child process on a pseudo-terminal of ``size`` (columns, lines)."""

    def __init__(
        self,
        argv: Sequence[str],
        home: Path,
        *,
        size: tuple[int, int] = (100, 30),
        env: Mapping[str, str] | None = None,
    ) -> None:
        self.home = home
        self.columns, self.lines = size
        self.screen = pyte.Screen(self.columns, self.lines)
        self.stream = pyte.ByteStream(self.screen)
        self.raw = bytearray()
        environment = {
            key: value
            for key, value in os.environ.items()
            if not key.startswith(("ACCOUNTDESK_", "TEXTUAL", "PYTEST_XDIST"))
        }
        environment.update(
            {
                "TERM": "xterm-256color",
                "XDG_CONFIG_HOME": str(home / "config"),
                "XDG_DATA_HOME": str(home / "data"),
                "XDG_STATE_HOME": str(home / "state"),
                "XDG_CACHE_HOME": str(home / "cache"),
                "HOME": str(home),
            }
        )
        environment.pop("COLUMNS", None)
        environment.pop("LINES", None)
        environment.update(env or {})
        pid, fd = pty.fork()
        if pid == 0:  # the child: this pty is its controlling terminal
            try:
                os.execve(sys.executable, [sys.executable, *argv], environment)
            finally:
                os._exit(127)
        self.pid, self.fd = pid, fd
        self.status: int | None = None
        self._set_size(self.columns, self.lines)

    @classmethod
    def dashboard(cls, home: Path, *args: str, **options: object) -> PtyApp:
        """``accountdesk ARGS`` (the embedded sandbox unless told otherwise)."""
        return cls(["-m", "accountdesk", *args], home, **options)  # type: ignore[arg-type]

    # -- the terminal ------------------------------------------------------------

    def _set_size(self, columns: int, lines: int) -> None:
        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", lines, columns, 0, 0))

    def resize(self, columns: int, lines: int) -> None:
        """As a person resizing the window: the kernel tells the child (SIGWINCH)."""
        self.columns, self.lines = columns, lines
        self.screen.resize(lines, columns)
        self._set_size(columns, lines)

    def pump(self, seconds: float = 0.05) -> None:
        """Read what the child drew for up to ``seconds``."""
        until = time.monotonic() + seconds
        while True:
            left = until - time.monotonic()
            ready, _, _ = select.select([self.fd], [], [], max(left, 0))
            if ready:
                try:
                    chunk = os.read(self.fd, 65536)
                except OSError:
                    chunk = b""
                if not chunk:
                    self._reap(block=True)
                    return
                self.raw += chunk
                self.stream.feed(chunk)
            elif left <= 0:
                return

    def text(self) -> str:
        return "\n".join(self.screen.display)

    def wait_for(self, wanted: str, timeout: float = 30.0) -> bool:
        """Until ``wanted`` is on screen (True), the child ended or time ran out (False).

        Once it shows, the rest of the frame is read too: a whole screen is
        ~27 KB and a pty hands it over ~4 KB a read, so under load the top
        line can be there while the key bar at the bottom is not yet.
        """
        until = time.monotonic() + timeout
        while time.monotonic() < until:
            self.pump(0.1)
            if wanted in self.text():
                self.quiet()
                return True
            if self.exited():
                return wanted in self.text()
        return False

    def wait_until(self, drawn: Callable[[list[str]], bool], timeout: float = 30.0) -> bool:
        """Until ``drawn(lines)`` holds for the screen's lines (True), or time ran out (False)."""
        until = time.monotonic() + timeout
        while time.monotonic() < until:
            if drawn(self.screen.display):
                return True
            if self.exited():
                return False
            self.pump(0.1)
        return drawn(self.screen.display)

    def quiet(self, gap: float = 0.1, most: float = 2.0) -> None:
        """Read until the child has written nothing for ``gap`` seconds (at most ``most``)."""
        until = time.monotonic() + most
        while time.monotonic() < until:
            before = len(self.raw)
            self.pump(gap)
            if len(self.raw) == before:
                return

    def type(self, keys: str | bytes, pace: float = 0.02) -> None:
        """Type ``keys`` a character at a time, as a person (a burst can outrun focus)."""
        data = keys.encode() if isinstance(keys, str) else keys
        for byte in data:
            os.write(self.fd, bytes([byte]))
            self.pump(pace)

    def escape(self) -> None:
        """The Escape key, then a pause: a key right after it would read as Alt+key."""
        self.type("\x1b")
        self.pump(0.3)

    def paste(self, text: str | bytes) -> None:
        """A bracketed paste, as tmux or a terminal sends one (all at once)."""
        data = text.encode() if isinstance(text, str) else text
        os.write(self.fd, b"\x1b[200~" + data + b"\x1b[201~")
        self.pump(0.3)

    # -- the process -------------------------------------------------------------

    def _reap(self, block: bool = False) -> None:
        if self.status is not None:
            return
        done, code = os.waitpid(self.pid, 0 if block else os.WNOHANG)
        if done:
            self.status = os.waitstatus_to_exitcode(code)

    def exited(self) -> bool:
        self._reap()
        return self.status is not None

    def wait(self, timeout: float = 20.0) -> int | None:
        """The exit status, or None if the child is still running after ``timeout``."""
        until = time.monotonic() + timeout
        while time.monotonic() < until and not self.exited():
            self.pump(0.1)
        return self.status

    def rss_kib(self) -> int:
        """The child's resident memory now (Linux)."""
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        return 0

    def close(self) -> None:
        if not self.exited():
            os.kill(self.pid, signal.SIGKILL)
            self._reap(block=True)
        os.close(self.fd)

    def __enter__(self) -> PtyApp:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
