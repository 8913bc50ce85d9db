"""What ``accountdesk serve`` was asked for, and what each browser session runs.

Plain data and rules, no web framework: the command line builds a
:class:`ServeOptions`, :func:`exposure` says whether the host is safe for
the service chosen, and :meth:`ServeOptions.session_argv` is the command every
browser session starts (always this interpreter, never an ``accountdesk``
found on ``PATH``).
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

from accountdesk.core.plain_http import is_loopback_host, plain_http_warning

__all__ = [
    "DEFAULT_MAX_SESSIONS",
    "TOKEN_VARIABLE",
    "Exposure",
    "ServeOptions",
    "exposure",
    "is_loopback",
    "token_problem",
]

#: Each browser tab is a whole app process (Textual, and on the sandbox
#: Starlette): 65 MB resident at the sign-in screen, more once used. A page
#: left open in many tabs, or a stranger on a shared network, must not be
#: able to start them without bound.
DEFAULT_MAX_SESSIONS = 8
#: Where ``serve`` reads a token of the operator's choosing. Preferred to
#: ``--token``: a command line is visible to every user of the machine (``ps``),
#: a process's environment only to its owner.
TOKEN_VARIABLE = "ACCOUNTDESK_SERVE_TOKEN"
#: A token given by hand: long enough not to be guessed, and written in a URL
#: as it is (the characters a URL never encodes).
_TOKEN = re.compile(r"[A-Za-z0-9._~-]{16,256}")


def token_problem(token: str) -> str | None:
    """Why ``token`` cannot be the page's token, or None."""
    if _TOKEN.fullmatch(token):
        return None
    return "a token is 16 to 256 of A-Z a-z 0-9 . _ ~ - (what a URL carries as is)"


def is_loopback(host: str) -> bool:
    """True when ``host`` can only be reached from this machine.

    The core's one rule (:func:`accountdesk.core.plain_http.is_loopback_host`):
    a literal loopback address or ``localhost``. Anything we cannot be sure of
    (an empty host or ``0.0.0.0`` meaning every interface, a host name that
    would need a resolver) counts as not loopback.
    """
    return is_loopback_host(host)


@dataclass(frozen=True, slots=True)
class ServeOptions:
    """``accountdesk serve`` as the command line gave it."""

    host: str = "127.0.0.1"
    port: int = 8000
    #: The live service each session uses; None: each its own embedded sandbox.
    base_url: str | None = None
    profile: str | None = None
    config: Path | None = None
    log_level: str = "info"
    #: Serve a live base URL on a non-loopback host (the operator said so).
    allow_remote_live: bool = False
    max_sessions: int = DEFAULT_MAX_SESSIONS
    #: The token the page and its websocket need; None: a new random one per run.
    token: str | None = field(default=None, repr=False)
    #: Every session presents, and the page cannot turn it off.
    present: bool = False

    @property
    def sandbox(self) -> bool:
        return self.base_url is None

    @property
    def loopback(self) -> bool:
        return is_loopback(self.host)

    def session_argv(self) -> list[str]:
        """The dashboard's own command line, run once per browser session.

        The sandbox is the default here even when the environment or the
        config file names a service: a demo page must never reach a real
        service by accident, so live needs ``--base-url`` on this command.
        """
        argv = [sys.executable, "-m", "accountdesk", "--log-level", self.log_level]
        argv += ["--sandbox"] if self.base_url is None else ["--base-url", self.base_url]
        if self.profile is not None:
            argv += ["--profile", self.profile]
        if self.config is not None:
            argv += ["--config", str(self.config)]
        if self.present:
            argv += ["--present", "--present-locked"]
        return argv

    def describe_service(self) -> str:
        return (
            "the embedded sandbox" if self.base_url is None else f"the live service {self.base_url}"
        )


@dataclass(frozen=True, slots=True)
class Exposure:
    """What serving on this host means: warnings to print, or why we refuse."""

    warnings: tuple[str, ...] = ()
    refusal: str | None = None


def exposure(options: ServeOptions) -> Exposure:
    """Whether ``options.host`` is safe for the service chosen.

    The page gives whoever reaches it the dashboard. On the embedded sandbox
    that is demo data, so a non-loopback host is only a warning; on a live
    service the sign-in form fills in the remembered key and secret, so it is
    refused unless ``allow_remote_live`` says the operator means it, and even
    then when the service is plain HTTP to another machine (the secrets
    would cross the network in clear). On loopback, such a service is a
    warning.
    """
    in_clear = None if options.sandbox else plain_http_warning(options.base_url)
    if options.loopback:
        return Exposure(warnings=(f"warning: {in_clear}",) if in_clear else ())
    where = f"{options.host or 'every interface'} port {options.port}"
    if options.sandbox:
        warning = (
            f"warning: {where} is reachable from other machines: anyone who can reach it "
            "gets the dashboard (on the embedded sandbox: demo data only)"
        )
        return Exposure(warnings=(warning,))
    if not options.allow_remote_live:
        return Exposure(
            refusal=f"refusing to serve {options.describe_service()} on {where}: anyone who "
            "reaches the page could use the credentials remembered on this machine; serve on "
            "127.0.0.1 (share your screen, not the port), or add --allow-remote-live if you mean it"
        )
    if in_clear is not None:
        return Exposure(
            refusal=f"refusing to serve {options.describe_service()} on {where}: it is plain "
            "HTTP to another machine, so every secret typed into the page would cross the "
            "network not encrypted; use an https:// base URL, or serve on 127.0.0.1"
        )
    warning = (
        f"warning: {where} is reachable from other machines and serves "
        f"{options.describe_service()}: anyone who reaches the page can sign in with the "
        "credentials remembered on this machine and act on real accounts"
    )
    return Exposure(warnings=(warning,))
