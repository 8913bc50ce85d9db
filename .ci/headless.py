"""Run a README command line that ends in the dashboard, as a person would, with no screen.

Usage: ``python3 .ci/headless.py "TEXT" < line`` runs the shell line read from
stdin in a pseudo-terminal of 100x30 (the dashboard needs a terminal), echoes
what it prints until the dashboard takes the screen, waits until TEXT is
drawn, presses Ctrl+Q and expects the process to end with status 0.

Exit 0 when all of that happened; 1 (with the last screen's text) when TEXT
never showed, the dashboard would not quit, or it ended badly. Standard library
only: it runs before any virtual environment exists. Config, data and logs go
to a scratch folder, never the CI machine's own.
"""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import signal
import struct
import sys
import tempfile
import termios
import time

#: Install and start together: the install is most of it on a fresh machine.
LAUNCH_SECONDS = 900
QUIT_SECONDS = 30
COLUMNS, LINES = 100, 30
#: The dashboard takes the screen with the alternate buffer; until then the
#: install's output is worth echoing into CI's log.
_ALTERNATE_SCREEN = b"\x1b[?1049h"
_ESCAPE = re.compile(rb"\x1b(\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|P[^\x1b]*\x1b\\|.)")


def visible(stream: bytes) -> str:
    """The text a terminal would draw, without escape sequences (positions lost)."""
    return _ESCAPE.sub(b"", stream).decode("utf-8", "replace")


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    wanted = sys.argv[1]
    line = sys.stdin.read().strip()
    print(f"$ {line}", flush=True)
    scratch = tempfile.mkdtemp(prefix="accountdesk-headless-")
    env = {
        **os.environ,
        "TERM": "xterm-256color",
        "COLUMNS": str(COLUMNS),
        "LINES": str(LINES),
        **{
            f"XDG_{kind}_HOME": os.path.join(scratch, kind.lower())
            for kind in ("CONFIG", "DATA", "STATE", "CACHE")
        },
    }
    pid, fd = pty.fork()
    if pid == 0:  # the child: the pty is its terminal
        os.execvpe("bash", ["bash", "-c", line], env)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", LINES, COLUMNS, 0, 0))
    seen = bytearray()
    echoing = True
    started = time.monotonic()
    quit_sent: float | None = None
    status: int | None = None
    while status is None:
        now = time.monotonic()
        if quit_sent is None and now - started > LAUNCH_SECONDS:
            break
        if quit_sent is not None and now - quit_sent > QUIT_SECONDS:
            break
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:  # EIO: the child closed the terminal
                chunk = b""
            if chunk:
                seen += chunk
                if echoing:
                    head, _, _ = chunk.partition(_ALTERNATE_SCREEN)
                    sys.stdout.write(head.decode("utf-8", "replace"))
                    sys.stdout.flush()
                    echoing = _ALTERNATE_SCREEN not in seen
        done, code = os.waitpid(pid, os.WNOHANG)
        if done:
            status = os.waitstatus_to_exitcode(code)
            break
        if quit_sent is None and wanted in visible(bytes(seen[-200_000:])):
            print(
                f"\n[headless] drew {wanted!r} after {time.monotonic() - started:.1f} s; pressing Ctrl+Q",
                flush=True,
            )
            time.sleep(0.5)  # a person reads before quitting; the app settles
            os.write(fd, b"\x11")
            quit_sent = time.monotonic()
    if status is None:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        tail = visible(bytes(seen[-4000:]))
        why = "did not quit after Ctrl+Q" if quit_sent else f"never drew {wanted!r}"
        print(f"\n[headless] FAILED: the dashboard {why}. Last text:\n{tail}", file=sys.stderr)
        return 1
    if quit_sent is None or status != 0:
        tail = visible(bytes(seen[-4000:]))
        print(
            f"\n[headless] FAILED: ended with status {status} before it was asked to quit"
            if quit_sent is None
            else f"\n[headless] FAILED: ended with status {status}",
            file=sys.stderr,
        )
        print(tail, file=sys.stderr)
        return 1
    print(f"[headless] quit with status 0 after {time.monotonic() - started:.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
