"""``accountdesk serve`` in a real browser: Debian's headless Chromium, driven by Playwright.

The server runs as its own process (its own process group) on 127.0.0.1;
Chromium opens the page and must show the sign-in screen with the SANDBOX
badge. What is asserted:

- the terminal's text: xterm.js draws on a canvas, so the page's script is
  given one extra line that keeps a reference to its terminal, whose buffer
  holds exactly what it draws (rows, and each cell's colours);
- the pixels: a screenshot of the top-right corner holds the badge's yellow;
- nothing was requested from anywhere but this server.

The page is opened at the address the server printed (it holds the run's
token, which the server swaps for a cookie and a redirect to the clean
address). Then the server gets Ctrl+C (SIGINT) and must exit 0 leaving no process
behind. Skipped, with the reason, where Chromium or Playwright is missing;
``.ci/run`` installs Chromium, so CI never skips.
"""

from __future__ import annotations

import contextlib
import os
import queue
import signal
import socket
import subprocess
import sys
import threading
import time
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_helpers import isolated_environment

CHROMIUM = Path("/usr/bin/chromium")
#: The machine's network is closed: without the background-networking flags
#: Chromium's own connections are refused and slow everything down.
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SIGN_IN_TITLE = "Sign in to the Account Data Service"
BADGE_YELLOW = 0xFFD700
#: Where textual.js makes its terminal; the hook keeps a reference to it.
HOOK_ANCHOR = "this.terminal.open(e)"
HOOK = HOOK_ANCHOR + ",window.__accountdeskTerminal=this.terminal"
#: The whole test, start to last check (it takes 9 to 13 s here): every wait
#: takes what is left of this, so a hang fails in time instead of stalling CI.
BUDGET = 50.0

pytestmark = [
    pytest.mark.browser,
    pytest.mark.loopback,
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason=f"no Chromium at {CHROMIUM} (Debian: apt-get install -y chromium; .ci/run does)",
    ),
]
sync_api = pytest.importorskip(
    "playwright.sync_api", reason="playwright is not installed (pip install '.[test]')"
)

_ROWS_JS = """() => {
  const terminal = window.__accountdeskTerminal;
  if (!terminal) return null;
  const buffer = terminal.buffer.active, rows = [];
  for (let y = 0; y < terminal.rows; y++) rows.push(buffer.getLine(y).translateToString(true));
  return rows;
}"""
_DRAWN_JS = """([title]) => {
  const terminal = window.__accountdeskTerminal;
  if (!terminal) return false;
  const buffer = terminal.buffer.active;
  let seen = "";
  for (let y = 0; y < terminal.rows; y++) seen += buffer.getLine(y).translateToString(true) + "\\n";
  return seen.includes(title) && seen.includes("SANDBOX");
}"""
_CELL_COLOURS_JS = """([row, start, length]) => {
  const line = window.__accountdeskTerminal.buffer.active.getLine(row), cells = [];
  for (let x = start; x < start + length; x++) {
    const cell = line.getCell(x);
    cells.push([cell.getChars(), cell.isBgRGB() ? cell.getBgColor() : -1,
                cell.isFgRGB() ? cell.getFgColor() : -1]);
  }
  return cells;
}"""


class _Budget:
    def __init__(self, seconds: float) -> None:
        self._end = time.monotonic() + seconds

    def left(self) -> float:
        return max(self._end - time.monotonic(), 0.1)

    def left_ms(self) -> float:
        return self.left() * 1000


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class _Lines:
    """A process's stderr, line by line, read on a thread (waits are bounded)."""

    def __init__(self, stream: Any) -> None:
        self.seen: list[str] = []
        self._queue: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, args=(stream,), daemon=True).start()

    def _read(self, stream: Any) -> None:
        for line in stream:
            self._queue.put(line)

    def wait_for(self, words: str, within: float) -> str:
        deadline = time.monotonic() + within
        while (left := deadline - time.monotonic()) > 0:
            try:
                line = self._queue.get(timeout=left)
            except queue.Empty:
                break
            self.seen.append(line)
            if words in line:
                return line
        raise AssertionError(f"{words!r} not printed within {within} s; got {self.seen}")


@contextlib.contextmanager
def _server(
    tmp_path: Path, budget: _Budget
) -> Iterator[tuple[subprocess.Popen[str], _Lines, str, str]]:
    port = _free_port()
    config = tmp_path / "config.toml"
    config.write_text("")
    command = ["-m", "accountdesk", "--config", str(config), "serve", "--port", str(port)]
    process = subprocess.Popen(
        [sys.executable, *command],
        env=isolated_environment(tmp_path),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group: every child is findable
    )
    try:
        lines = _Lines(process.stderr)
        serving = lines.wait_for("serving the dashboard", within=budget.left())
        # The address to open, as printed: it carries this run's token.
        printed = serving.split(" at ", 1)[1].split(" ", 1)[0]
        yield process, lines, f"http://127.0.0.1:{port}", printed
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)


