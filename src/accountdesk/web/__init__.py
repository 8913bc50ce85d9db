"""Web mode: ``accountdesk serve`` shows the dashboard in a browser, for demos over screen share.

Every browser tab is its own dashboard process (``python -m accountdesk``,
this interpreter), started by textual-serve's process protocol and drawn by
its xterm.js page: on the embedded sandbox, each tab has its own sandbox and
its own data folder. The page and its websocket need the token of the run,
printed in the address (``--token`` or ``ACCOUNTDESK_SERVE_TOKEN`` to choose
one). The server listens on 127.0.0.1 unless told otherwise;
another host is a warning on the sandbox and refused for a live service
unless ``--allow-remote-live`` is given (see :mod:`accountdesk.web.options`).

Needs the ``serve`` extra (``pip install 'accountdesk[serve]'``).
"""

from __future__ import annotations

import argparse
import dataclasses
import logging
import os
import secrets
import socket
import sys

from accountdesk.web.options import TOKEN_VARIABLE, ServeOptions, exposure, token_problem
from accountdesk.web.server import bind, run

__all__ = ["ServeOptions", "serve_dashboard"]


def _token(args: argparse.Namespace) -> str:
    """``--token``, else ``$ACCOUNTDESK_SERVE_TOKEN``, else a new random one (ValueError if unusable)."""
    given = args.token if args.token is not None else os.environ.get(TOKEN_VARIABLE)
    if given is None:
        return secrets.token_urlsafe(32)
    problem = token_problem(given)
    if problem is not None:
        where = "--token" if args.token is not None else TOKEN_VARIABLE
        raise ValueError(f"{where}: {problem}")
    return given


def _options(args: argparse.Namespace, token: str) -> ServeOptions:
    return ServeOptions(
        host=args.host,
        port=args.port,
        base_url=None if args.sandbox else args.base_url,
        profile=args.profile,
        config=args.config,
        log_level=args.log_level,
        allow_remote_live=args.allow_remote_live,
        token=token,
        present=bool(getattr(args, "present", False)),
    )


def _page_url(host: str, port: int, token: str) -> str:
    if host in {"", "0.0.0.0", "::"}:
        host = socket.gethostname()  # "every interface": name one a viewer can type
    where = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    return f"http://{where}/?token={token}"


def _say(text: str) -> None:
    print(f"accountdesk: {text}", file=sys.stderr, flush=True)


def serve_dashboard(args: argparse.Namespace) -> int:
    """``accountdesk serve``: 0 after Ctrl+C, 2 (and one line) for anything unusable."""
    from accountdesk.core.settings.model import ConfigError, load_settings
    from accountdesk.core.settings.paths import AppDirs

    try:
        options = _options(args, _token(args))
    except ValueError as error:
        _say(f"serve: {error}")
        return 2
    # The settings each tab will load, checked once here: a bad config file or
    # URL is one line now, not a page that shows "Session ended" later.
    flags = {"base_url": options.base_url or "sandbox", "profile": options.profile}
    try:
        settings = load_settings(AppDirs.default(options.config).config_path, flags=flags)
    except ConfigError as error:
        _say(str(error))
        return 2
    options = dataclasses.replace(options, base_url=settings.base_url)
    exposed = exposure(options)
    if exposed.refusal is not None:
        _say(f"serve: {exposed.refusal}")
        return 2
    for warning in exposed.warnings:
        _say(f"serve: {warning}")
    try:
        listener = bind(options.host, options.port)
    except OSError as error:
        _say(f"serve on {options.host}:{options.port}: {error.strerror or error}")
        return 2
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("accountdesk serve: %(message)s"))
    for name in (__name__, "textual-serve"):
        logging.getLogger(name).addHandler(handler)
        logging.getLogger(name).setLevel(options.log_level.upper())
    assert options.token is not None
    url = _page_url(options.host, listener.getsockname()[1], options.token)

    def ready() -> None:
        # Printed, never logged: the operator opens this address (the token is in it).
        _say(
            f"serving the dashboard on {options.describe_service()} at {url} "
            "(each browser tab is its own session; Ctrl+C stops)"
        )

    run(options, listener, on_ready=ready)
    return 0
