"""The desk's part that remembers things for the next run: the theme, the key, the secret.

The key (and a live service's URL) go into the config file (``config_file``),
the secret into the system keyring (``secrets``), named per service and key.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pydantic import SecretStr

    from accountdesk.core.connection import ServiceConnection
    from accountdesk.core.settings.model import Settings
    from accountdesk.core.settings.paths import AppDirs
    from accountdesk.core.settings.secrets import Remembered, SecretKeeper
    from accountdesk.core.store import Store

__all__ = ["Remembering"]


class Remembering:
    """Remembering for :class:`~accountdesk.core.desk.Desk` (a base of it)."""

    @property
    def settings(self) -> Settings:  # the desk's (validated on first use)
        raise NotImplementedError

    dirs: AppDirs
    store: Store

    @property
    def secrets(self) -> SecretKeeper:  # the desk's (built on first use)
        raise NotImplementedError

    connection: ServiceConnection

    @property
    def service_key(self) -> str:  # the desk's
        raise NotImplementedError

    @property
    def embedded(self) -> bool:  # the desk's
        raise NotImplementedError

    def remember_theme(self, theme: str) -> bool:
        """Keep the theme picked in the command palette for the next run (config file)."""
        from accountdesk.core.settings.file import remember_theme

        return remember_theme(self.store, self.dirs.config_path, theme)

    def remember_credentials(
        self, api_key: str, api_secret: SecretStr | None, *, secret_in_file: bool = False
    ) -> Remembered | None:
        """Keep the key (and a live service's URL) in the config file, the secret in the keyring.

        The secret goes into the config file only when no keyring exists and
        ``secret_in_file`` says the user chose it. None when the config file
        could not be written (the store told the user why).
        """
        from accountdesk.core.settings.file import remember_credentials

        remembered, in_file = self.secrets.keep(
            self.service_key,
            api_key,
            api_secret,
            file_allowed=secret_in_file,
            config_path=self.dirs.config_path,
        )
        written = remember_credentials(
            self.store,
            self.dirs.config_path,
            api_key=api_key,
            base_url=None if self.embedded else self.connection.base_url,
            profile=self.settings.profile,
            api_secret=in_file,
        )
        return remembered if written else None

    def remembered_secret(self, api_key: str) -> SecretStr | None:
        """A secret the keyring holds for this service and key (blocking: call from a thread)."""
        return self.secrets.load(self.service_key, api_key)
