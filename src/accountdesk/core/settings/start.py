"""What the sign-in screen's first frame needs from the settings, read without pydantic.

Issue 16: the first frame waits for nothing it does not draw, and pydantic
(its import and the settings model) was most of what it waited for. On the
embedded sandbox, :func:`read_start_settings` reads the few values the frame
draws (theme, keymap, the key and secret filled in) from the same sources
and by the same precedence as :func:`~accountdesk.core.settings.model.load_settings`;
the desk validates everything with pydantic right after the first frame, and
before anything is sent (:meth:`StartSettings.validate`).

A start the quick read cannot vouch for (a live service, whose URL is the
client's rule to check; a value of the wrong type) gets ``None``: the command
then validates before the app starts, as it always did, so the error is one
line and exit 2 either way. A config file that cannot be read at all is a
:class:`~accountdesk.core.settings.values.ConfigError` here already.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from accountdesk.core.settings.values import (
    ENV_PREFIX,
    SANDBOX_API_KEY,
    SANDBOX_API_SECRET,
    chosen_profile,
    environment_values,
    file_values,
    means_sandbox,
    merged,
    read_config_file,
)

if TYPE_CHECKING:
    from accountdesk.core.settings.model import Settings

__all__ = ["StartSettings", "read_start_settings"]

#: What the first frame reads, and what decides whether it may be read quickly.
_READ = ("base_url", "api_key", "api_secret", "theme", "keymap", "max_response_mb", "present")
#: The model's default (Settings.max_response_mb); the validated value replaces it.
_DEFAULT_MAX_RESPONSE_MB = 64


@dataclass(frozen=True, slots=True)
class StartSettings:
    """The values the first frame draws, before validation (the embedded sandbox only).

    ``flags`` are the command line's, kept to validate with; the secret is
    never in the repr.
    """

    config_path: Path
    api_key: str
    api_secret_text: str = field(repr=False)
    theme: str | None = None
    keymap: Mapping[str, str] = field(default_factory=dict)
    max_response_mb: int = _DEFAULT_MAX_RESPONSE_MB
    #: Presenter mode from the start (``--present``, ``ACCOUNTDESK_PRESENT``, the file).
    present: bool = False
    flags: Mapping[str, Any] = field(default_factory=dict, repr=False)
    #: The config file as read for the first frame: validated as drawn, not read again.
    document: Mapping[str, Any] = field(default_factory=dict, repr=False)

    @property
    def max_response_bytes(self) -> int:
        return self.max_response_mb * 1024 * 1024

    def validate(self) -> Settings:
        """The sources validated with pydantic (:class:`ConfigError` if unusable).

        The file is the one the first frame drew (a file saved meanwhile must
        not turn a session behind a SANDBOX badge into a live one).
        """
        from accountdesk.core.settings.model import load_settings

        return load_settings(self.config_path, flags=self.flags, document=self.document)


def read_start_settings(config_path: Path, flags: Mapping[str, Any]) -> StartSettings | None:
    """The first frame's values on the embedded sandbox; None when they need the full check first.

    Raises :class:`~accountdesk.core.settings.values.ConfigError` for a config
    file or profile that cannot be used (as validation would).
    """
    given = {key: value for key, value in flags.items() if value is not None}
    env = os.environ
    document = read_config_file(config_path)
    profile = chosen_profile(given, env, document, config_path)
    values = merged(file_values(document, profile, config_path), environment_values(env, _READ))
    values.update(given)
    url = values.get("base_url")
    if url is not None and not (isinstance(url, str) and (means_sandbox(url) or not url.strip())):
        return None  # a live service (or a URL that is not text): checked before the app
    theme, keymap, limit = (
        values.get("theme"),
        values.get("keymap", {}),
        values.get("max_response_mb"),
    )
    if theme is not None and not isinstance(theme, str):
        return None
    if not isinstance(keymap, Mapping) or not all(
        isinstance(key, str) and isinstance(keys, str) for key, keys in keymap.items()
    ):
        return None
    if isinstance(limit, str) and limit.strip().isdigit():
        limit = int(limit)  # from the environment, as pydantic reads it
    if limit is None:
        limit = _DEFAULT_MAX_RESPONSE_MB
    elif isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= 4096:
        return None
    present = _flag(values.get("present", False))
    if present is None:
        return None
    key_given = "api_key" in given or f"{ENV_PREFIX}API_KEY" in env
    if not key_given:  # a key in the file belongs to a live service (load_settings)
        api_key, secret = SANDBOX_API_KEY, SANDBOX_API_SECRET
    else:
        api_key, secret = values.get("api_key", ""), values.get("api_secret", "")
        if not isinstance(api_key, str) or not isinstance(secret, str):
            return None
    return StartSettings(
        config_path,
        api_key,
        secret,
        theme=theme,
        keymap=dict(keymap),
        max_response_mb=limit,
        present=present,
        flags=dict(flags),
        document=document,
    )


def _flag(value: Any) -> bool | None:
    """A yes or no as pydantic reads one (``1``, ``true``, ``yes``, ``on``); None: not one."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str):
        word = value.strip().lower()
        if word in {"1", "true", "yes", "on", "t", "y"}:
            return True
        if word in {"0", "false", "no", "off", "f", "n"}:
            return False
    return None
