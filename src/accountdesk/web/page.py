"""The one HTML page of web mode: textual-serve's terminal, nothing fetched from elsewhere.

textual-serve's own page loads its font from Google's servers; a demo of a
bank-data tool must not tell a third party when it runs (and CI has no
network), so this page serves the same font from textual-serve's static
folder. It keeps the DOM contract its ``textual.js`` reads: a
``.textual-terminal`` element with ``data-session-websocket-url`` and
``data-font-size``, a ``#start`` element, and the ``-first-byte`` and
``-closed`` classes it sets on ``<body>``.

The websocket address is built in the browser from the address the page was
loaded from, so the page works behind any host name, port or TLS proxy
without the server guessing its public URL.
"""

from __future__ import annotations

import json
from html import escape
from urllib.parse import urlsplit

__all__ = ["DEFAULT_FONT_SIZE", "font_size", "index_html", "page_title"]

DEFAULT_FONT_SIZE = 16
#: Big enough for a screen share, small enough to keep the 80x24 the app needs.
_FONT_SIZES = range(8, 49)

_FONT = "fonts/RobotoMono-VariableFont_wght.ttf"
_ITALIC_FONT = "fonts/RobotoMono-Italic-VariableFont_wght.ttf"

_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<link rel="preload" href="{static}{font}" as="font" type="font/ttf" crossorigin>
<link rel="stylesheet" href="{static}css/xterm.css">
<style>
@font-face {{ font-family: "Roboto Mono"; font-weight: 100 700;
  src: url("{static}{font}") format("truetype"); }}
@font-face {{ font-family: "Roboto Mono"; font-style: italic; font-weight: 100 700;
  src: url("{static}{italic_font}") format("truetype"); }}
html, body {{ margin: 0; height: 100%; overflow: hidden; background: #0c181f; }}
.textual-terminal {{ width: 100vw; height: 100vh; opacity: 0; }}
body.-first-byte .textual-terminal {{ opacity: 1; }}
.notice {{ position: fixed; inset: 0; z-index: 10; display: flex; flex-direction: column;
  align-items: center; justify-content: center; gap: 16px; background: #0c181f;
  color: rgba(255, 255, 255, 0.95); font: 16px "Roboto Mono", monospace; }}
body.-first-byte #starting, #ended, #start {{ display: none; }}
body.-closed #ended {{ display: flex; }}
button {{ padding: 12px 24px; border: none; background: #5e0ba7; color: #fff;
  font: inherit; cursor: pointer; }}
</style>
<script src="{static}js/textual.js"></script>
</head>
<body>
<div id="starting" class="notice">Starting {service}…</div>
<div id="ended" class="notice">
  <div>Session ended.</div>
  <button type="button" onclick="location.reload()">Start a new session</button>
</div>
<span id="start"></span>
<div id="terminal" class="textual-terminal" data-font-size="{font_size}"></div>
<script>
document.getElementById("terminal").dataset.sessionWebsocketUrl =
  (location.protocol === "https:" ? "wss://" : "ws://") + location.host + {websocket_path};
</script>
</body>
</html>
"""


def page_title(base_url: str | None) -> str:
    """The tab's title says which service, as the dashboard's badge does."""
    if base_url is None:
        return "accountdesk · SANDBOX"
    return f"accountdesk · LIVE {urlsplit(base_url).hostname or base_url}"


def font_size(requested: str | None) -> int:
    """``?fontsize=N`` (for a screen share), clamped; anything unreadable is the default."""
    try:
        size = int(requested or DEFAULT_FONT_SIZE)
    except ValueError:
        return DEFAULT_FONT_SIZE
    return min(max(size, _FONT_SIZES.start), _FONT_SIZES.stop - 1)


def index_html(
    *, base_url: str | None, static_path: str, websocket_path: str, size: int = DEFAULT_FONT_SIZE
) -> str:
    """The page for one browser session (every value escaped)."""
    service = "the embedded sandbox" if base_url is None else "the live service"
    return _PAGE.format(
        title=escape(page_title(base_url)),
        static=escape(static_path),
        font=_FONT,
        italic_font=_ITALIC_FONT,
        service=escape(service),
        font_size=int(size),
        websocket_path=json.dumps(websocket_path),
    )
