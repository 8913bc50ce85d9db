"""The web server of ``accountdesk serve``: a page, textual-serve's scripts, one websocket per tab.

Built on aiohttp (textual-serve's own framework) with textual-serve's
process protocol (:class:`~accountdesk.web.sessions.DashboardSession`) and its
static files (xterm.js). Its ``Server`` class is not used: it loads a font
from Google, trusts every websocket, starts sessions without bound and waits
forever for a dashboard that does not quit. Here:

- nothing (page, scripts, websocket) without the **token** of this run, as
  Jupyter does: every local process can reach 127.0.0.1 and forge any header,
  and a support jump host is shared. It is given once in the address
  ``serve`` prints (``/?token=...``), compared in constant time, then kept in
  a cookie (HttpOnly, SameSite=Strict, this host only, named after the port)
  while the browser is redirected to the clean address, so the token leaves
  the address bar and history. It is never logged (and aiohttp's access log,
  which would write the query, is off);
- a websocket is accepted only from a page this server served (its
  ``Origin`` names the host the request was sent to): any web site the
  operator visits could otherwise open ``ws://127.0.0.1:8000/ws`` itself and
  drive the dashboard, with the credentials it fills in;
- on a loopback address the ``Host`` must be a loopback name, so a DNS name
  rebound to 127.0.0.1 by some web site reaches nothing;
- at most ``max_sessions`` dashboards run at once;
- shutting down ends every dashboard before the server exits.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import secrets
import socket
import tempfile
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from urllib.parse import urlencode, urlsplit

import textual_serve
from aiohttp import WSCloseCode, WSMsgType, web

from accountdesk.web.options import ServeOptions, is_loopback
from accountdesk.web.page import font_size, index_html
from accountdesk.web.sessions import DEFAULT_QUIT_GRACE, DashboardSession

__all__ = ["DashboardServer", "bind", "run"]

log = logging.getLogger(__name__)

STATIC_DIR = Path(textual_serve.__file__).parent / "static"
WEBSOCKET_PATH = "/ws"
#: Terminal sizes a browser may ask for (the dashboard allocates per cell).
_CELLS = range(10, 501)
#: Headers on every page: not framed by another site, nothing cached or leaked.
_PAGE_HEADERS = {
    "Content-Security-Policy": "frame-ancestors 'none'",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


#: The query parameter that carries the token, once.
TOKEN_PARAMETER = "token"
_NO_TOKEN = (
    "this page needs the token of this run: open the address accountdesk serve printed "
    "(it ends in ?token=...)"
)
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def _cells(value: object, default: int) -> int:
    try:
        number = int(str(value))
    except ValueError:
        return default
    return min(max(number, _CELLS.start), _CELLS.stop - 1)


def _host_name(netloc: str) -> str:
    return (urlsplit(f"//{netloc}").hostname or "").lower()


class DashboardServer:
    """The aiohttp application and the sessions it runs."""

    def __init__(
        self,
        options: ServeOptions,
        *,
        argv: Sequence[str] | None = None,
        data_root: Path | None = None,
        quit_grace: float = DEFAULT_QUIT_GRACE,
    ) -> None:
        self.options = options
        #: The command each session runs (tests put a small fake here).
        self.argv = list(argv if argv is not None else options.session_argv())
        #: Sandbox: each session's data folder is made under it; None: the user's data folder.
        self.data_root = data_root
        self.quit_grace = quit_grace
        self.sessions: set[DashboardSession] = set()
        self._sockets: set[web.WebSocketResponse] = set()
        #: What the page and the websocket need (see the module docstring).
        self.token = options.token or secrets.token_urlsafe(32)
        self._token = self.token.encode()

    def application(self) -> web.Application:
        app = web.Application(middlewares=[self.guard])
        app.router.add_get("/", self.index)
        app.router.add_get(WEBSOCKET_PATH, self.websocket)
        app.router.add_static("/static/", STATIC_DIR)
        app.on_shutdown.append(self.shutdown)
        return app

    # -- who may connect ---------------------------------------------------------

    def refusal(self, request: web.Request, *, websocket: bool) -> str | None:
        """Why this request is refused, or None."""
        if self.options.loopback and not is_loopback(_host_name(request.host)):
            return f"this server answers only to a loopback name (not {request.host!r})"
        if websocket:
            origin = request.headers.get("Origin", "")
            parts = urlsplit(origin)
            if (
                parts.scheme not in {"http", "https"}
                or parts.netloc.lower() != request.host.lower()
            ):
                # repr: header text is the client's, and this line reaches the operator's terminal.
                return f"a websocket from another site (Origin {origin!r}) is not accepted"
        return None

    def _is_token(self, given: str | None) -> bool:
        if given is None:
            return False
        # Bytes: compare_digest refuses non-ASCII text; the time taken says nothing.
        return hmac.compare_digest(given.encode("utf-8", "surrogateescape"), self._token)

    @staticmethod
    def _cookie_name(request: web.Request) -> str:
        # Browsers send a host's cookies to every port of it: one name per port,
        # so two servers on one machine never overwrite each other's.
        return f"accountdesk-token-{request.url.port or 0}"

    def _with_cookie(self, request: web.Request) -> web.Response:
        """The token was given in the address: keep it in a cookie, send the browser to the clean one."""
        query = {k: v for k, v in request.query.items() if k != TOKEN_PARAMETER}
        location = "/" + (f"?{urlencode(query)}" if query else "")
        answer = web.Response(status=303, headers={**_PAGE_HEADERS, "Location": location})
        answer.set_cookie(
            self._cookie_name(request),
            self.token,
            path="/",
            httponly=True,
            samesite="Strict",
            secure=request.secure,
        )
        return answer

    @web.middleware
    async def guard(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Who may have anything: the right host and origin, then the token (module docstring)."""
        refusal = self.refusal(request, websocket=request.path == WEBSOCKET_PATH)
        if refusal is None and request.path == "/" and TOKEN_PARAMETER in request.query:
            if self._is_token(request.query[TOKEN_PARAMETER]):
                return self._with_cookie(request)
            refusal = "a wrong token in the address"
        if refusal is None and not self._is_token(request.cookies.get(self._cookie_name(request))):
            refusal = _NO_TOKEN
        if refusal is not None:
            # The path only (repr: it is the client's text); never the query, which may hold a token.
            log.warning("refused %s %r: %s", request.remote, request.path, refusal)
            return web.Response(status=403, text=f"{refusal}\n", headers=_PAGE_HEADERS)
        return await handler(request)

    # -- handlers ------------------------------------------------------------------

    async def index(self, request: web.Request) -> web.Response:
        page = index_html(
            base_url=self.options.base_url,
            static_path="/static/",
            websocket_path=WEBSOCKET_PATH,
            size=font_size(request.query.get("fontsize")),
        )
        return web.Response(text=page, content_type="text/html", headers=_PAGE_HEADERS)

    async def websocket(self, request: web.Request) -> web.StreamResponse:
        if len(self.sessions) >= self.options.max_sessions:
            log.warning("refused %s: %d sessions already open", request.remote, len(self.sessions))
            return web.Response(
                status=503,
                text=f"{len(self.sessions)} sessions are open, the most this server runs; "
                "close a tab and reload\n",
            )
        ws = web.WebSocketResponse(heartbeat=15)

        async def close() -> None:
            await ws.close()

        session = DashboardSession(
            self.argv,
            write_bytes=ws.send_bytes,
            write_str=ws.send_str,
            close=close,
            quit_grace=self.quit_grace,
        )
        if self.data_root is not None:
            session.data_dir = self.data_root / session.session_id
        # Counted before the first await, so the limit cannot be overshot.
        self.sessions.add(session)
        self._sockets.add(ws)
        try:
            await ws.prepare(request)
            width = _cells(request.query.get("width", "80"), 80)
            height = _cells(request.query.get("height", "24"), 24)
            await session.start(width, height)
            log.info(
                "session %s started for %s (process %s; %d open)",
                session.session_id,
                request.remote,
                session.pid,
                len(self.sessions),
            )
            await self._relay(ws, session)
        except Exception:
            log.exception("session %s failed", session.session_id)
        finally:
            await session.stop()
            self.sessions.discard(session)
            self._sockets.discard(ws)
            log.info("session %s ended (%d open)", session.session_id, len(self.sessions))
        return ws

    async def _relay(self, ws: web.WebSocketResponse, session: DashboardSession) -> None:
        """The browser's keys, size and focus to the dashboard, until the tab goes."""
        async for message in ws:
            if message.type != WSMsgType.TEXT:
                continue
            try:
                envelope = json.loads(message.data)
                kind, data = envelope[0], envelope[1] if len(envelope) > 1 else None
            except (ValueError, TypeError, KeyError, IndexError):
                continue  # not textual.js speaking: ignored, not fatal
            if kind == "stdin" and isinstance(data, str):
                await session.send_bytes(data.encode("utf-8"))
            elif kind == "resize" and isinstance(data, dict):
                await session.set_terminal_size(
                    _cells(data.get("width"), 80), _cells(data.get("height"), 24)
                )
            elif kind == "ping":
                await ws.send_json(["pong", data])
            elif kind == "blur":
                await session.blur()
            elif kind == "focus":
                await session.focus()

    async def shutdown(self, app: web.Application) -> None:
        """End every dashboard, then every websocket (before aiohttp waits for handlers)."""
        await asyncio.gather(*(session.stop() for session in list(self.sessions)))
        await asyncio.gather(*(ws.close(code=WSCloseCode.GOING_AWAY) for ws in list(self._sockets)))


