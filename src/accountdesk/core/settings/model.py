"""Settings: validated once (pydantic), typed everywhere after.

Precedence, highest first: command-line flag > ``ACCOUNTDESK_*`` environment
variable > the chosen ``[profiles.NAME]`` table > the config file's top level >
the default (the embedded sandbox with its public demo credentials).

The file is TOML (``core.paths.default_config_path()``)::

    base_url = "https://api.bank.example"   # or "sandbox"
    api_key = "key_123"
    theme = "nord"
    profile = "staging"          # the default profile (optional)
    clipboard = "auto"            # or "osc52", or "file" (core.clipboard)

    [keymap]                      # binding id -> key(s)
    reveal_numbers = "ctrl+r"

    [profiles.staging]
    base_url = "https://staging.bank.example"
    api_key = "key_staging"

Anything wrong (not UTF-8, not TOML, a folder, a profile that is not a table,
an unknown setting, a bad URL) is a :class:`ConfigError` whose text names the
file or variable and the problem; the command prints it and exits 2.
Writing the file back (remember the key, the theme) is ``core.config_file``.

The sources are merged here, not by pydantic-settings: importing it cost
~95 ms before the sign-in screen's first frame (issue 16), and what it did for
us is a few lines: ``ACCOUNTDESK_<FIELD>`` (any case; a table as JSON) under
the keywords given, over the file's values.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SecretStr,
    ValidationError,
    field_validator,
    model_validator,
)

from accountdesk.core.clipboard import ClipboardMode
from accountdesk.core.settings.values import (
    ENV_PREFIX,
    SANDBOX_API_KEY,
    SANDBOX_API_SECRET,
    SANDBOX_SERVICE_KEY,
    ConfigError,
    chosen_profile,
    environment_values,
    file_values,
    means_sandbox,
    merged,
    read_config_file,
)

__all__ = [
    "ENV_PREFIX",
    "SANDBOX_API_KEY",
    "SANDBOX_API_SECRET",
    "SANDBOX_SERVICE_KEY",
    "ConfigError",
    "Profile",
    "Settings",
    "environment_variables",
    "load_settings",
    "means_sandbox",
    "read_config_file",
]


def _normalise_url(value: str | None) -> str | None:
    if value is None or means_sandbox(value) or not value.strip():
        return None
    # The client owns the rule; imported here, not at the top, because a
    # sandbox start (no URL) must not pay for httpx before the first frame.
    from accountdesk.client import InvalidBaseUrlError, normalise_base_url

    try:
        return normalise_base_url(value)
    except InvalidBaseUrlError as error:
        raise ValueError(str(error)) from None


class Profile(BaseModel):
    """One ``[profiles.NAME]`` table."""

    # Keys we do not know are the user's business (another tool's, a newer
    # version's): kept in the file, ignored here, listed in the log.
    model_config = ConfigDict(extra="ignore")

    base_url: str | None = None
    api_key: str | None = None
    api_secret: SecretStr | None = None
    theme: str | None = None
    #: A training sandbox's control token: F4 then shows the room (trainees).
    sandbox_control_token: SecretStr | None = None
    #: Presenter mode from the start (a demo machine's profile).
    present: bool | None = None

    @field_validator("base_url")
    @classmethod
    def _base_url(cls, value: str | None) -> str | None:
        return _normalise_url(value)


class Settings(BaseModel):
    """What the app runs with, every source merged and validated.

    Built with keywords, it reads the environment under them (flags beat
    ``ACCOUNTDESK_*``), as a settings object of pydantic-settings did;
    :func:`load_settings` adds the config file beneath both.
    """

    model_config = ConfigDict(extra="ignore", validate_default=True)

    # A field's description is its line in ``accountdesk --help`` (its
    # ACCOUNTDESK_* variable) and in the manual: one text, here.
    base_url: str | None = Field(
        default=None, description="a live service's base URL (unset: the embedded sandbox)"
    )
    api_key: str = Field(default="", description="the API key to sign in with")
    api_secret: SecretStr = Field(
        default=SecretStr(""), description="the API secret to sign in with"
    )
    profile: str | None = Field(default=None, description="a [profiles.NAME] table to use")
    theme: str | None = Field(default=None, description="a Textual theme by name")
    keymap: dict[str, str] = Field(default_factory=dict)
    profiles: dict[str, Profile] = Field(default_factory=dict)
    max_response_mb: int = Field(
        default=64,
        ge=1,
        le=4096,
        description="the largest answer accepted from the service, in MiB (decoded)",
    )
    clipboard: ClipboardMode = Field(
        default=ClipboardMode.AUTO,
        description="where copied text goes: osc52 (the terminal), file, or auto",
    )
    sandbox_control_token: SecretStr | None = Field(
        default=None,
        description="the control token of a sandbox served beyond loopback or of a training room (its clock, reset, the trainees in F4)",
    )
    present: bool = Field(
        default=False,
        description="presenter mode from the start: every customer datum on screen shown as a fake",
    )
    #: Keys of the config file this version does not know (ignored; the app logs them).
    ignored_keys: tuple[str, ...] = ()

    @field_validator("base_url", mode="before")
    @classmethod
    def _base_url(cls, value: object) -> object:
        return _normalise_url(value) if isinstance(value, str) else value

    @model_validator(mode="before")
    @classmethod
    def _environment_first(cls, data: object) -> object:
        # The keywords win over the environment (load_settings passes the
        # file's values beneath the environment's itself).
        if not isinstance(data, dict):
            return data
        return {**environment_values(os.environ, _ENV_FIELDS), **data}

    @property
    def sandbox(self) -> bool:
        return self.base_url is None

    @property
    def service_key(self) -> str:
        """``"sandbox"`` for the embedded service, else the base URL: what per-service files key on."""
        return SANDBOX_SERVICE_KEY if self.base_url is None else self.base_url

    @property
    def max_response_bytes(self) -> int:
        return self.max_response_mb * 1024 * 1024

    def __repr__(self) -> str:  # pydantic would list the profiles' secrets masked; keep it short
        return (
            f"Settings(base_url={self.base_url!r}, api_key={self.api_key!r}, "
            f"profile={self.profile!r}, theme={self.theme!r})"
        )


#: The settings the environment may give (every field but what the app fills in itself).
_ENV_FIELDS = frozenset(Settings.model_fields) - {"ignored_keys"}


def environment_variables() -> list[tuple[str, str]]:
    """``(ACCOUNTDESK_NAME, what it sets)`` for every setting the environment may give.

    From the model: a field with a description is one. Tables (keymap,
    profiles) belong in the config file and have none.
    """
    return [
        (ENV_PREFIX + name.upper(), field.description)
        for name, field in Settings.model_fields.items()
        if field.description
    ]


def _describe(
    error: ValidationError,
    flags: Mapping[str, Any],
    env: Mapping[str, str],
    path: Path,
    profile_table: tuple[str, Mapping[str, Any]] | None = None,
) -> str:
    """One line naming where the first refused value came from and why.

    ``profile_table``: the chosen profile's name and table, whose values were
    merged over the file's top level: a value of theirs is named in its table
    (``profiles.NAME.KEY``), the line a person has to fix.
    """
    first = error.errors(include_url=False, include_input=False)[0]
    location = ".".join(str(part) for part in first.get("loc", ())) or "settings"
    field = location.split(".")[0]
    if field in flags:
        where = f"--{field.replace('_', '-')}"
    elif f"{ENV_PREFIX}{field.upper()}" in env:
        where = f"${ENV_PREFIX}{field.upper()}"
    else:
        where = str(path)
        if profile_table is not None and profile_table[1].get(field) is not None:
            location = f"profiles.{profile_table[0]}.{location}"
    kind = first.get("type", "")
    message = first.get("msg", "invalid")
    if kind in {"dict_type", "model_type", "model_attributes_type"}:
        message = "must be a table"
    message = message.removeprefix("Value error, ")
    return f"{where}: {location}: {message}"


def _unknown_keys(document: Mapping[str, Any]) -> tuple[str, ...]:
    known = set(Settings.model_fields) - {"ignored_keys"}
    unknown = [key for key in document if key not in known]
    profiles = document.get("profiles")
    if isinstance(profiles, Mapping):
        for name, table in profiles.items():
            if isinstance(table, Mapping):
                unknown += [
                    f"profiles.{name}.{key}" for key in table if key not in Profile.model_fields
                ]
    return tuple(unknown)


def load_settings(
    config_path: Path,
    *,
    flags: Mapping[str, Any] | None = None,
    document: Mapping[str, Any] | None = None,
) -> Settings:
    """Merge ``flags`` (only the ones given), the environment and the file; validate once.

    ``document``: the file as already read (the first frame's), not read again.

    On the embedded sandbox a key stored in the file belongs to some live
    service, so the sandbox's public demo credential is filled in instead,
    unless a key was given by flag or environment.
    """
    flags = {key: value for key, value in (flags or {}).items() if value is not None}
    env = os.environ
    if document is None:
        document = read_config_file(config_path)
    profile = chosen_profile(flags, env, document, config_path)
    values = file_values(document, profile, config_path)
    if profile:
        values["profile"] = profile
    try:
        # Flags > environment > the file; a table from the environment adds
        # to the file's (keymap: its keys win), as pydantic-settings merged them.
        sources = merged(values, environment_values(env, _ENV_FIELDS))
        settings = Settings(**{**sources, **flags})
    except ValidationError as error:
        table = document.get("profiles", {}).get(profile) if profile else None
        chosen = (profile, table) if profile and isinstance(table, Mapping) else None
        raise ConfigError(_describe(error, flags, env, config_path, chosen)) from None
    ignored = _unknown_keys(document)
    if ignored:
        settings = settings.model_copy(update={"ignored_keys": ignored})
    key_given = "api_key" in flags or f"{ENV_PREFIX}API_KEY" in env
    if settings.sandbox and not key_given:
        settings = settings.model_copy(
            update={"api_key": SANDBOX_API_KEY, "api_secret": SecretStr(SANDBOX_API_SECRET)}
        )
    return settings
