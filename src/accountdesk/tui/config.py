"""Settings of the dashboard: a TOML file, environment variables and flags.

Precedence, highest first: command-line flag > environment variable >
the chosen profile in the config file > the config file's top level > the
default (the embedded sandbox with its credentials).

The file lives at ``platformdirs.user_config_dir("accountdesk")/config.toml``::

    base_url = "https://api.bank.example"
    api_key = "key_123"
    theme = "nord"
    profile = "staging"          # default profile (optional)

    [keymap]                      # binding id -> key(s)
    reveal_numbers = "ctrl+r"

    [profiles.staging]
    base_url = "https://staging.bank.example"
    api_key = "key_staging"

The API secret is written only when the user asks for it, and any file we
write holding credentials is created with mode 0600.
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ENV_BASE_URL = "ACCOUNTDESK_BASE_URL"
ENV_API_KEY = "ACCOUNTDESK_API_KEY"
ENV_API_SECRET = "ACCOUNTDESK_API_SECRET"
ENV_PROFILE = "ACCOUNTDESK_PROFILE"

#: The embedded sandbox's full-access credential (README, "Credentials").
#: Written here rather than imported from ``accountdesk.sandbox.scenarios``
#: because no sandbox module may be imported on the path to the first frame
#: (issue 3); a test checks the two agree.
SANDBOX_API_KEY = "sandbox_key"
SANDBOX_API_SECRET = "sandbox_secret"
#: Base URL the in-process sandbox is addressed with (no socket behind it).
SANDBOX_BASE_URL = "http://sandbox"

#: Words that, given as a base URL, mean "the embedded sandbox".
_SANDBOX_WORDS = frozenset({"sandbox", "embedded"})

_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")


class ConfigError(ValueError):
    """The config file or a setting cannot be used; the message says why."""


def default_config_path() -> Path:
    import platformdirs

    return Path(platformdirs.user_config_dir("accountdesk")) / "config.toml"


def default_data_dir() -> Path:
    import platformdirs

    return Path(platformdirs.user_data_dir("accountdesk"))


def default_log_dir() -> Path:
    import platformdirs

    return Path(platformdirs.user_log_dir("accountdesk"))


def normalise_base_url(url: str) -> str:
    """``HTTPS://Host:443/api/`` -> ``https://host:443/api``: one spelling per service.

    The URL is parsed the way the client parses it (``httpx.URL``) and held
    to the client's rules (http or https, a host, no user name or password,
    no query or fragment), plus a port in range, so a URL accepted here is
    never refused later by :class:`~accountdesk.client.AccountDataClient`.
    """
    import httpx

    try:
        parsed = httpx.URL(url.strip())
    except (httpx.InvalidURL, TypeError) as error:
        raise ConfigError(f"{url!r} is not a URL: {error}") from None
    if parsed.scheme not in ("http", "https") or not parsed.host:
        raise ConfigError(f"base URL must look like https://host[:port][/path], got {url!r}")
    if parsed.userinfo:
        # Credentials in the URL would end up in the config file, badge and logs.
        raise ConfigError("the base URL must not contain a user name or password")
    if parsed.query or parsed.fragment:
        raise ConfigError(f"the base URL must not contain a query or a fragment, got {url!r}")
    if parsed.port is not None and not 0 < parsed.port < 65536:
        raise ConfigError(f"port {parsed.port} is out of range (1-65535) in {url!r}")
    netloc = parsed.netloc.decode("ascii").lower()
    path = parsed.raw_path.decode("ascii").rstrip("/")
    return f"{parsed.scheme}://{netloc}{path}"


def means_sandbox(url: str | None) -> bool:
    return url is not None and url.strip().lower() in _SANDBOX_WORDS


@dataclass(frozen=True)
class Settings:
    """What the app runs with, once every source has been merged."""

    base_url: str | None = None  # None: the embedded sandbox
    api_key: str = ""
    api_secret: str = ""
    theme: str | None = None
    keymap: Mapping[str, str] = field(default_factory=dict)
    profile: str | None = None
    config_path: Path | None = None
    #: Where each value came from ("flag", "env", "profile", "config", "default").
    sources: Mapping[str, str] = field(default_factory=dict)

    @property
    def sandbox(self) -> bool:
        return self.base_url is None

    def __repr__(self) -> str:  # never show the secret
        secret = "'***'" if self.api_secret else "''"
        return (
            f"Settings(base_url={self.base_url!r}, api_key={self.api_key!r}, "
            f"api_secret={secret}, profile={self.profile!r}, theme={self.theme!r})"
        )


def load_config(path: Path) -> dict[str, Any]:
    """Read the TOML file; a missing file is an empty config."""
    try:
        with path.open("rb") as handle:
            data = tomllib.load(handle)
    except FileNotFoundError:
        return {}
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path}: {error}") from error
    return data


def resolve_settings(
    *,
    config_path: Path | None = None,
    base_url: str | None = None,
    profile: str | None = None,
    sandbox: bool = False,
    env: Mapping[str, str] | None = None,
) -> Settings:
    """Merge flags (the arguments), ``env`` (default ``os.environ``) and the config file."""
    env = os.environ if env is None else env
    path = config_path or default_config_path()
    config = load_config(path)
    profile_name = profile or env.get(ENV_PROFILE) or _str(config.get("profile"))
    profiles = config.get("profiles") or {}
    if not isinstance(profiles, dict):
        raise ConfigError(f"{path}: [profiles] must be a table")
    chosen: Mapping[str, Any] = {}
    if profile_name:
        if profile_name not in profiles:
            known = ", ".join(sorted(profiles)) or "none defined"
            raise ConfigError(f"unknown profile {profile_name!r} (profiles: {known})")
        chosen = profiles[profile_name]

    sources: dict[str, str] = {}

    def pick(name: str, flag: str | None, env_name: str | None) -> str | None:
        candidates = (
            ("flag", flag),
            ("env", env.get(env_name) if env_name else None),
            ("profile", _str(chosen.get(name))),
            ("config", _str(config.get(name))),
        )
        for source, value in candidates:
            if value:
                sources[name] = source
                return value
        sources[name] = "default"
        return None

    url = pick("base_url", "sandbox" if sandbox else base_url, ENV_BASE_URL)
    resolved_url = None if url is None or means_sandbox(url) else normalise_base_url(url)
    api_key = pick("api_key", None, ENV_API_KEY)
    api_secret = pick("api_secret", None, ENV_API_SECRET)
    if resolved_url is None and sources["api_key"] != "env":
        # On the sandbox a stored key belongs to some live service; the
        # sandbox's own credentials are public and filling them in is the demo.
        api_key, api_secret = SANDBOX_API_KEY, SANDBOX_API_SECRET
        sources["api_key"] = sources["api_secret"] = "default"
    keymap = config.get("keymap") or {}
    if not isinstance(keymap, dict):
        raise ConfigError(f"{path}: [keymap] must be a table of binding id = key")
    return Settings(
        base_url=resolved_url,
        api_key=api_key or "",
        api_secret=api_secret or "",
        theme=_str(chosen.get("theme")) or _str(config.get("theme")),
        keymap={str(k): str(v) for k, v in keymap.items()},
        profile=profile_name,
        config_path=path,
        sources=sources,
    )


def remember_credentials(
    path: Path,
    *,
    api_key: str,
    api_secret: str | None,
    base_url: str | None,
    profile: str | None = None,
) -> None:
    """Store the credentials the user signed in with (the secret only if given).

    They go into the named profile when one is active, else the top level.
    """
    config = load_config(path)
    target: dict[str, Any] = config
    if profile:
        target = config.setdefault("profiles", {}).setdefault(profile, {})
    target["api_key"] = api_key
    if base_url:
        target["base_url"] = base_url
    if api_secret:
        target["api_secret"] = api_secret
    else:
        target.pop("api_secret", None)
    write_config(path, config)


def remember_theme(path: Path, theme: str) -> None:
    """Keep the theme picked in the command palette for the next run."""
    config = load_config(path)
    if config.get("theme") == theme:
        return
    config["theme"] = theme
    write_config(path, config)


def write_config(path: Path, config: Mapping[str, Any]) -> None:
    """Write ``config`` as TOML, readable by its owner only (mode 0600)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    text = dumps_toml(config)
    # Create with 0600 from the start (no window where the file is world-readable),
    # and tighten an existing file that was looser.
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.fchmod(descriptor, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            descriptor = -1
            handle.write(text)
    finally:
        if descriptor != -1:
            os.close(descriptor)


def dumps_toml(config: Mapping[str, Any]) -> str:
    """A small TOML writer for what our config holds: strings, numbers, booleans, tables."""
    lines: list[str] = []
    _write_table(lines, config, prefix=())
    return "\n".join(lines).lstrip("\n") + "\n"


def _write_table(lines: list[str], table: Mapping[str, Any], prefix: tuple[str, ...]) -> None:
    scalars = {k: v for k, v in table.items() if not isinstance(v, Mapping)}
    tables = {k: v for k, v in table.items() if isinstance(v, Mapping)}
    if prefix and (scalars or not tables):
        lines.append("")
        lines.append("[" + ".".join(_key(part) for part in prefix) + "]")
    for key, value in scalars.items():
        lines.append(f"{_key(key)} = {_value(value)}")
    for key, value in tables.items():
        _write_table(lines, value, (*prefix, key))


def _key(key: str) -> str:
    return key if _BARE_KEY.match(key) else _string(key)


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_value(item) for item in value) + "]"
    raise TypeError(f"cannot write {type(value).__name__} to TOML")


def _string(text: str) -> str:
    escaped = []
    for char in text:
        if char == "\\":
            escaped.append("\\\\")
        elif char == '"':
            escaped.append('\\"')
        elif char == "\n":
            escaped.append("\\n")
        elif char == "\t":
            escaped.append("\\t")
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            escaped.append(f"\\u{ord(char):04x}")
        else:
            escaped.append(char)
    return '"' + "".join(escaped) + '"'


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None