def bind(host: str, port: int) -> socket.socket:
    """A listening socket (OSError when the port is taken or the host unknown).

    Bound here rather than by aiohttp so a busy port is one line and exit 2
    before anything is printed as started.
    """
    family, kind, proto, _, address = socket.getaddrinfo(
        host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
    )[0]
    listener = socket.socket(family, kind, proto)
    try:
        if hasattr(socket, "SO_REUSEADDR") and not hasattr(socket, "SO_EXCLUSIVEADDRUSE"):
            listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(address)
        listener.listen(128)
    except OSError:
        listener.close()
        raise
    return listener


def run(
    options: ServeOptions, listener: socket.socket, *, on_ready: Callable[[], None] | None = None
) -> None:
    """Serve until SIGINT or SIGTERM, then end every session."""

    async def ready(app: web.Application) -> None:
        if on_ready is not None:
            on_ready()

    with tempfile.TemporaryDirectory(prefix="accountdesk-web-") as scratch:
        # Each sandbox session keeps its lookups and jobs under here; a live
        # service's sessions share the user's data folder, as two terminals do.
        data_root = Path(scratch) if options.sandbox else None
        server = DashboardServer(options, data_root=data_root)
        app = server.application()
        app.on_startup.append(ready)
        web.run_app(
            app,
            sock=listener,
            print=None,
            access_log=None,
            handle_signals=True,
            shutdown_timeout=DEFAULT_QUIT_GRACE + 2,
        )
