"""The config file and the environment as plain values: what settings are read from, without pydantic.

:mod:`accountdesk.core.settings.model` validates these into :class:`Settings`;
:mod:`accountdesk.core.settings.start` reads the few the sign-in screen draws
from them before pydantic is imported (issue 16: the first frame waits for
nothing it does not draw). Both read the file, the profile and the
environment here, so the two can never disagree on where a value comes from.
"""

from __future__ import annotations

import contextlib
from collections.abc import Collection, Mapping
from pathlib import Path
from typing import Any

__all__ = [
    "ENV_PREFIX",
    "SANDBOX_API_KEY",
    "SANDBOX_API_SECRET",
    "SANDBOX_SERVICE_KEY",
    "ConfigError",
    "chosen_profile",
    "environment_values",
    "file_values",
    "means_sandbox",
    "merged",
    "read_config_file",
]

ENV_PREFIX = "ACCOUNTDESK_"
#: The embedded sandbox's public demo credential (docs/developer/sandbox.md, "Credentials"). Not
#: imported from the sandbox package: no sandbox module may load before the
#: first frame; a test checks the two agree.
SANDBOX_API_KEY = "sandbox_key"
SANDBOX_API_SECRET = "sandbox_secret"
#: How files keyed by service (jobs, recent lookups) name the embedded sandbox.
SANDBOX_SERVICE_KEY = "sandbox"
#: Words that, given as a base URL, mean "the embedded sandbox".
_SANDBOX_WORDS = frozenset({"sandbox", "embedded"})


#: Settings given as a table: from the environment they are JSON.
_TABLES = frozenset({"keymap", "profiles"})


class ConfigError(ValueError):
    """The config file or a setting cannot be used; the text says where and why."""


def means_sandbox(url: str | None) -> bool:
    return url is not None and url.strip().lower() in _SANDBOX_WORDS


def environment_values(env: Mapping[str, str], fields: Collection[str]) -> dict[str, Any]:
    """What ``ACCOUNTDESK_<FIELD>`` variables give for ``fields``, by field name (names in any case).

    As pydantic-settings read them before the sources were merged here: a
    table (keymap, profiles) is JSON.
    """
    values: dict[str, Any] = {}
    prefix = ENV_PREFIX.lower()
    for name, value in env.items():
        lowered = name.lower()
        if not lowered.startswith(prefix) or (field := lowered[len(prefix) :]) not in fields:
            continue
        if field in _TABLES:
            # Not JSON: left as text, and validation names the variable ("must be a table").
            import json

            with contextlib.suppress(ValueError):
                value = json.loads(value)
        values[field] = value
    return values


def merged(under: Mapping[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    """``under`` with ``over``'s values on top; two tables are merged key by key, at any depth."""
    result = dict(under)
    for key, value in over.items():
        below = result.get(key)
        if isinstance(value, Mapping) and isinstance(below, Mapping):
            result[key] = merged(below, value)
        else:
            result[key] = value
    return result


def read_config_file(path: Path) -> dict[str, Any]:
    """The TOML document at ``path`` ({} when missing); :class:`ConfigError` when unusable."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return {}
    except IsADirectoryError:
        raise ConfigError(f"{path}: is a folder, not a config file") from None
    except OSError as error:
        raise ConfigError(f"{path}: cannot be read ({error.strerror or error})") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ConfigError(f"{path}: is not UTF-8 text (byte {error.start})") from None
    # Imported only for a file there is (~5 ms of a start without one).
    import tomllib

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path}: is not valid TOML: {error}") from None


def file_values(document: Mapping[str, Any], profile: str | None, path: Path) -> dict[str, Any]:
    values = dict(document)
    profiles = document.get("profiles", {})
    if not profile:
        return values
    if not isinstance(profiles, Mapping):
        raise ConfigError(f"{path}: [profiles] must be a table of [profiles.NAME] tables")
    chosen = profiles.get(profile)
    if chosen is None:
        known = ", ".join(sorted(profiles)) or "none defined"
        raise ConfigError(f"unknown profile {profile!r} (profiles in {path}: {known})")
    if not isinstance(chosen, Mapping):
        raise ConfigError(f"{path}: [profiles.{profile}] must be a table")
    values.update({key: value for key, value in chosen.items() if value is not None})
    return values


def chosen_profile(
    flags: Mapping[str, Any], env: Mapping[str, str], document: Mapping[str, Any], path: Path
) -> str | None:
    """The profile to use: flag > ``ACCOUNTDESK_PROFILE`` > the file's ``profile``."""
    profile = flags.get("profile") or env.get(f"{ENV_PREFIX}PROFILE") or document.get("profile")
    if profile is not None and not isinstance(profile, str):
        raise ConfigError(f"{path}: profile: must be a string")
    return profile
