"""Where a remembered API secret lives: the system keyring, or (only if asked) the config file.

"Remember" keeps the key in the config file and the secret in the system
keyring (``keyring``: Secret Service, macOS Keychain, Windows Credential
Locker). Only when no keyring backend exists here, and the user ticks a
second box saying so, does the secret go into the config file (mode 0600).
The keyring entry is named per service and key (``accountdesk`` /
``<service>|<api key>``), so a staging secret never fills in a live one.

``keyring`` is imported on first use: it costs a fifth of a second, and a
sandbox start never needs it.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pydantic import SecretStr

__all__ = ["KEYRING_SERVICE", "Remembered", "SecretKeeper", "SecretPlace"]

log = logging.getLogger(__name__)

KEYRING_SERVICE = "accountdesk"


class SecretPlace(StrEnum):
    KEYRING = "keyring"
    CONFIG_FILE = "config file"
    NOWHERE = "nowhere"


@dataclass(frozen=True, slots=True)
class Remembered:
    """What "Remember" did with the secret, in words the user is shown."""

    place: SecretPlace
    detail: str = ""


def _entry(service_key: str, api_key: str) -> str:
    return f"{service_key}|{api_key}"


class SecretKeeper:
    """Reads and writes secrets in a keyring backend (the system's, unless one is given)."""

    def __init__(self, backend: Any | None = None) -> None:
        self._backend = backend

    def _keyring(self) -> Any | None:
        """The usable backend, or None when this machine has none."""
        if self._backend is not None:
            return self._backend if getattr(self._backend, "priority", 1) > 0 else None
        try:
            import keyring
            from keyring.backends import fail, null
        except ImportError:
            return None
        backend = keyring.get_keyring()
        # The "fail" and "null" backends mean "no keyring here"; so does a
        # chainer with nothing to chain.
        if isinstance(backend, fail.Keyring | null.Keyring):
            return None
        if getattr(backend, "priority", 1) <= 0:
            return None
        return backend

    @property
    def available(self) -> bool:
        return self._keyring() is not None

    @property
    def name(self) -> str:
        backend = self._keyring()
        return getattr(backend, "name", type(backend).__name__) if backend is not None else "none"

    def save(self, service_key: str, api_key: str, secret: SecretStr) -> Remembered:
        backend = self._keyring()
        if backend is None:
            return Remembered(SecretPlace.NOWHERE, "no system keyring on this machine")
        try:
            backend.set_password(
                KEYRING_SERVICE, _entry(service_key, api_key), secret.get_secret_value()
            )
        except Exception as error:  # noqa: BLE001 (any backend failure is "not saved", said once)
            log.warning("keyring %s refused the secret: %s", self.name, type(error).__name__)
            return Remembered(
                SecretPlace.NOWHERE, f"the keyring refused it ({type(error).__name__})"
            )
        return Remembered(SecretPlace.KEYRING, self.name)

    def load(self, service_key: str, api_key: str) -> SecretStr | None:
        """The remembered secret for this service and key, or None."""
        backend = self._keyring()
        if backend is None or not api_key:
            return None
        try:
            value = backend.get_password(KEYRING_SERVICE, _entry(service_key, api_key))
        except Exception as error:  # noqa: BLE001 (a locked or broken keyring: just not prefilled)
            log.warning("keyring %s could not be read: %s", self.name, type(error).__name__)
            return None
        from pydantic import SecretStr  # here: the desk is built before pydantic loads

        return SecretStr(value) if value else None

    def keep(
        self,
        service_key: str,
        api_key: str,
        secret: SecretStr | None,
        *,
        file_allowed: bool,
        config_path: Path,
    ) -> tuple[Remembered, str | None]:
        """Keep ``secret`` where the rules say; and the secret the config file gets, if any.

        The keyring when there is one; else the config file only when the
        user allowed it (``file_allowed``); else nowhere, said so.
        """
        if secret is None or not secret.get_secret_value():
            return Remembered(SecretPlace.NOWHERE, "no secret given"), None
        if self.available:
            return self.save(service_key, api_key, secret), None
        if file_allowed:
            return Remembered(SecretPlace.CONFIG_FILE, str(config_path)), secret.get_secret_value()
        return Remembered(SecretPlace.NOWHERE, "no system keyring on this machine"), None