def _group_is_gone(group: int, within: float) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            os.killpg(group, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.05)
    return False


def _png_rgb(data: bytes) -> tuple[int, int, list[bytes]]:
    """Width, height and RGB rows of an 8-bit, non-interlaced PNG (what Chromium writes)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    position, compressed = 8, b""
    while position < len(data):
        length = int.from_bytes(data[position : position + 4], "big")
        kind, body = data[position + 4 : position + 8], data[position + 8 : position + 8 + length]
        position += 12 + length
        if kind == b"IHDR":
            width, height = int.from_bytes(body[:4], "big"), int.from_bytes(body[4:8], "big")
            depth, colour, interlace = body[8], body[9], body[12]
        elif kind == b"IDAT":
            compressed += body
    assert depth == 8 and colour in (2, 6) and interlace == 0
    channels = 3 if colour == 2 else 4
    raw, stride = zlib.decompress(compressed), width * channels
    rows: list[bytes] = []
    previous = bytearray(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
        for x in range(stride):
            left = line[x - channels] if x >= channels else 0
            up, corner = previous[x], previous[x - channels] if x >= channels else 0
            if kind == 1:
                line[x] = (line[x] + left) & 0xFF
            elif kind == 2:
                line[x] = (line[x] + up) & 0xFF
            elif kind == 3:
                line[x] = (line[x] + (left + up) // 2) & 0xFF
            elif kind == 4:
                estimate = left + up - corner
                pa, pb, pc = abs(estimate - left), abs(estimate - up), abs(estimate - corner)
                nearest = left if pa <= pb and pa <= pc else up if pb <= pc else corner
                line[x] = (line[x] + nearest) & 0xFF
        previous = line
        rows.append(bytes(b for i, b in enumerate(line) if i % channels < 3))
    return width, height, rows


def _yellow_pixels(png: bytes) -> int:
    _, _, rows = _png_rgb(png)
    count = 0
    for row in rows:
        for x in range(0, len(row), 3):
            red, green, blue = row[x], row[x + 1], row[x + 2]
            count += red > 235 and 195 < green < 235 and blue < 40
    return count


def test_the_browser_shows_the_sign_in_screen_with_the_sandbox_badge(tmp_path: Path) -> None:
    budget = _Budget(BUDGET)
    with _server(tmp_path, budget) as (server, lines, base, printed):
        assert printed.startswith(base + "/?token=")
        outside: list[str] = []

        def route(request_route: Any) -> None:
            url = request_route.request.url
            if not url.startswith(base + "/"):
                outside.append(url)
                request_route.abort()
            elif url.split("?")[0].endswith("/static/js/textual.js"):
                response = request_route.fetch()
                script = response.text()
                assert script.count(HOOK_ANCHOR) == 1, "textual.js changed: move the test's hook"
                request_route.fulfill(response=response, body=script.replace(HOOK_ANCHOR, HOOK))
            else:
                request_route.continue_()

        with sync_api.sync_playwright() as playwright:
            browser = playwright.chromium.launch_persistent_context(
                str(tmp_path / "chromium-profile"),
                executable_path=str(CHROMIUM),
                headless=True,
                args=CHROMIUM_FLAGS,
                viewport={"width": 1280, "height": 800},
                device_scale_factor=1,
            )
            try:
                page = browser.pages[0] if browser.pages else browser.new_page()
                page.route("**/*", route)
                page.goto(printed, timeout=budget.left_ms())
                assert page.url == base + "/"  # the token left the address bar
                page.wait_for_function(_DRAWN_JS, arg=[SIGN_IN_TITLE], timeout=budget.left_ms())
                rows: list[str] = page.evaluate(_ROWS_JS)
                assert any(SIGN_IN_TITLE in row for row in rows), rows
                top = rows[0].rstrip()
                assert top.startswith(" accountdesk") and top.endswith("SANDBOX"), top
                start = len(top) - len("SANDBOX")
                badge = page.evaluate(_CELL_COLOURS_JS, [0, start, len("SANDBOX")])
                assert "".join(chars for chars, _, _ in badge) == "SANDBOX"
                assert {(bg, fg) for _, bg, fg in badge} == {(BADGE_YELLOW, 0x000000)}
                assert page.title() == "accountdesk · SANDBOX"
                page.screenshot(path=str(tmp_path / "sign-in.png"))
                corner = page.screenshot(clip={"x": 1040, "y": 0, "width": 240, "height": 40})
                assert _yellow_pixels(corner) > 400
            finally:
                browser.close()
        assert outside == []
        lines.wait_for("ended (0 open)", within=budget.left())

        server.send_signal(signal.SIGINT)
        assert server.wait(timeout=budget.left()) == 0
        assert _group_is_gone(server.pid, within=budget.left()), "a process outlived the server"
