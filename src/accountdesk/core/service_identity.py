"""What the service is, as far as the app knows: the badge's word, and plain HTTP.

- Before sign-in, a base URL could be a live service or a trainer's sandbox
  served over HTTP; the badge said LIVE until sign-in proved otherwise. Now
  the app asks once, right after the first frame, without credentials:
  ``GET /_sandbox/scenarios`` (a sandbox serves its catalogue to anyone; a
  live service answers 404). Until that answer the badge is neutral.
- A live ``http://`` URL to another machine sends the secret and every token
  unencrypted (:mod:`accountdesk.core.plain_http`): the badge says "not
  encrypted", and sign-in asks once per service before the first secret goes
  out. The answer is kept in the data folder (``plain_http.json``, the
  services someone on this machine agreed to), so a daily user is not asked
  every morning.
"""

from __future__ import annotations

import logging
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any

from accountdesk.core.plain_http import plain_http_to_remote
from accountdesk.core.store import Store

if TYPE_CHECKING:
    from accountdesk.core.connection import ServiceConnection

__all__ = ["PROBE_SECONDS", "ServiceIdentity", "ServiceKind"]

log = logging.getLogger(__name__)

#: The probe's whole deadline: it runs behind the sign-in screen, never in the way.
PROBE_SECONDS = 5.0
_CONFIRMED_FILE = "plain_http.json"


class ServiceKind(StrEnum):
    SANDBOX = "sandbox"
    LIVE = "live"
    UNKNOWN = "unknown"


def _none() -> list[str]:
    return []


def _urls(document: Any) -> list[str]:
    if not isinstance(document, list) or not all(isinstance(url, str) for url in document):
        raise ValueError("not a list of service URLs")
    return document


class ServiceIdentity:
    """The probe's answer and the plain-HTTP confirmations (see the module docstring)."""

    def __init__(self, store: Store, data_dir: Path) -> None:
        self._store = store
        self._path = data_dir / _CONFIRMED_FILE
        #: True: a sandbox answered; False: not a sandbox; None: not known (yet).
        self.probed: bool | None = None

    def forget(self) -> None:
        """Another base URL: nothing is known of it."""
        self.probed = None

    async def probe(self, connection: ServiceConnection) -> bool | None:
        """Ask the service, without credentials, whether it is a sandbox (None: no answer)."""
        if connection.embedded:
            self.probed = True
            return True
        from accountdesk.client import AccountDataClient, AccountDataError

        client = AccountDataClient(
            connection.url,
            "anonymous",
            "anonymous",
            await connection.transport(),
            attempt_timeout=PROBE_SECONDS,
            call_timeout=PROBE_SECONDS,
            max_attempts=1,
        )
        try:
            catalogue = await client.sandbox.scenarios(anonymous=True)
        except AccountDataError as error:  # no answer: the badge stays neutral
            log.info("could not tell what %s is before sign-in: %s", connection.url, error.title)
            return None
        finally:
            await client.aclose()
        self.probed = catalogue is not None
        return self.probed

    def kind(self, *, embedded: bool, is_sandbox: bool, signed_in: bool) -> ServiceKind:
        """The badge's word: what sign-in proved, else what the probe said."""
        if embedded or is_sandbox or self.probed:
            return ServiceKind.SANDBOX
        if signed_in or self.probed is False:
            return ServiceKind.LIVE
        return ServiceKind.UNKNOWN

    # -- plain HTTP ------------------------------------------------------------

    @staticmethod
    def not_encrypted(url: str, *, embedded: bool) -> bool:
        return not embedded and plain_http_to_remote(url)

    def plain_http_confirmed(self, url: str) -> bool:
        return url in self._store.read_json(self._path, _urls, _none)

    def confirm_plain_http(self, url: str) -> None:
        """Someone agreed to send the secret to ``url`` unencrypted: not asked again."""

        def add(urls: list[str]) -> list[str]:
            return urls if url in urls else [*urls, url]

        self._store.update_json(self._path, add, _urls, _none)
        log.warning("plain HTTP to %s accepted at sign-in (not asked again here)", url)
